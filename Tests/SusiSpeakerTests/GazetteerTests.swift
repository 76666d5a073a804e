import Foundation
import SusiModel
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The small fallback gazetteer (tzdata's zone tables, iso-codes' country names), lookups in a
/// gazetteer of given places, and `location set`. GeoNames' gazetteer: `GeoNamesGazetteerTests`.
final class GazetteerTests: XCTestCase {
    func testTzdataCoordinatesInBothPrecisions() throws {
        let minutes = try XCTUnwrap(Gazetteer.coordinates("+5230+01322"))
        XCTAssertEqual(minutes.0, 52.5)
        XCTAssertEqual(minutes.1, 13.3667)
        let seconds = try XCTUnwrap(Gazetteer.coordinates("+404251-0740023"))
        XCTAssertEqual(seconds.0, 40.7142, accuracy: 0.0001)
        XCTAssertEqual(seconds.1, -74.0064, accuracy: 0.0001)
        XCTAssertNil(Gazetteer.coordinates("5230+01322"))
        XCTAssertNil(Gazetteer.coordinates("+52x0+01322"))
    }

    func testTheSystemTablesFindCitiesWithTheirCountries() throws {
        let gazetteer = Gazetteer()
        XCTAssertEqual(gazetteer.source, .timeZoneCities)
        XCTAssertGreaterThan(gazetteer.places.count, 300, "tzdata has hundreds of zone cities")
        let berlin = try XCTUnwrap(gazetteer.find("Berlin"))
        XCTAssertEqual(berlin.countryCode, "DE")
        XCTAssertEqual(berlin.countryName, "Germany")
        XCTAssertEqual(berlin.latitude, 52.5, accuracy: 0.1)
        XCTAssertEqual(berlin.longitude, 13.4, accuracy: 0.1)
        XCTAssertEqual(gazetteer.find("new york")?.countryCode, "US")
        XCTAssertEqual(gazetteer.find("São Paulo")?.countryCode, "BR", "accents are folded")
        XCTAssertEqual(gazetteer.find("  kolkata ")?.countryCode, "IN")
        XCTAssertNil(gazetteer.find("Zzyzxville"))
        XCTAssertNil(gazetteer.find(""))
    }

    func testACountryChoosesBetweenCitiesOfOneName() {
        let gazetteer = Gazetteer(places: [
            .init(name: "Portland", latitude: 45.5, longitude: -122.7, countryCode: "US", countryName: "United States"),
            .init(name: "Portland", latitude: -38.3, longitude: 141.6, countryCode: "AU", countryName: "Australia"),
        ])
        XCTAssertEqual(gazetteer.find("Portland")?.countryCode, "US")
        XCTAssertEqual(gazetteer.find("portland, australia")?.countryCode, "AU")
        XCTAssertEqual(gazetteer.find("Portland, AU")?.latitude, -38.3)
        XCTAssertNil(gazetteer.find("Portland, France"))
    }

    func testTheLargestFittingPlaceIsTakenAndTheOthersOfThatNameKept() {
        let gazetteer = Gazetteer(places: [
            .init(
                name: "Springfield", latitude: 39.8, longitude: -89.6, countryCode: "US", countryName: "United States",
                region: "Illinois", regionCode: "IL", population: 114_000),
            .init(
                name: "Springfield", latitude: 37.2, longitude: -93.3, countryCode: "US", countryName: "United States",
                region: "Missouri", regionCode: "MO", population: 169_000),
            .init(
                name: "Springfield", latitude: 42.1, longitude: -72.6, countryCode: "US", countryName: "United States",
                region: "Massachusetts", regionCode: "MA", population: 155_000),
        ])
        let match = gazetteer.lookUp("springfield")
        XCTAssertEqual(match?.place.regionCode, "MO", "the most populous, wherever it is in the list")
        XCTAssertEqual(match?.others.map(\.regionCode), ["MA", "IL"], "the others, largest first")
        XCTAssertEqual(gazetteer.lookUp("Springfield, IL")?.place.region, "Illinois")
        XCTAssertEqual(gazetteer.lookUp("Springfield, Illinois")?.others, [], "nothing else fits")
        XCTAssertEqual(gazetteer.lookUp("Springfield, massachusetts, United States")?.place.regionCode, "MA")
        XCTAssertNil(gazetteer.lookUp("Springfield, Oregon"))
        XCTAssertEqual(match?.place.fullName, "Springfield, Missouri")
    }

    func testKeysFoldCaseAccentsPunctuationAndAbbreviations() {
        XCTAssertEqual(Gazetteer.key("  São_Paulo "), "sao paulo")
        XCTAssertEqual(Gazetteer.key("St. Louis"), Gazetteer.key("Saint Louis"))
        XCTAssertEqual(Gazetteer.key("Xi'an"), "xian")
        XCTAssertEqual(Gazetteer.key("Wrocław"), "wroclaw")
        XCTAssertEqual(Gazetteer.key("Gießen"), "giessen")
        XCTAssertEqual(Gazetteer.key("Winston-Salem"), "winston salem")
    }

    func testANameMissingFromTheFallbackListSaysHowToGetTheFullGazetteer() throws {
        let scratch = try ScratchDirectory("susi-fallback")
        defer { scratch.remove() }
        let store = ConfigStore(path: scratch.path + "/config.json")
        _ = try store.loadOrCreate()
        XCTAssertThrowsError(try LocationSetting.apply("Munich", store: store, gazetteer: Gazetteer())) {
            XCTAssertTrue("\($0)".contains("tzdata's time-zone cities"), "\($0)")
            XCTAssertTrue("\($0)".contains("`make deps`"), "\($0)")
        }
    }

    func testLocationSetSavesAllFourKeys() throws {
        let directory = NSTemporaryDirectory() + "susi-location-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ConfigStore(path: directory + "/config.json")
        _ = try store.loadOrCreate()
        let city = try LocationSetting.apply("Berlin", store: store, gazetteer: Gazetteer())
        XCTAssertEqual(city.place?.name, "Berlin")
        XCTAssertEqual(try store.load().location.countryCode, "DE")
        XCTAssertEqual(try store.load().location.latitude ?? 0, 52.5, accuracy: 0.1)
        let numbers = try LocationSetting.apply("48.1374, 11.5755", store: store, gazetteer: Gazetteer())
        XCTAssertNil(numbers.place)
        let location = try store.load().location
        XCTAssertEqual(location.latitude, 48.1374)
        XCTAssertEqual(location.longitude, 11.5755)
        XCTAssertEqual(location.countryCode, "", "coordinates alone name no country")
        XCTAssertEqual(location.countryName, "")
        XCTAssertThrowsError(try LocationSetting.apply("91,0", store: store, gazetteer: Gazetteer()))
        XCTAssertThrowsError(try LocationSetting.apply("Zzyzxville", store: store, gazetteer: Gazetteer())) {
            XCTAssertTrue("\($0)".contains("latitude,longitude"), "\($0)")
        }
        XCTAssertEqual(try store.load().location.latitude, 48.1374, "a failed set changes nothing")
        XCTAssertNil(try LocationSetting.clear(store: store).location.latitude)
    }

    func testTheWebPagesLocatorSetsTheCityAndSaysWhat() throws {
        let directory = NSTemporaryDirectory() + "susi-locator-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ConfigStore(path: directory + "/config.json")
        _ = try store.loadOrCreate()
        let locate = LocationSetting.locator(store: store, environment: ["SUSI_MODELS": repositoryRoot + "/models"])
        let said = try locate("Berlin")
        XCTAssertTrue(said.hasPrefix("Berlin: latitude 52.5"), said)
        XCTAssertTrue(said.contains("(DE Germany)"), said)
        XCTAssertEqual(try store.load().location.countryCode, "DE")
        XCTAssertThrowsError(try locate("Zzyzxville"))
    }
}
