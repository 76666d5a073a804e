import Foundation
import Synchronization
import XCTest

@testable import SusiCore

/// Bidi controls in outside text (an SSID, an answer, a URL) cannot reorder a log line or
/// what a terminal shows (issue 50).
final class BidiControlsTests: XCTestCase {
    private final class Lines: LogHandler {
        let lines = Mutex<[String]>([])
        func write(level: LogLevel, label: String, message: String) { lines.withLock { $0.append(message) } }
    }

    func testALogLineShowsBidiControlsEscaped() {
        let lines = Lines()
        let logger = Logger(label: "setup", handler: lines)
        let controls = "\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{61C}\u{202A}\u{202B}\u{202D}"
        logger.info("stored Wi-Fi network \"Cafe\u{202E}knaB\u{202C}\(controls)\"")
        let escaped = #"\u{2066}\u{2067}\u{2068}\u{2069}\u{200E}\u{200F}\u{61C}\u{202A}\u{202B}\u{202D}"#
        XCTAssertEqual(lines.lines.withLock { $0 }, [#"stored Wi-Fi network "Cafe\u{202E}knaB\u{202C}"# + escaped + "\""])
    }

    func testOtherTextIsLeftAlone() {
        let lines = Lines()
        let logger = Logger(label: "brain", handler: lines)
        let text = "שלום עולם, مرحبا, 👩‍👩‍👧 family, ZWJ and NBSP\u{A0}stay"
        logger.info(text)
        XCTAssertEqual(lines.lines.withLock { $0 }, [text])
    }

    func testTerminalTextShowsBidiControlsAndDropsEscapeCodes() {
        XCTAssertEqual(
            ControlCharacters.escapedForTerminal("a\u{202E}b\u{1B}[2Jc\u{9B}1A\nd\te\u{2069}"),
            #"a\u{202E}bc"# + "\nd\te" + #"\u{2069}"#)
        XCTAssertEqual(ControlCharacters.escapedForTerminal("plain 🎵 שלום"), "plain 🎵 שלום")
    }

    func testJSONTextKeepsItsMeaning() throws {
        let value = "x\u{202E}y\u{1B}z\u{85}\u{7F}\u{2028}\r"
        let encoded = try JSONSerialization.data(
            withJSONObject: ["v": value, "w": [1, 2]], options: [.prettyPrinted, .sortedKeys])
        let escaped = ControlCharacters.escapedForJSON(String(decoding: encoded, as: UTF8.self))
        XCTAssertFalse(
            escaped.unicodeScalars.contains { ControlCharacters.isBidiControl($0) || $0.value == 0x85 || $0.value == 0x2028 },
            escaped)
        XCTAssertTrue(escaped.contains(#"\u202E"#) && escaped.contains(#"\u0085"#) && escaped.contains("\n"), escaped)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: Any])
        XCTAssertEqual(decoded["v"] as? String, value)
        XCTAssertEqual(decoded["w"] as? [Int], [1, 2])
    }
}
