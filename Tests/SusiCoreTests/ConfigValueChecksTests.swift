import Foundation
import XCTest

@testable import SusiCore

/// Config values that would hand the speaker over: a media folder of `/` (every file it can
/// read), a server URL with quotes or spaces (issue 50).
final class ConfigValueChecksTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-values-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var path: String { directory + "/config.json" }
    private var store: ConfigStore { ConfigStore(path: path) }

    private func write(_ text: String) {
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    private func assertConfigError(
        _ code: String, containing fragments: [String], file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? ConfigError else {
                return XCTFail("not a ConfigError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", file: file, line: line)
            }
        }
    }

    // MARK: Media folders

    func testMediaFoldersAreChangedOnlyInTheFile() {
        XCTAssertTrue(ConfigSchema.fileOnlyKeys.contains("player.media_dirs"))
    }

    func testTheWholeFileSystemIsNoMediaFolder() throws {
        for root in ["/", "//", "/.", "/./", "/srv/..", "/srv/../"] {
            assertConfigError("config-bad-value", containing: ["player.media_dirs", "not /"]) {
                try self.store.set("player.media_dirs", to: "[\"/srv/music\", \"\(root)\"]")
            }
            write(#"{"player": {"media_dirs": ["\#(root)"]}}"#)
            assertConfigError("config-bad-value", containing: [path, "player.media_dirs"]) { try self.store.validate() }
        }
        try? FileManager.default.removeItem(atPath: path)
        XCTAssertEqual(
            try store.set("player.media_dirs", to: #"["/srv/music", "~/Music", "/srv/../music"]"#).player.mediaDirectories.count,
            3)
    }

    // MARK: URLs

    func testServerURLsWithQuotesSpacesOrControlsAreRefused() throws {
        let bad = [
            #"https://api.susi.ai""#, "https://api.susi.ai'", "https://api susi.ai", "https://api.susi.ai/ path",
            "https://api.susi.ai\t", "https://api.susi.ai/\u{7}", "https://api.susi.ai\\evil", "https://api.susi.ai/\u{85}",
            #"http://"evil"/"#, "https://api.susi.ai/<script>", "ftp://api.susi.ai", "https:///path", "https://", "api.susi.ai",
            " https://api.susi.ai", "https://api.susi.ai\n",
        ]
        for key in ["brain.server", "websearch.url"] {
            for text in bad {
                assertConfigError("config-bad-value", containing: [key]) { try self.store.set(key, to: text) }
            }
        }
        let good = [
            "https://api.susi.ai", "http://127.0.0.1:4000", "http://[::1]:4000/", "https://api.susi.ai/base/path?x=1&y=%20",
            "HTTPS://API.SUSI.AI/",
        ]
        for text in good {
            XCTAssertEqual(try store.set("brain.server", to: text).brain.server, text)
        }
    }
}
