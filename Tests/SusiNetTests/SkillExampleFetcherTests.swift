import Foundation
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

/// Fetching SUSI.AI's skill examples from a fake skill CMS on a loopback server, in the shape
/// susi_server's `getSkillList.json` sends (skills by name, each with its metadata).
final class SkillExampleFetcherTests: XCTestCase {
    private var cache = ""

    override func setUp() {
        cache = FileManager.default.temporaryDirectory.appendingPathComponent("susi-cms-\(UUID().uuidString)").path
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: cache) }

    static let skillList = """
        {"accepted": true, "model": "general", "group": "All", "language": "en", "message": "Success: Fetched skill list",
         "skills": {
           "weather": {"model": "general", "group": "Knowledge", "language": "en", "skill_name": "Weather",
                       "examples": ["What is the weather in Berlin?", "  will it rain tomorrow  "], "author": "x"},
           "flip_coin": {"skill_name": "Flip a coin", "examples": ["flip a coin", "", "What is the weather in Berlin?"]},
           "no_examples": {"skill_name": "Quiet"}
         }}
        """

    func testExamplesOfEverySkillAreFetchedCachedAndRefreshedDaily() throws {
        let seen = QueryLog()
        let (server, base) = try startServer { router in
            router.get("/cms/getSkillList.json") { request in
                seen.append(request.query)
                return jsonReply(Self.skillList)
            }
        }
        defer { server.stop() }
        let fetcher = SkillExampleFetcher(server: base, http: CurlHTTPClient())
        let now = Date()
        XCTAssertTrue(fetcher.refresh(cacheDirectory: cache, now: now))
        XCTAssertEqual(seen.all.first?["group"], "All")
        XCTAssertEqual(seen.all.first?["language"], "en")
        let cached = try XCTUnwrap(SkillExampleCache.read(from: cache))
        XCTAssertEqual(
            cached.examples, ["flip a coin", "What is the weather in Berlin?", "will it rain tomorrow"],
            "skills in name order, blanks and duplicates dropped")
        XCTAssertEqual(cached.server, base)

        XCTAssertFalse(fetcher.refresh(cacheDirectory: cache, now: now.addingTimeInterval(3600)), "at most daily")
        XCTAssertEqual(seen.all.count, 1, "no request within the day")
        XCTAssertFalse(fetcher.refresh(cacheDirectory: cache, now: now.addingTimeInterval(25 * 3600)), "same examples")
        XCTAssertEqual(seen.all.count, 2, "a day later it asks again")
    }

    func testOfflineOrBrokenServerKeepsTheCacheAsItWas() throws {
        let old = SkillExampleCache(
            fetchedAt: Date(timeIntervalSince1970: 0), server: "http://127.0.0.1:1", examples: ["old one"])
        try old.write(to: cache)
        let refused = SkillExampleFetcher(server: "http://127.0.0.1:1", http: CurlHTTPClient(), timeout: 2)
        XCTAssertThrowsError(try refused.fetch())
        XCTAssertFalse(refused.refresh(cacheDirectory: cache))
        XCTAssertEqual(SkillExampleCache.read(from: cache), old)

        let (server, base) = try startServer { router in
            router.get("/cms/getSkillList.json") { _ in .html("<title>Internal error</title>", status: 500) }
        }
        defer { server.stop() }
        XCTAssertFalse(SkillExampleFetcher(server: base, http: CurlHTTPClient()).refresh(cacheDirectory: cache))
        XCTAssertEqual(SkillExampleCache.read(from: cache)?.examples, ["old one"])
    }
}
