import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiPipeline
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// `/status` during a voice pipeline run, asked over HTTP of the real setup/control server.
final class PipelineStatusRouteTests: XCTestCase {
    /// One place a stage stops until the test lets it go on.
    final class Checkpoint: Sendable {
        private let reached = DispatchSemaphore(value: 0)
        private let proceed = DispatchSemaphore(value: 0)

        /// Called by the stage on the pipeline's thread.
        func pass() {
            reached.signal()
            _ = proceed.wait(timeout: .now() + 10)
        }

        /// Called by the test: waits for the stage to get here, runs `body`, then lets it go.
        func hold(_ body: () -> Void) {
            XCTAssertEqual(reached.wait(timeout: .now() + 10), .success, "the pipeline got there")
            body()
            proceed.signal()
        }
    }

    /// The states `/status` gave, in order.
    final class Answers: Sendable {
        private let states = Mutex<[String?]>([])
        func add(_ state: String?) { states.withLock { $0.append(state) } }
        var all: [String?] { states.withLock { $0 } }
    }

    static let wakeMarker: Int16 = 7777

    /// 20 ms chunks: quiet, a wake marker, a loud tone for the command, quiet; `listening`
    /// stops on the fifth chunk of the command.
    final class Source: AudioSource {
        private var chunks: [[Int16]] = []
        private var index = 0
        private let listening: Checkpoint
        private let commandStart: Int

        init(listening: Checkpoint) {
            self.listening = listening
            let quiet = [Int16](repeating: 0, count: 320)
            let tone = (0..<320).map { Int16(sin(Double($0) * 0.08) * 9000) }
            chunks = Array(repeating: quiet, count: 15) + [[Int16](repeating: PipelineStatusRouteTests.wakeMarker, count: 320)]
            commandStart = chunks.count
            chunks += Array(repeating: tone, count: 30) + Array(repeating: quiet, count: 60)
        }

        func read(milliseconds: Int) throws -> AudioChunk? {
            guard index < chunks.count else { return nil }
            defer { index += 1 }
            if index == commandStart + 5 { listening.pass() }
            return AudioChunk(format: .speech, samples: chunks[index])
        }

        func readAvailable() throws -> AudioChunk? { nil }
    }

    final class Wake: WakeWordDetector {
        private(set) var position = 0
        func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
            position += samples.count / 16
            guard samples.contains(PipelineStatusRouteTests.wakeMarker) else { return [] }
            return [
                WakeWordDetection(
                    phrase: "susi", startMilliseconds: position - 300, endMilliseconds: position, decidedAtMilliseconds: position)
            ]
        }
        func reset() throws {}
    }

    final class Recognizer: SpeechRecognizer {
        private var fed = 0
        func start(adaptingTo _: [Int16]) throws { fed = 0 }
        func process(_ samples: [Int16]) throws { fed += samples.count }
        var partial: String? { fed > 0 ? "what time is it" : nil }
        var isInSpeech: Bool { false }
        func finish() throws -> Transcript {
            Transcript(
                words: ["what", "time", "is", "it"].map {
                    Transcript.Word(text: $0, startMilliseconds: 0, endMilliseconds: 0, confidence: 1)
                })
        }
    }

    final class Brain: ChatBrain {
        let thinking: Checkpoint
        init(thinking: Checkpoint) { self.thinking = thinking }
        func answer(_ query: String) throws -> ChatResponse {
            thinking.pass()
            return ChatResponse(
                query: query, queryDate: "", answerDate: "", answerTime: 0,
                answers: [ChatAnswer(actions: [.answer(AnswerAction(expression: "It is ten past four."))], skills: ["time"])])
        }
        func understanding(of text: String) -> CommandUnderstanding? {
            text == "what time is it" ? CommandUnderstanding() : nil
        }
    }

    final class Synthesizer: SpeechSynthesizer {
        let format = AudioFormat.speech
        func synthesize(_ text: String, voice: VoiceSettings, onChunk: (AudioChunk) -> Bool) throws -> SynthesisEnd {
            for _ in 0..<3 where !onChunk(AudioChunk(format: format, samples: [Int16](repeating: 500, count: 1600))) {
                return .stopped
            }
            return .finished
        }
    }

    final class Sink: AudioSink {
        let speaking: Checkpoint
        private var played = 0
        init(speaking: Checkpoint) { self.speaking = speaking }
        func play(_ chunk: AudioChunk) throws {
            played += 1
            if played == 2 { speaking.pass() }
        }
        func interrupt() {}
        func drain() throws {}
    }

    final class Environment: PipelineVoice, PipelineActions, PipelineAttention {
        var voice: VoiceSettings { VoiceSettings() }
        func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome { .done }
    }

    func testStatusSaysListeningThinkingAndSpeakingDuringARun() throws {
        let scratch = try ScratchConfig()
        defer { scratch.remove() }
        let status = PipelineStatus()
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: { _ in }, pipeline: status)
        let setup = SetupServer(store: scratch.store, control: control, port: 0, host: "127.0.0.1", logger: .silent)
        try setup.start()
        defer { setup.stop() }
        let base = "http://127.0.0.1:\(try XCTUnwrap(setup.server.port))"
        let http = CurlHTTPClient()
        let state: @Sendable () -> String? = {
            guard let reply = try? http.send(HTTPRequest(url: base + "/status")), reply.status == 200,
                let object = try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
            else { return nil }
            return object["state"] as? String
        }

        let (listening, thinking, speaking) = (Checkpoint(), Checkpoint(), Checkpoint())
        let pipeline = VoicePipeline(
            stages: .init(
                source: Source(listening: listening), wake: Wake(), recognizer: Recognizer(), brain: Brain(thinking: thinking),
                synthesizer: Synthesizer(), sink: Sink(speaking: speaking)),
            environment: PipelineEnvironment(Environment()), events: RecordingEventSink(), endpointing: EndpointerSettings(),
            logger: .silent,
            clock: { 0 }, status: status)
        XCTAssertEqual(state(), "idle")
        // The pipeline runs here; another thread asks the server while it holds at each phase.
        let seen = Answers()
        let asker = Thread {
            for checkpoint in [listening, thinking, speaking] {
                checkpoint.hold { seen.add(state()) }
            }
        }
        asker.start()
        try pipeline.run()
        XCTAssertEqual(seen.all, ["listening", "thinking", "speaking"])
        XCTAssertEqual(state(), "idle", "the run is over")
    }

    /// The web page's data during and after a real pipeline run over the real server: the
    /// level while the command is heard, then the interaction in `/history` and today's wake.
    func testLevelHistoryAndWakeFiguresFollowARun() throws {
        let scratch = try ScratchConfig()
        defer { scratch.remove() }
        let status = PipelineStatus()
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: { _ in }, pipeline: status)
        let history = InteractionLog(path: scratch.store.state.history)
        let hearing = HearingCounters()
        let broadcaster = EventBroadcaster()
        let setup = SetupServer(
            store: scratch.store, control: control, port: 0, host: "127.0.0.1", logger: .silent,
            dashboard: SpeakerDashboard(events: broadcaster, history: history, hearing: hearing, pipeline: status))
        try setup.start()
        defer { setup.stop() }
        let base = "http://127.0.0.1:\(try XCTUnwrap(setup.server.port))"
        let http = CurlHTTPClient()
        let get: @Sendable (String) -> [String: Any]? = { path in
            guard let reply = try? http.send(HTTPRequest(url: base + path)), reply.status == 200 else { return nil }
            return try? JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
        }

        let (listening, thinking, speaking) = (Checkpoint(), Checkpoint(), Checkpoint())
        let pipeline = VoicePipeline(
            stages: .init(
                source: Source(listening: listening), wake: Wake(), recognizer: Recognizer(), brain: Brain(thinking: thinking),
                synthesizer: Synthesizer(), sink: Sink(speaking: speaking)),
            environment: PipelineEnvironment(Environment()), events: FanOutEventSink([history, hearing, broadcaster]),
            endpointing: EndpointerSettings(), logger: .silent, clock: { 0 }, status: status)
        let level = Mutex<[String: Any]?>(nil)
        let asker = Thread {
            listening.hold { level.withLock { $0 = get("/level") } }
            thinking.hold {}
            speaking.hold {}
        }
        asker.start()
        try pipeline.run()
        let heard = try XCTUnwrap(level.withLock { $0 })
        XCTAssertEqual(heard["phase"] as? String, "listening")
        XCTAssertGreaterThan(heard["level"] as? Double ?? 0, 0.7, "the command's tone, about -14 dBFS")
        let interactions = try XCTUnwrap(get("/history")?["interactions"] as? [[String: Any]])
        XCTAssertEqual(interactions.count, 1)
        XCTAssertEqual(interactions.first?["heard"] as? String, "what time is it")
        XCTAssertEqual(interactions.first?["answers"] as? [String], ["It is ten past four."])
        XCTAssertEqual(interactions.first?["skill"] as? String, "time")
        let today = try XCTUnwrap(get("/hearing")?["today"] as? [String: Any])
        XCTAssertEqual(today["wakes"] as? Int, 1)
        XCTAssertEqual(today["likely_false_wakes"] as? Int, 0)
        XCTAssertEqual(get("/level")?["phase"] as? String, "idle")
    }
}
