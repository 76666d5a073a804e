import Foundation
import SusiModel
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// Location lookup in GeoNames' cities over 15,000 people (issue 51), as `make deps` installs
/// them into models/gazetteer (`scripts/gazetteer-deps.sh`; `make test` runs `make deps` first).
/// Without those files these tests fail, saying so: they are what the speaker ships.
final class GeoNamesGazetteerTests: XCTestCase {
    private static let directory = repositoryRoot + "/models/gazetteer"
    /// Read once: the whole table takes a moment in a debug build.
    private static let installed: Gazetteer? = try? Gazetteer(geoNames: directory)

    private var gazetteer: Gazetteer!

    override func setUpWithError() throws {
        gazetteer = try XCTUnwrap(
            Self.installed,
            "\(Self.directory)/cities.tsv is missing or unreadable: run `make deps` (scripts/gazetteer-deps.sh)")
    }

    private func assertFinds(
        _ text: String, _ country: String, region: String? = nil, named: String? = nil, near: (Double, Double)? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        guard let place = gazetteer.find(text) else { return XCTFail("'\(text)' not found", file: file, line: line) }
        XCTAssertEqual(place.countryCode, country, "\(text) -> \(place)", file: file, line: line)
        if let region { XCTAssertEqual(place.regionCode, region, "\(text) -> \(place)", file: file, line: line) }
        if let named { XCTAssertEqual(place.name, named, "\(text) -> \(place)", file: file, line: line) }
        if let (latitude, longitude) = near {
            XCTAssertEqual(place.latitude, latitude, accuracy: 0.3, "\(text) -> \(place)", file: file, line: line)
            XCTAssertEqual(place.longitude, longitude, accuracy: 0.3, "\(text) -> \(place)", file: file, line: line)
        }
    }

    func testTheCitiesTheIssueNames() {
        XCTAssertEqual(gazetteer.source, .geoNames)
        XCTAssertGreaterThan(gazetteer.places.count, 30_000)
        assertFinds("Portland, US", "US", region: "OR", near: (45.52, -122.68))
        assertFinds("Portland, OR", "US", region: "OR")
        assertFinds("Portland, Oregon", "US", region: "OR")
        assertFinds("Portland, Maine", "US", region: "ME", near: (43.66, -70.26))
        assertFinds("portland, me", "US", region: "ME")
        assertFinds("Portland, Oregon, US", "US", region: "OR")
        assertFinds("Munich", "DE", near: (48.14, 11.58))
        assertFinds("München", "DE", near: (48.14, 11.58))
        assertFinds("Muenchen", "DE", near: (48.14, 11.58))
        assertFinds("San Francisco", "US", region: "CA", near: (37.77, -122.42))
        assertFinds("Mumbai", "IN", near: (19.07, 72.88))
        assertFinds("Delhi", "IN", near: (28.65, 77.23))
        assertFinds("Boston", "US", region: "MA", near: (42.36, -71.06))
        assertFinds("Hamburg", "DE", near: (53.55, 10.0))
        XCTAssertEqual(gazetteer.find("Portland")?.region, "Oregon", "the largest Portland")
        XCTAssertEqual(gazetteer.find("Portland, US")?.countryName, "United States")
    }

    /// Forty cities of more than a million people, as a person would type them (English names,
    /// with or without accents).
    func testFortyWorldCitiesOfOverAMillionPeople() {
        let cities: [(String, String)] = [
            ("Tokyo", "JP"), ("Delhi", "IN"), ("Shanghai", "CN"), ("São Paulo", "BR"), ("Mexico City", "MX"),
            ("Cairo", "EG"), ("Mumbai", "IN"), ("Beijing", "CN"), ("Dhaka", "BD"), ("Osaka", "JP"),
            ("New York", "US"), ("Karachi", "PK"), ("Buenos Aires", "AR"), ("Istanbul", "TR"), ("Kolkata", "IN"),
            ("Manila", "PH"), ("Lagos", "NG"), ("Rio de Janeiro", "BR"), ("Tianjin", "CN"), ("Kinshasa", "CD"),
            ("Guangzhou", "CN"), ("Los Angeles", "US"), ("Moscow", "RU"), ("Shenzhen", "CN"), ("Lahore", "PK"),
            ("Bangalore", "IN"), ("Paris", "FR"), ("Bogotá", "CO"), ("Jakarta", "ID"), ("Chennai", "IN"),
            ("Lima", "PE"), ("Bangkok", "TH"), ("Seoul", "KR"), ("Nagoya", "JP"), ("Hyderabad", "IN"),
            ("London", "GB"), ("Tehran", "IR"), ("Chicago", "US"), ("Chengdu", "CN"), ("Nanjing", "CN"),
        ]
        XCTAssertEqual(cities.count, 40)
        var missed: [String] = []
        for (name, country) in cities {
            guard let place = gazetteer.find(name), place.countryCode == country, place.population > 1_000_000 else {
                missed.append("\(name) -> \(gazetteer.find(name).map { "\($0)" } ?? "nothing")")
                continue
            }
        }
        XCTAssertEqual(missed, [], "\(cities.count - missed.count) of \(cities.count) resolved")
        assertFinds("Sao Paulo", "BR")
        assertFinds("Bogota", "CO")
    }

    func testCountriesRegionsAndOtherNames() {
        assertFinds("Portland, United States", "US", region: "OR")
        assertFinds("Portland, USA", "US", region: "OR")
        assertFinds("Hamburg, Germany", "DE")
        assertFinds("London, Canada", "CA")
        assertFinds("London, UK", "GB")
        assertFinds("Lima, Ohio", "US", region: "OH")
        assertFinds("Moscow, Idaho", "US", region: "ID")
        assertFinds("Hyderabad, Pakistan", "PK")
        assertFinds("Hyderabad, PK", "PK")
        assertFinds("Dover, DE", "US", region: "DE")  // Delaware: Germany has no Dover
        assertFinds("St. Petersburg, Florida", "US", region: "FL")
        assertFinds("Saint Petersburg", "RU")
        assertFinds("Bombay", "IN", named: "Mumbai")
        assertFinds("Washington", "US", region: "DC")
        assertFinds("new york", "US", named: "New York City")
        XCTAssertNil(gazetteer.find("Zzyzxville"))
        XCTAssertNil(gazetteer.find("Portland, France"))
        XCTAssertNil(gazetteer.find(", US"))
    }

    func testAnAmbiguousNameTakesTheLargestAndSaysHowToAskForAnother() throws {
        let scratch = try ScratchDirectory("susi-geonames")
        defer { scratch.remove() }
        let store = ConfigStore(path: scratch.path + "/config.json")
        _ = try store.loadOrCreate()
        let portland = try LocationSetting.apply("Portland", store: store, gazetteer: gazetteer)
        XCTAssertEqual(portland.place?.regionCode, "OR")
        XCTAssertEqual(portland.others.first?.regionCode, "ME")
        XCTAssertTrue(portland.description.hasPrefix("Portland, Oregon: latitude 45.52"), portland.description)
        XCTAssertTrue(
            portland.description.hasSuffix("I took the largest: say 'Portland, Maine' for another"), portland.description)
        XCTAssertEqual(try store.load().location.countryCode, "US")
        XCTAssertEqual(try store.load().location.countryName, "United States")
        let lima = try LocationSetting.apply("Lima", store: store, gazetteer: gazetteer)
        XCTAssertTrue(lima.description.hasSuffix("say 'Lima, Ohio' for another"), lima.description)
        let london = try LocationSetting.apply("London", store: store, gazetteer: gazetteer)
        XCTAssertTrue(london.description.hasSuffix("say 'London, Canada' for another"), london.description)
        let maine = try LocationSetting.apply("Portland, Maine", store: store, gazetteer: gazetteer)
        XCTAssertEqual(maine.others, [], "named exactly: no guess to mention")
        XCTAssertFalse(maine.description.contains("largest"), maine.description)
        XCTAssertThrowsError(try LocationSetting.apply("Portland, France", store: store, gazetteer: gazetteer)) {
            XCTAssertTrue("\($0)".contains("the largest is Portland, Oregon, United States"), "\($0)")
        }
        XCTAssertThrowsError(try LocationSetting.apply("Zzyzxville", store: store, gazetteer: gazetteer)) {
            XCTAssertTrue("\($0)".contains("GeoNames"), "\($0)")
            XCTAssertTrue("\($0)".contains("latitude,longitude"), "\($0)")
        }
    }

    func testTheSpeakerFindsTheInstalledGazetteerAndFallsBackWithoutIt() {
        let models = repositoryRoot + "/models"
        XCTAssertEqual(LocationSetting.gazetteer(environment: ["SUSI_MODELS": models]).source, .geoNames)
        let missing = Gazetteer.installed(in: NSTemporaryDirectory() + "no-gazetteer-\(UUID().uuidString)")
        XCTAssertEqual(missing.source, .timeZoneCities)
        XCTAssertEqual(missing.find("Berlin")?.countryCode, "DE", "the small list still answers")
    }
}
