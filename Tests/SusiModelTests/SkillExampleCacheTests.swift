import Foundation
import XCTest

@testable import SusiModel

final class SkillExampleCacheTests: XCTestCase {
    func testRoundTripAndDailyRefresh() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("susi-examples-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        XCTAssertNil(SkillExampleCache.read(from: directory), "never fetched: no cache, no error")
        XCTAssertTrue(SkillExampleCache.isDue(in: directory, server: "https://api.susi.ai"))
        let fetched = Date(timeIntervalSince1970: 1_800_000_000)
        let cache = SkillExampleCache(fetchedAt: fetched, server: "https://api.susi.ai", examples: ["a", "b", "a"])
        XCTAssertEqual(cache.examples, ["a", "b"], "duplicates dropped")
        try cache.write(to: directory)
        XCTAssertEqual(SkillExampleCache.read(from: directory), cache)
        XCTAssertFalse(
            SkillExampleCache.isDue(in: directory, server: "https://api.susi.ai", now: fetched.addingTimeInterval(3600)))
        XCTAssertTrue(
            SkillExampleCache.isDue(in: directory, server: "https://api.susi.ai", now: fetched.addingTimeInterval(25 * 3600)))
        XCTAssertTrue(SkillExampleCache.isDue(in: directory, server: "http://other", now: fetched), "another server's examples")
    }
}
