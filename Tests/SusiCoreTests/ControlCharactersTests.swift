import Foundation
import Synchronization
import XCTest

@testable import SusiCore

/// Outside text in log lines and on the terminal: escaped, or stripped of escape codes.
final class ControlCharactersTests: XCTestCase {
    /// Keeps every line a handler was given.
    private final class CapturingHandler: LogHandler {
        let lines = Mutex<[String]>([])
        func write(level: LogLevel, label: String, message: String) {
            lines.withLock { $0.append("susi[\(label)] \(level.name): \(message)") }
        }
    }

    func testAnSSIDCannotForgeALogLine() {
        let handler = CapturingHandler()
        let logger = Logger(label: "setup", handler: handler)
        let ssid = "Cafe\nsusi[setup] info: stored Wi-Fi network \"Bank\"\r\u{1B}[2K\u{1B}]0;pwned\u{07}"
        logger.info("stored Wi-Fi network \"\(ssid)\"")
        let lines = handler.lines.withLock { $0 }
        XCTAssertEqual(lines.count, 1)
        let line = lines.first ?? ""
        XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, line)
        XCTAssertEqual(
            line,
            #"susi[setup] info: stored Wi-Fi network "Cafe\nsusi[setup] info: stored Wi-Fi network "Bank"\r\u{1B}[2K\u{1B}]0;pwned\u{7}""#
        )
    }

    func testLogEscapesEveryKindOfLineBreakAndLeavesTextAlone() {
        XCTAssertEqual(ControlCharacters.escapedForLog("plain — ünïcode 🎵 C:\\path"), "plain — ünïcode 🎵 C:\\path")
        XCTAssertEqual(ControlCharacters.escapedForLog("a\tb\u{0}c\u{7F}d"), #"a\tb\u{0}c\u{7F}d"#)
        XCTAssertEqual(
            ControlCharacters.escapedForLog("a\u{85}b\u{2028}c\u{2029}d\u{9B}e"), #"a\u{85}b\u{2028}c\u{2029}d\u{9B}e"#)
    }

    func testTerminalEscapesAreStrippedWholeAndTextKept() {
        let cases: [(String, String)] = [
            ("It is \u{1B}[1;31mten\u{1B}[0m past four.", "It is ten past four."),
            ("\u{1B}[2J\u{1B}[HCleared?", "Cleared?"),
            ("\u{1B}]0;new title\u{07}Title", "Title"),
            ("\u{1B}]8;;http://evil.example\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
            ("\u{1B}P+q544e\u{1B}\\DCS", "DCS"),
            ("\u{1B}cReset \u{1B}(Bcharset", "Reset charset"),
            ("over\rwritten", "overwritten"),
            ("C1 \u{9B}31mcsi\u{9D}0;t\u{9C} done\u{7}", "C1 csi done"),
            ("lines\nand\ttabs stay", "lines\nand\ttabs stay"),
            ("Grüße 🎵 — fine", "Grüße 🎵 — fine"),
            ("trailing escape \u{1B}", "trailing escape "),
            ("unterminated \u{1B}]0;title", "unterminated "),
            ("\u{1B}\nnext", "\nnext"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(ControlCharacters.strippedForTerminal(input), expected, input.debugDescription)
        }
    }
}
