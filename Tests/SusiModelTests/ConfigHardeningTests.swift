import Foundation
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel

/// Config files and values from outside (a huge file, duplicate keys, a media folder of `/`
/// that would hand over every file the speaker can read, a server URL with quotes or spaces)
/// are refused with a message naming what is wrong (issue 50).
final class ConfigHardeningTests: XCTestCase {
    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-hardening")
    }

    override func tearDown() {
        scratch.remove()
    }

    private var path: String { scratch.path + "/config.json" }
    private var store: ConfigStore { ConfigStore(path: path) }

    private func write(_ text: String) {
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    /// A sparse file of `size` bytes: no disk used, but `read` returns every byte.
    private func writeSparse(size: UInt64) throws {
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()
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

    // MARK: Size

    func testAFileOverTheLimitIsRefusedByEveryReader() throws {
        try writeSparse(size: 16 << 20)
        let fragments = [path, "1 MiB"]
        assertConfigError("config-too-large", containing: fragments) { try self.store.validate() }
        assertConfigError("config-too-large", containing: fragments) { try self.store.load() }
        assertConfigError("config-too-large", containing: fragments) { try self.store.set("room", to: "Kitchen") }
        assertConfigError("config-too-large", containing: fragments) {
            _ = try LiveConfig(store: self.store, interval: 0) { _ in }
        }
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64, 16 << 20, "nothing was saved over it")
    }

    func testALiveConfigKeepsTheLastGoodConfigWhenTheFileGrowsTooLarge() throws {
        write(#"{"room": "Kitchen"}"#)
        let codes = Mutex<[String]>([])
        let live = try LiveConfig(store: store, interval: 0) { error in codes.withLock { $0.append(error.code) } }
        XCTAssertEqual(live.current.room, "Kitchen")
        try writeSparse(size: (1 << 20) + 1)
        XCTAssertEqual(live.current.room, "Kitchen")
        XCTAssertEqual(codes.withLock { $0 }, ["config-too-large"])
    }

    func testAFileOfExactlyTheLimitIsRead() throws {
        let text = #"{"room": "Kitchen"}"#
        write(text + String(repeating: " ", count: (1 << 20) - text.utf8.count))
        XCTAssertEqual(try store.validate().room, "Kitchen")
    }

    // MARK: Duplicate keys

    func testADuplicateKeyIsAnErrorNamingIt() {
        let cases: [(String, String)] = [
            (#"{"tts": {"voice": "en-us", "voice": "x"}}"#, "tts.voice"),
            (#"{"room": "Kitchen", "tts": {"rate": 200}, "room": "Attic"}"#, "room"),
            (#"{"tts": {"rate": 200}, "tts": {"pitch": 40}}"#, "tts"),
            // The same key spelled with an escape is the same key.
            (#"{"room": "a", "r\u006fom": "b"}"#, "room"),
            (#"{"setup": {"hotspot": {"ssid": "a", "channel": 1, "ssid": "b"}}}"#, "setup.hotspot.ssid"),
        ]
        for (text, key) in cases {
            write(text)
            assertConfigError("config-bad-json", containing: [path, "'\(key)'"]) { try self.store.validate() }
        }
    }

    func testTheSameNameInOtherObjectsValuesAndStringsIsNoDuplicate() throws {
        let text = #"""
            {"room": "room \"room\": {\"room\": 1} \\",
             "tts": {"voice": "en-gb", "variant": ""},
             "brain": {"mode": "local"},
             "player": {"args": ["--no-video", "--no-video"]}}
            """#
        write(text)
        let config = try store.validate()
        XCTAssertEqual(config.room, #"room "room": {"room": 1} \"#)
        XCTAssertEqual(config.player.args, ["--no-video", "--no-video"])
    }

    func testTheScannerFollowsEscapesSurrogatesAndNesting() {
        let cases: [(String, String?)] = [
            (#"{"a": {"b": [1, {"c": 1, "c": 2}]}}"#, "a.b.c"),
            (#"{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}"#, nil),
            (#"{"\ud83c\udfb5": 1, "🎵": 2}"#, "🎵"),
            (#"{"\"": 1, "\\": 2, "\/": 3, "/": 4}"#, "/"),
            (#"{"x\"y": 1, "x\\": {"y": 2}}"#, nil),
            (#"{"é": 1, "e\u0301": 2}"#, "é"),
            (#"[{"k": 1}, {"k": 2}]"#, nil),
            (#"{}"#, nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(JSONDuplicateKeys.first(in: Data(text.utf8)), expected, text)
        }
        // Not JSON at all: an answer of little meaning, but an answer.
        for text in ["}}]]", #"{"a": "unterminated"#, #"{"a\"#, #"{"\u12"#, #"{"\ud800": 1, "\ud800": 2}"#, ""] {
            _ = JSONDuplicateKeys.first(in: Data(text.utf8))
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
