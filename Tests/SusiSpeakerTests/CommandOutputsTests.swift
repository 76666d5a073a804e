import Foundation
import SusiCore
import SusiModel
import SusiPlayer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// What the commands print, worded in the library: events, transcripts, the doctor's report
/// and one query's answer.
final class CommandOutputsTests: XCTestCase {
    private var scratch: ScratchConfig!
    private var directory: String { scratch.directory }

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    func testEventsGoToTheirFileAsJSONLines() throws {
        let path = directory + "/events.jsonl"
        try "stale\n".write(toFile: path, atomically: false, encoding: .utf8)
        let sinks = try RunEventSinks.make(events: path, conversation: false)
        XCTAssertEqual(sinks.count, 1)
        sinks[0].emit(PipelineEvent(.ready, wallMs: 1, audioMs: 0))
        sinks[0].emit(PipelineEvent(.idle, wallMs: 2, audioMs: 5))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "the old file is emptied first")
        XCTAssertEqual(try jsonObject(Data(lines[1].utf8))["event"] as? String, "idle")
        XCTAssertEqual(try RunEventSinks.make(events: "-", conversation: true).count, 2)
        XCTAssertTrue(try RunEventSinks.make(events: nil, conversation: false).isEmpty)
    }

    func testAnUnwritableEventsFileIsAnAudioError() {
        XCTAssertThrowsError(try RunEventSinks.make(events: directory + "/missing/events.jsonl", conversation: false)) {
            XCTAssertEqual(($0 as? AudioError)?.code, "audio-unwritable")
        }
    }

    func testTranscriptJSONHasTheWordsWithTheirTimes() throws {
        let transcript = Transcript(words: [
            .init(text: "what", startMilliseconds: 0, endMilliseconds: 200, confidence: 0.9),
            .init(text: "time", startMilliseconds: 200, endMilliseconds: 520, confidence: 0.5),
        ])
        let line = try transcript.jsonLine()
        XCTAssertFalse(line.contains("\n"))
        let object = try jsonObject(Data(line.utf8))
        XCTAssertEqual(object["text"] as? String, "what time")
        XCTAssertEqual(object["engine"] as? String, "pocketsphinx", "as Whisper's says \"whisper\"")
        let words = try XCTUnwrap(object["words"] as? [[String: Any]])
        XCTAssertEqual(words.map { $0["word"] as? String }, ["what", "time"])
        XCTAssertEqual(words[1]["start_ms"] as? Int, 200)
        XCTAssertEqual(words[1]["end_ms"] as? Int, 520)
        XCTAssertEqual(words[1]["confidence"] as? Double, 0.5)
    }

    func testDoctorLinesAreColumnsAndAFailureNamesTheTopics() {
        let checks = [
            Doctor.Check("config", .ok, "fine"), Doctor.Check("audio", .failed, "no devices"),
            Doctor.Check("yt-dlp", .warning, "old"), Doctor.Check("voice", .failed, "no espeak"),
        ]
        XCTAssertEqual(
            Doctor.lines(checks),
            [
                "config     ok      fine", "audio      FAILED  no devices", "yt-dlp     warning old",
                "voice      FAILED  no espeak",
            ])
        XCTAssertEqual(Doctor.failure(checks)?.message, "essential checks failed: audio, voice")
        XCTAssertNil(Doctor.failure([checks[0], checks[2]]))
    }

    private func reply(_ actions: String) throws -> ChatResponse {
        try ChatResponse.decode(
            Data(
                #"{"query": "q", "query_date": "", "answer_date": "", "answer_time": 1, "answers": [{"data": [], "actions": \#(actions)}]}"#
                    .utf8))
    }

    func testSpokenLinesLoseTheServersEscapeCodes() throws {
        let spoken = try OneQuery.spokenLines(try reply(#"[{"type": "answer", "expression": "Hi\u001b[2J there"}]"#), query: "q")
        XCTAssertEqual(spoken, ["Hi there"])
        XCTAssertThrowsError(try OneQuery.spokenLines(try reply("[]"), query: "q")) {
            XCTAssertEqual(($0 as? PipelineError)?.code, "brain-no-answer")
        }
    }

    func testTheLocalBrainAnswersWithoutTheNetwork() throws {
        let brain = try OneQuery.brain(
            config: try scratch.store.load(), mode: .local, server: nil, store: scratch.store,
            environment: ["SUSI_MODELS": repositoryRoot + "/models", "XDG_CACHE_HOME": scratch.directory], logger: .silent)
        let spoken = try OneQuery.spokenLines(try brain.answer("what is 2 plus 3"), query: "what is 2 plus 3")
        XCTAssertTrue(spoken.joined().contains("5"), "\(spoken)")
    }

    func testUpdatingAMissingVirtualenvSaysWhere() {
        XCTAssertThrowsError(try YTDLPUpdate.run(virtualenv: directory + "/none", indexURL: nil)) { error in
            XCTAssertEqual((error as? PlayerError)?.code, "player-update-failed")
            XCTAssertTrue(
                (error as? PlayerError)?.message.contains("no yt-dlp virtualenv in \(directory)/none") ?? false, "\(error)")
        }
    }
}
