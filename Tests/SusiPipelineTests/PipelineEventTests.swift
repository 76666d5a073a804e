import Foundation
import XCTest

@testable import SusiModel
@testable import SusiPipeline

final class PipelineEventTests: XCTestCase {
    private func object(_ event: PipelineEvent) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any]
        return try XCTUnwrap(parsed)
    }

    func testEveryEventCarriesNameAndBothClocks() throws {
        let kinds: [PipelineEvent.Kind] = [
            .ready, .wake(phrase: "susi"), .listening, .speechEnd, .transcript(text: "what time is it"),
            .answer(query: "q", actionsJSON: #"[{"type":"answer","expression":"hi"}]"#, skill: "time"),
            .speakStart(text: "hi"), .speakEnd, .play(type: "audio_play", identifier: "x", identifierType: "youtube"),
            .player(command: "pause"), .error(stage: .brain, code: "brain-timeout", message: "slow"), .idle,
        ]
        let names = [
            "ready", "wake", "listening", "speech_end", "transcript", "answer", "speak_start", "speak_end", "play",
            "player", "error", "idle",
        ]
        for (kind, name) in zip(kinds, names) {
            let json = try object(PipelineEvent(kind, wallMs: 12, audioMs: 3400))
            XCTAssertEqual(json["event"] as? String, name)
            XCTAssertEqual(json["wall_ms"] as? Int, 12)
            XCTAssertEqual(json["audio_ms"] as? Int, 3400)
        }
    }

    func testPayloadFieldsAndEscaping() throws {
        let answer = try object(
            PipelineEvent(
                .answer(query: "say \"hi\"\n", actionsJSON: #"[{"type":"answer","expression":"hi"}]"#, skill: nil), wallMs: 1,
                audioMs: 2))
        XCTAssertEqual(answer["query"] as? String, "say \"hi\"\n")
        XCTAssertEqual(((answer["actions"] as? [[String: Any]])?.first?["expression"]) as? String, "hi")
        XCTAssertNil(answer["skill"])
        let error = try object(
            PipelineEvent(.error(stage: .stt, code: "stt-no-speech", message: "nothing heard\u{1}"), wallMs: 0, audioMs: 0))
        XCTAssertEqual(error["stage"] as? String, "stt")
        XCTAssertEqual(error["code"] as? String, "stt-no-speech")
        XCTAssertEqual(error["message"] as? String, "nothing heard\u{1}")
        let play = try object(
            PipelineEvent(.play(type: "video_play", identifier: "7qnd-hdmgfk", identifierType: "youtube"), wallMs: 0, audioMs: 0))
        XCTAssertEqual(play["identifier_type"] as? String, "youtube")
    }

    func testJSONLinesSinkWritesOneLinePerEvent() throws {
        let path = NSTemporaryDirectory() + "events-\(UUID().uuidString).jsonl"
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        let sink = JSONLinesEventSink(handle: handle)
        sink.emit(PipelineEvent(.ready, wallMs: 1, audioMs: 0))
        sink.emit(PipelineEvent(.idle, wallMs: 2, audioMs: 10))
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[1].hasPrefix(#"{"event": "idle""#))
    }
}

final class ConversationMemoryTests: XCTestCase {
    func testRemembersTheLastAnswerAndTheLastSkillNotIgnored() {
        let memory = ConversationMemory(ignoredSkills: ["skill_feedback"])
        XCTAssertNil(memory.lastAnswer)
        memory.emit(
            PipelineEvent(
                .answer(query: "q", actionsJSON: "[]", skill: "/general/knowledge/en/wikipedia.txt"), wallMs: 0, audioMs: 0))
        memory.emit(PipelineEvent(.speakStart(text: "Berlin is the capital."), wallMs: 0, audioMs: 0))
        memory.emit(
            PipelineEvent(
                .answer(query: "rate this skill four stars", actionsJSON: "[]", skill: "skill_feedback"), wallMs: 0, audioMs: 0))
        memory.emit(PipelineEvent(.speakStart(text: "Thanks for rating."), wallMs: 0, audioMs: 0))
        XCTAssertEqual(memory.lastSkill, "/general/knowledge/en/wikipedia.txt", "the skill being rated, not the rating skill")
        XCTAssertEqual(memory.lastAnswer, "Thanks for rating.")
    }
}
