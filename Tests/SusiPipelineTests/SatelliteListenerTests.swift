import Foundation
import XCTest

@testable import SusiModel
@testable import SusiPipeline

/// The satellite's ears with a wake detector that wakes where it is told: the events Home
/// Assistant is sent, in order, the audio streamed from the end of the name, and when a
/// command ends.
final class SatelliteListenerTests: XCTestCase {
    /// Wakes once, when it has been fed `wakeAfterMs`, placing the name's end
    /// `endBeforeDecisionMs` before that.
    final class ScheduledWake: WakeWordDetector {
        private(set) var position = 0
        private(set) var resets = 0
        var wakeAfterMs: Int?
        let endBeforeDecisionMs: Int

        init(wakeAfterMs: Int = 480, endBeforeDecisionMs: Int = 0) {
            self.wakeAfterMs = wakeAfterMs
            self.endBeforeDecisionMs = endBeforeDecisionMs
        }

        func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
            position += samples.count / 16
            guard let wake = wakeAfterMs, position >= wake else { return [] }
            wakeAfterMs = nil
            let end = position - endBeforeDecisionMs
            return [
                WakeWordDetection(
                    phrase: "susi", startMilliseconds: end - 300, endMilliseconds: end, decidedAtMilliseconds: position)
            ]
        }

        func reset() throws { resets += 1 }
    }

    private static let quiet = [Int16](repeating: 0, count: 1280)
    /// 80 ms of a loud tone: voice to the voice activity detector.
    private static let voice = (0..<1280).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }

    /// 240 ms of silence (the detector is not fed: no voice), then 240 ms of "name", the last
    /// 80 ms of which wakes a `ScheduledWake()`; the events of that last chunk.
    private func wakeUp(_ listener: inout SatelliteListener) throws -> [WyomingEvent] {
        XCTAssertEqual(try feed(&listener, [Self.quiet, Self.quiet, Self.quiet, Self.voice, Self.voice]).count, 0)
        return try listener.hear(Self.voice)
    }

    private let endpointing = EndpointerSettings(endSilenceMs: 400, noSpeechTimeoutMs: 1000, maxUtteranceMs: 3000)

    private func feed(_ listener: inout SatelliteListener, _ chunks: [[Int16]]) throws -> [WyomingEvent] {
        try chunks.flatMap { try listener.hear($0) }
    }

    func testAWakeStreamsFromTheNamesEndUntilTheSilenceAfterTheCommand() throws {
        let wake = ScheduledWake(endBeforeDecisionMs: 160)
        var listener = SatelliteListener(detector: wake, endpointing: endpointing, playsAnswers: true)
        let woken = try wakeUp(&listener)
        XCTAssertEqual(wake.position, 480, "the silence before the voice was fed as its lead-in")
        XCTAssertEqual(woken.map(\.type), ["detection", "run-pipeline", "audio-start", "audio-chunk"])
        XCTAssertEqual(woken[0].data["name"], "susi")
        XCTAssertEqual(
            woken[1].data,
            [
                "start_stage": "asr", "end_stage": "tts", "restart_on_end": false,
                "snd_format": ["rate": 22050, "width": 2, "channels": 1],
            ])
        XCTAssertEqual(woken[2].audioShape, WyomingEvent.AudioShape(rate: 16_000, width: 2, channels: 1))
        XCTAssertEqual(woken[2].data["timestamp"]?.intValue, 320, "the stream starts where the name ended")
        XCTAssertEqual(try woken[3].audio().samples.count, 160 * 16, "the 160 ms heard since the name's end")
        XCTAssertTrue(listener.isStreaming)

        // A second of command, then silence: the stream ends 400 ms into it, not before.
        let command = try feed(&listener, Array(repeating: Self.voice, count: 12))
        XCTAssertEqual(Set(command.map(\.type)), ["audio-chunk"])
        let pause = try feed(&listener, Array(repeating: Self.quiet, count: 4))
        XCTAssertEqual(pause.map(\.type), ["audio-chunk", "audio-chunk", "audio-chunk", "audio-chunk"], "320 ms of silence")
        // 400 ms after the voice's last 10 ms frame (the high-pass filter may ring into one more).
        let end = try feed(&listener, [Self.quiet, Self.quiet])
        XCTAssertEqual(end.last?.type, "audio-stop")
        XCTAssertEqual(end.filter { $0.type == "audio-stop" }.count, 1)
        XCTAssertFalse(listener.isStreaming)
        XCTAssertEqual(wake.resets, 1, "the detector starts afresh")
        XCTAssertEqual(try listener.hear(Self.voice).count, 0, "then it only listens for the name")
    }

    func testTheDetectorHearsOnlyAroundVoiceAsInSusiRun() throws {
        let wake = ScheduledWake()
        var listener = SatelliteListener(detector: wake, endpointing: endpointing, playsAnswers: true)
        XCTAssertEqual(try feed(&listener, Array(repeating: Self.quiet, count: 100)).count, 0)
        XCTAssertEqual(wake.position, 0, "eight seconds of silence cost the detector nothing")
        XCTAssertEqual(listener.nextReadMilliseconds, 80)
        _ = try listener.hear(Self.voice)
        XCTAssertEqual(wake.position, 580, "the voice and the half second before it")
    }

    func testAPauseAfterTheNameDoesNotEndTheCommand() throws {
        var listener = SatelliteListener(
            detector: ScheduledWake(endBeforeDecisionMs: 160), endpointing: endpointing, playsAnswers: true)
        // 160 ms of the name's last sound streamed, then 720 ms of pause: more than the end silence.
        let events = try wakeUp(&listener) + feed(&listener, Array(repeating: Self.quiet, count: 9))
        XCTAssertFalse(events.contains { $0.type == "audio-stop" }, "the command has not begun")
        XCTAssertTrue(listener.isStreaming)
    }

    func testNobodySpeakingEndsTheStreamAtTheNoSpeechTimeout() throws {
        var listener = SatelliteListener(detector: ScheduledWake(), endpointing: endpointing, playsAnswers: false)
        let woken = try wakeUp(&listener)
        XCTAssertEqual(woken[1].data["end_stage"], "handle", "no loudspeaker: no spoken answer asked for")
        let events = try feed(&listener, Array(repeating: Self.quiet, count: 13))
        XCTAssertEqual(events.filter { $0.type == "audio-stop" }.count, 1)
        XCTAssertEqual(events.last?.type, "audio-stop", "ended once 1000 ms had passed")
        XCTAssertEqual(events.filter { $0.type == "audio-chunk" }.count, 13)
    }

    func testEndlessSpeechEndsAtTheLongestCommand() throws {
        var listener = SatelliteListener(detector: ScheduledWake(), endpointing: endpointing, playsAnswers: true)
        _ = try wakeUp(&listener)
        let events = try feed(&listener, Array(repeating: Self.voice, count: 40))
        let stop = try XCTUnwrap(events.firstIndex { $0.type == "audio-stop" })
        XCTAssertEqual(stop, 38, "the 80 ms chunk that reaches 3000 ms is the last")
    }

    func testHomeAssistantEndingTheCommandSendsNoStop() throws {
        let wake = ScheduledWake()
        var listener = SatelliteListener(detector: wake, endpointing: endpointing, playsAnswers: true)
        _ = try wakeUp(&listener)
        XCTAssertEqual(listener.stop(announce: false), [])
        XCTAssertFalse(listener.isStreaming)
        XCTAssertEqual(wake.resets, 1)
        XCTAssertEqual(listener.stop(announce: true), [], "nothing to stop")
    }
}
