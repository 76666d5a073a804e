import Foundation
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel
@testable import SusiPipeline

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

/// `susi run --conversation` and `--events`: answers and media names from a server reach the
/// terminal (or the events file someone `cat`s) without escape codes or raw bidi controls.
final class EventOutputControlsTests: XCTestCase {
    private static let answer = "Saved as invoice\u{202E}fdp.exe\u{202C} \u{1B}]0;owned\u{07}\u{1B}[2Jdone\u{85}"

    func testConversationLinesShowControlsEscaped() {
        let lines = Mutex<[String]>([])
        let printer = ConversationPrinter { line in lines.withLock { $0.append(line) } }
        printer.emit(PipelineEvent(.speakStart(text: Self.answer), wallMs: 1, audioMs: 1500))
        printer.emit(
            PipelineEvent(
                .play(type: "audio_play", identifier: "x\u{2066}y\u{1B}[H", identifierType: "url"), wallMs: 2, audioMs: 1600))
        XCTAssertEqual(
            lines.withLock { $0 },
            [
                #"  1.50 s  answered: Saved as invoice\u{202E}fdp.exe\u{202C} done"#,
                #"  1.60 s  audio_play: x\u{2066}y (url)"#,
            ])
    }

    func testEventLinesEscapeControlsTheJSONWay() throws {
        let path = NSTemporaryDirectory() + "susi-events-\(UUID().uuidString).jsonl"
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        JSONLinesEventSink(handle: handle).emit(PipelineEvent(.speakStart(text: Self.answer), wallMs: 1, audioMs: 1))
        try handle.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertFalse(
            text.unicodeScalars.contains {
                ControlCharacters.isBidiControl($0) || $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x85
            }, text)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(object["text"] as? String, Self.answer)
    }
}
