import Foundation
import SusiTestSupport
import XCTest

@testable import SusiModel

/// The README must stay true: every config key and every command is documented.
final class ReadmeTests: XCTestCase {
    private func readme() throws -> String {
        try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
    }

    func testEveryConfigKeyIsDocumented() throws {
        let text = try readme()
        for key in ConfigSchema.keys {
            XCTAssertTrue(text.contains("`\(key.name)`"), "README lacks config key \(key.name)")
        }
        XCTAssertTrue(text.contains("make demo") && text.contains("make test"))
    }

    /// The config table says which keys `susi run` uses only after a restart, and no others.
    func testRestartKeysAreMarkedInTheTable() throws {
        let rows = try readme().split(separator: "\n").filter { $0.hasPrefix("| `") }
        for key in ConfigSchema.keys {
            guard let row = rows.first(where: { $0.contains("`\(key.name)`") }) else { continue }
            XCTAssertEqual(row.contains("(restart)"), key.needsRestart, "README row of \(key.name): \(row)")
        }
    }
}
