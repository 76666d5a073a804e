import Foundation
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

/// `susi location set` by city or numbers, and chat.json sending it.
final class LocationCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    func testACityIsGeocodedOfflineAndSentToSUSI() throws {
        let set = try cli.run(["location", "set", "New", "York"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertTrue(set.stdout.hasPrefix("New York City, New York: latitude 40.71"), set.stdout)
        XCTAssertTrue(set.stdout.hasSuffix("(US United States)\n"), set.stdout)

        let seen = Mutex<[String: String]>([:])
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { request in
                seen.withLock { $0 = request.query }
                return ServerResponse(
                    contentType: ServerResponse.jsonContentType,
                    body: Data(#"{"query":"hi","answers":[{"actions":[{"type":"answer","expression":"Hello."}]}]}"#.utf8))
            }
        }
        defer { server.stop() }
        let asked = try cli.run(["ask", "--server", base, "hi"])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        let query = seen.withLock { $0 }
        XCTAssertEqual(Double(query["latitude"] ?? "") ?? 0, 40.71, accuracy: 0.01)
        XCTAssertEqual(Double(query["longitude"] ?? "") ?? 0, -74.01, accuracy: 0.01)
        XCTAssertEqual(query["country_code"], "US")
    }

    /// The README's examples, from GeoNames' gazetteer (`make deps`).
    func testTheReadmesFormsAndAnAmbiguousName() throws {
        let country = try cli.run(["location", "set", "Portland,", "US"])
        XCTAssertTrue(country.stdout.hasPrefix("Portland, Oregon: latitude 45.52"), country.stdout + country.stderr)
        let state = try cli.run(["location", "set", "Portland, Maine"])
        XCTAssertTrue(state.stdout.hasPrefix("Portland, Maine: latitude 43.65"), state.stdout + state.stderr)
        XCTAssertEqual(try cli.run(["config", "get", "location.country_code"]).stdout, "US\n")
        let guess = try cli.run(["location", "set", "Portland"])
        XCTAssertTrue(
            guess.stdout.hasSuffix("I took the largest: say 'Portland, Maine' for another\n"), guess.stdout + guess.stderr)
        let munich = try cli.run(["location", "set", "Munich"])
        XCTAssertTrue(munich.stdout.hasPrefix("Munich: latitude 48.13"), munich.stdout + munich.stderr)
        XCTAssertTrue(munich.stdout.hasSuffix("(DE Germany)\n"), munich.stdout)
    }

    func testNumbersUnknownPlacesAndClear() throws {
        let numbers = try cli.run(["location", "set", "52.52,13.40"])
        XCTAssertEqual(numbers.stdout, "latitude 52.52, longitude 13.4\n")
        let unknown = try cli.run(["location", "set", "Zzyzxville"])
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("latitude,longitude"), unknown.stderr)
        XCTAssertEqual(try cli.run(["location", "get"]).stdout, "latitude 52.52, longitude 13.4\n")
        XCTAssertEqual(try cli.run(["location", "clear"]).stdout, "no location set\n")
        XCTAssertEqual(try cli.run(["config", "get", "location.latitude"]).stdout, "null\n")
    }
}
