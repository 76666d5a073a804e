import Foundation
import SusiCore
import XCTest

@testable import SusiSpeaker

/// The offline gazetteer (tzdata's zone tables, iso-codes' country names) and `location set`.
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
        XCTAssertGreaterThan(gazetteer.places.count, 300, "tzdata has hundreds of zone cities")
        let berlin = try XCTUnwrap(gazetteer.find("Berlin"))
        XCTAssertEqual(berlin.countryCode, "DE")
        XCTAssertEqual(berlin.countryName, "Germany")
        XCTAssertEqual(berlin.latitude, 52.5, accuracy: 0.1)
        XCTAssertEqual(berlin.longitude, 13.4, accuracy: 0.1)
        XCTAssertEqual(gazetteer.find("new york")?.countryCode, "US")
        XCTAssertEqual(gazetteer.find("São Paulo")?.countryCode, "BR", "accents are folded")
        XCTAssertEqual(gazetteer.find("  kolkata ")?.countryCode, "IN")
        XCTAssertNil(gazetteer.find("Atlantis"))
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
        XCTAssertThrowsError(try LocationSetting.apply("Atlantis", store: store, gazetteer: Gazetteer())) {
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
        let locate = LocationSetting.locator(store: store)
        let said = try locate("Berlin")
        XCTAssertTrue(said.hasPrefix("Berlin: latitude 52.5"), said)
        XCTAssertTrue(said.hasSuffix("(DE Germany)"), said)
        XCTAssertEqual(try store.load().location.countryCode, "DE")
        XCTAssertThrowsError(try locate("Atlantis"))
    }
}
