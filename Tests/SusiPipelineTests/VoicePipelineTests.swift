import Foundation
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel
@testable import SusiPipeline

/// The pipeline's event sequences with fake stages: what a person would observe.
final class VoicePipelineTests: XCTestCase {
    // MARK: Fakes

    /// A piece of scripted input audio.
    enum Segment {
        /// Faint background hiss.
        case noise(Int)
        /// A loud tone standing in for speech.
        case voice(Int)
        /// 20 ms marking where a wake word ends (the scripted detector fires on it).
        case wake
    }

    /// Sample value that marks a wake word chunk.
    static let wakeMarker: Int16 = 7777

    /// Scripted audio in 20 ms chunks; chunks after `.speaking` arrive while the speaker talks.
    final class ScriptedSource: AudioSource {
        var chunks: [[Int16]]
        /// Chunks that "arrive" while the speaker talks (barge-in), handed out by readAvailable.
        var duringSpeech: [[Int16]]

        init(_ segments: [Segment], duringSpeech: [Segment] = []) {
            chunks = Self.render(segments)
            self.duringSpeech = Self.render(duringSpeech)
        }

        static func render(_ segments: [Segment]) -> [[Int16]] {
            var chunks: [[Int16]] = []
            var seed: UInt32 = 1
            for segment in segments {
                let (voiced, ms): (Bool, Int)
                switch segment {
                case .noise(let length): (voiced, ms) = (false, length)
                case .voice(let length): (voiced, ms) = (true, length)
                case .wake:
                    chunks.append([Int16](repeating: wakeMarker, count: 320))
                    continue
                }
                for start in stride(from: 0, to: ms * 16, by: 320) {
                    chunks.append(
                        (start..<(start + 320)).map { index in
                            seed = seed &* 1_103_515_245 &+ 12345
                            let hiss = Int16(Int(seed >> 16) % 200 - 100)
                            return voiced ? Int16(sin(Double(index) * 0.08) * 9000) + hiss : hiss
                        })
                }
            }
            return chunks
        }

        /// How much each `read` asked for.
        private(set) var asked: [Int] = []
        /// Scripted chunks each `read` hands out at once; nil: as many as it asks for.
        var chunksPerRead: Int? = 1

        func read(milliseconds: Int) throws -> AudioChunk? {
            asked.append(milliseconds)
            if let arrived = try readAvailable() { return arrived }
            guard !chunks.isEmpty else { return nil }
            let taken = chunks.prefix(chunksPerRead ?? max(1, milliseconds / 20))
            chunks.removeFirst(taken.count)
            return AudioChunk(format: .speech, samples: Array(taken.joined()))
        }

        /// Set once the speaker starts talking; only then does `duringSpeech` arrive.
        var speakerTalking = false

        func readAvailable() throws -> AudioChunk? {
            guard speakerTalking, !duringSpeech.isEmpty else { return nil }
            return AudioChunk(format: .speech, samples: duringSpeech.removeFirst())
        }
    }

    /// Fires on the marker chunks of the scripted source, with the end at the marker's end,
    /// decided `decisionDelayMs` later (a multiple of 20), as the neural detector decides after
    /// the end it places.
    final class ScriptedWake: WakeWordDetector {
        private(set) var position = 0
        let decisionDelayMs: Int
        private var markerEnd: Int?
        /// Everything it was given.
        private(set) var heard: [Int16] = []
        /// With steps, it says its next decision comes where its current step ends.
        let stepFrames: Int?
        /// Each call's samples, and what `framesToNextDecision` said before it.
        private(set) var calls: [(given: Int, asked: Int?)] = []

        /// How much it must have heard since its last reset before a marker fires, in ms: a
        /// name is only heard whole.
        let needsHeardMs: Int
        private var heardSinceReset = 0

        init(decisionDelayMs: Int = 0, stepFrames: Int? = nil, needsHeardMs: Int = 0) {
            self.decisionDelayMs = decisionDelayMs
            self.stepFrames = stepFrames
            self.needsHeardMs = needsHeardMs
        }

        var framesToNextDecision: Int? { stepFrames.map { $0 - heard.count % $0 } }

        func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
            calls.append((samples.count, framesToNextDecision))
            let start = position
            position += samples.count / 16
            heard += samples
            // A whole marker chunk, anywhere in what arrived: a tone can hit the marker's value
            // by chance.
            for offset in stride(from: 0, through: samples.count - 320, by: 320)
            where samples[offset..<(offset + 320)].allSatisfy({ $0 == wakeMarker })
                && (heardSinceReset + offset) / 16 >= needsHeardMs
            {
                markerEnd = start + (offset + 320) / 16
            }
            heardSinceReset += samples.count
            guard let end = markerEnd, position >= end + decisionDelayMs else { return [] }
            markerEnd = nil
            return [
                WakeWordDetection(
                    phrase: "susi", startMilliseconds: end - 300, endMilliseconds: end,
                    decidedAtMilliseconds: end + decisionDelayMs)
            ]
        }

        func reset() throws {
            markerEnd = nil
            heardSinceReset = 0
        }
    }

    final class ScriptedRecognizer: SpeechRecognizer {
        var transcripts: [String]
        var fed = 0
        /// What each utterance was told to adapt to first.
        var adaptedTo: [[Int16]] = []
        init(_ transcripts: [String]) { self.transcripts = transcripts }
        func start(adaptingTo recent: [Int16]) throws {
            fed = 0
            adaptedTo.append(recent)
        }
        func process(_ samples: [Int16]) throws { fed += samples.count }
        var partial: String? { fed > 0 ? transcripts.first?.components(separatedBy: " | ").first : nil }
        var isInSpeech: Bool { false }
        /// A script entry "best | other | other" is a transcript with alternative readings.
        func finish() throws -> Transcript {
            let readings = (transcripts.isEmpty ? "" : transcripts.removeFirst()).components(separatedBy: " | ")
            return Transcript(
                words: readings[0].split(separator: " ").map {
                    Transcript.Word(text: String($0), startMilliseconds: 0, endMilliseconds: 0, confidence: 1)
                },
                alternatives: Array(readings.dropFirst()))
        }
    }

    /// Quick readings that reach no skill, final ones from `finals`; reopens on `resume`.
    final class ResumableRecognizer: SpeechRecognizer {
        var finals: [String]
        let quick: String
        var fed = 0
        var finishes = 0
        var resumes = 0
        /// Samples fed by each `finish`.
        var fedAtFinish: [Int] = []
        /// How often the reading of the audio so far was weighed.
        var weighings = 0
        /// Audio fed to a finished utterance (a pipeline bug: it would be lost).
        var fedWhileFinished = 0
        private var open = false
        init(quick: String, finals: [String]) {
            self.quick = quick
            self.finals = finals
        }
        func start(adaptingTo _: [Int16]) throws {
            fed = 0
            open = true
        }
        func process(_ samples: [Int16]) throws {
            if open { fed += samples.count } else { fedWhileFinished += samples.count }
        }
        var partial: String? {
            guard fed > 0 else { return nil }
            weighings += 1
            return quick
        }
        var isInSpeech: Bool { false }
        var canResume: Bool { true }
        func resume() throws {
            resumes += 1
            open = true
        }
        func finish() throws -> Transcript {
            finishes += 1
            fedAtFinish.append(fed)
            open = false
            // A final "best | other | other" is a transcript with alternative readings.
            let readings = (finals.isEmpty ? quick : finals.removeFirst()).components(separatedBy: " | ")
            return Transcript(
                words: readings[0].split(separator: " ").map {
                    Transcript.Word(text: String($0), startMilliseconds: 0, endMilliseconds: 0, confidence: 1)
                },
                alternatives: Array(readings.dropFirst()))
        }
    }

    struct BrainDown: SusiError {
        var stage: Stage { .brain }
        var code: String { "brain-timeout" }
        var message: String { "the SUSI server did not answer in time" }
    }

    final class ScriptedBrain: ChatBrain {
        var replies: [String: [ChatAction]]
        var fails = false
        /// Who the replies say answered.
        var origin = AnswerOrigin.server
        /// Words of a reply's query that loose wildcards took (none unless listed).
        var unchecked: [String: Int] = [:]
        init(_ replies: [String: [ChatAction]]) { self.replies = replies }
        func answer(_ query: String) throws -> ChatResponse {
            if fails { throw BrainDown() }
            return ChatResponse(
                query: query, queryDate: "", answerDate: "", answerTime: 0,
                answers: [ChatAnswer(actions: replies[query] ?? [], skills: ["test"])], origin: origin)
        }
        func understanding(of text: String) -> CommandUnderstanding? {
            replies[text] == nil ? nil : CommandUnderstanding(uncheckedWords: unchecked[text] ?? 0)
        }
    }

    final class ChunkedSynthesizer: SpeechSynthesizer {
        var spoken: [String] = []
        var voices: [String] = []
        let format = AudioFormat(sampleRate: 22050, channels: 1)
        func synthesize(_ text: String, voice: VoiceSettings, onChunk: (AudioChunk) -> Bool) throws -> SynthesisEnd {
            spoken.append(text)
            voices.append(voice.name)
            for _ in 0..<5 where !onChunk(AudioChunk(format: format, samples: [Int16](repeating: 1000, count: 2205))) {
                return .stopped
            }
            return .finished
        }
    }

    final class RecordingSink: AudioSink {
        var chunks = 0
        var interrupted = 0
        var onPlay: () -> Void = {}
        func play(_ chunk: AudioChunk) throws {
            chunks += 1
            onPlay()
        }
        func interrupt() { interrupted += 1 }
        func drain() throws {}
    }

    /// The speaker around the pipeline, as closures each test sets.
    final class ScriptedEnvironment: PipelineVoice, PipelineActions, PipelineAttention {
        var speakingVoice: () -> VoiceSettings = { VoiceSettings() }
        var performing: (ChatAction) -> ActionOutcome = { _ in .done }
        /// The origin of the answer of every action performed, in order.
        var origins: [AnswerOrigin] = []
        /// The whole-command transcriber and what it is used for.
        var wholeHearing: WholeHearing?
        var onAttention: (Bool) -> Void = { _ in }
        /// What the actions still owe, asked after them (`outcomeWords`); nil while pending.
        var owed: () -> [String]? = { [] }
        var dueAnswers: () -> [String] = { [] }
        /// An alarm to ring, asked before `dueAnswers`.
        var alarms: () -> String? = { nil }
        var secondPass: (() throws -> String)?
        /// The home's commands hearing a reading no skill is sure of again; nil: no home.
        var homeHearing: ((String) -> String?)?
        /// The endpointing in force, handed out at every reconfiguring; nil: none.
        var endpointing: EndpointerSettings?
        /// A wake word detector to switch to, handed out once (or a failure to make one).
        var replacement: (() throws -> any WakeWordDetector)?
        /// `hotword.enabled`, asked at every reconfiguring.
        var listening: () -> Bool = { true }
        /// How often the pipeline reconfigured.
        private(set) var reconfigurings = 0

        init(
            voice: @escaping () -> VoiceSettings = { VoiceSettings() },
            perform: @escaping (ChatAction) -> ActionOutcome = { _ in .done }
        ) {
            speakingVoice = voice
            performing = perform
        }

        var voice: VoiceSettings { speakingVoice() }
        func perform(_ action: ChatAction, from origin: AnswerOrigin) -> ActionOutcome {
            origins.append(origin)
            return performing(action)
        }
        func attentionChanged(to attending: Bool) { onAttention(attending) }
        func outcomeWords() -> [String]? { owed() }
        func dueAnnouncements() -> [String] { dueAnswers() }
        func dueAlarm() -> String? { alarms() }
        func transcribeAgain() throws -> String? { try secondPass?() }
        func homeCommand(insteadOf heard: String) -> String? { homeHearing?(heard) }
        func reconfigure() -> Reconfiguration {
            reconfigurings += 1
            var change = Reconfiguration(endpointing: endpointing, listensForWakeWord: listening())
            if let make = replacement {
                replacement = nil
                do {
                    change.wakeDetector = try make()
                } catch {
                    change.wakeFailure = error as? any SusiError
                }
            }
            return change
        }
    }

    // MARK: Harness

    private struct Run {
        let events: [PipelineEvent]
        let synthesizer: ChunkedSynthesizer
        let sink: RecordingSink
        let performed: [ChatAction]
        /// The origin each performed action was performed with.
        let origins: [AnswerOrigin]
        var names: [String] { events.map(\.name) }
        /// The kind of the first `transcript` event.
        var transcript: PipelineEvent.Kind? { events.first { $0.name == "transcript" }?.kind }
    }

    /// Audio from the end of the speech to the transcript: the silence the command waited for.
    private func silenceWaited(_ result: Run) throws -> Int {
        let transcript = try XCTUnwrap(result.events.first { $0.name == "transcript" })
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" })
        return transcript.audioMs - speechEnd.audioMs
    }

    /// Asserts that a question paused on (900 ms of speech, 250 ms of quiet, 900 ms more) was
    /// reopened when the person went on and heard to its end as `text`.
    private func assertHeardToItsEnd(
        _ result: Run, _ recognizer: ResumableRecognizer, as text: String, line: UInt = #line
    ) throws {
        XCTAssertEqual(result.transcript, .transcript(text: text), line: line)
        XCTAssertEqual(recognizer.resumes, 1, "reopened when the person went on", line: line)
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" }, line: line)
        XCTAssertGreaterThan(speechEnd.audioMs, 300 + 900 + 250 + 800, "the question was heard to its end", line: line)
    }

    /// A run with a recogniser that can reopen an utterance (`ResumableRecognizer`).
    /// `secondPass` is the second recogniser's reading (`transcribeAgain`).
    private func runResumable(
        _ segments: [Segment], quick: String, finals: [String], brain: ScriptedBrain? = nil,
        secondPass: (() throws -> String)? = nil
    ) throws -> (Run, ResumableRecognizer) {
        let recognizer = ResumableRecognizer(quick: quick, finals: finals)
        let result = try run(
            source: ScriptedSource(segments), transcripts: [], brain: brain ?? timeBrain, recognizer: recognizer,
            secondPass: secondPass)
        return (result, recognizer)
    }

    private func run(
        source: ScriptedSource, transcripts: [String], brain: ScriptedBrain,
        endpointing: EndpointerSettings = EndpointerSettings(endSilenceMs: 500, shortSilenceMs: 200, noSpeechTimeoutMs: 1500),
        recognizer: (any SpeechRecognizer)? = nil, secondPass: (() throws -> String)? = nil,
        wake: ScriptedWake = ScriptedWake()
    ) throws -> Run {
        let recorder = RecordingEventSink()
        let synthesizer = ChunkedSynthesizer()
        let sink = RecordingSink()
        sink.onPlay = { source.speakerTalking = true }
        var performed: [ChatAction] = []
        var voice = "en-us"
        let environment = ScriptedEnvironment(
            voice: { VoiceSettings(name: voice) },
            perform: { action in
                performed.append(action)
                if case .settings(let setting) = action, setting.key == "tts.voice" { voice = setting.value }
                return .done
            })
        environment.secondPass = secondPass
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: wake, recognizer: recognizer ?? ScriptedRecognizer(transcripts), brain: brain,
                synthesizer: synthesizer, sink: sink),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: endpointing, logger: .silent,
            clock: { 0 })
        try pipeline.run()
        return Run(
            events: recorder.events, synthesizer: synthesizer, sink: sink, performed: performed, origins: environment.origins)
    }

    private let timeBrain = ScriptedBrain([
        "what time is it": [.answer(AnswerAction(expression: "It is ten past four."))],
        "play some jazz": [
            .answer(AnswerAction(expression: "Playing jazz.")),
            .audioPlay(MediaPlayAction(identifier: "jazz", identifierType: "search")),
        ],
        "change your voice to british": [
            .settings(SettingsAction(key: "tts.voice", value: "en-gb")), .answer(AnswerAction(expression: "Cheerio.")),
        ],
    ])

    // MARK: Tests

    func testOneInteractionEmitsTheContractSequence() throws {
        let source = ScriptedSource([.noise(500), .voice(400), .wake, .voice(900), .noise(1500)])
        let result = try run(source: source, transcripts: ["what time is it"], brain: timeBrain)
        XCTAssertEqual(
            result.names,
            ["ready", "wake", "listening", "speech_end", "transcript", "answer", "speak_start", "speak_end", "idle"])
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
        XCTAssertEqual(result.sink.chunks, 5)
        XCTAssertEqual(result.events.first { $0.name == "wake" }?.audioMs, 920)
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" })
        XCTAssertEqual(Double(speechEnd.audioMs), 1820, accuracy: 60, "speech ended at 1820 ms of input")
        // A complete command needs only the short silence: decided ~200 ms after speech ends.
        let answer = try XCTUnwrap(result.events.first { $0.name == "answer" })
        XCTAssertLessThan(answer.audioMs - speechEnd.audioMs, 400)
        if case .answer(let query, let actions, let skill) = answer.kind {
            XCTAssertEqual(query, "what time is it")
            XCTAssertTrue(actions.contains("ten past four"))
            XCTAssertEqual(skill, "test")
        } else {
            XCTFail("not an answer event")
        }
    }

    /// The detector decides 120 ms after the end it places; the voice goes on 60 ms past that
    /// end (the name's last sound), then pauses before the command.
    func testTheCommandBeginsWhereTheNameStoppedJustAfterTheDetectorsEnd() throws {
        let source = ScriptedSource([.noise(1500), .voice(400), .wake, .voice(60), .noise(200), .voice(900), .noise(1500)])
        let recognizer = ScriptedRecognizer(["what time is it"])
        let result = try run(
            source: source, transcripts: [], brain: timeBrain, recognizer: recognizer, wake: ScriptedWake(decisionDelayMs: 120))
        // The tone's abrupt end rings into the next 10 ms frame.
        let wake = try XCTUnwrap(result.events.first { $0.name == "wake" }?.audioMs)
        XCTAssertEqual(Double(wake), 1980, accuracy: 10)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
        let recent = try XCTUnwrap(recognizer.adaptedTo.first)
        XCTAssertEqual(recent.count, 16_000, "the second before the name's end")
        let marker = recent.count - (wake - 1920) * 16 - 320
        XCTAssertEqual(
            Array(recent[marker..<(marker + 320)]), [Int16](repeating: Self.wakeMarker, count: 320), "and the name's last sound")
    }

    /// Said in one breath, or with a pause that begins further than `endSearchMs` after the
    /// detector's end (heard by a late decision), the command begins at that end.
    func testTheCommandBeginsAtTheDetectorsEndWithoutAPauseNearIt() throws {
        for (tail, pause, delay) in [(900, 0, 120), (200, 300, 300)] {
            let segments: [Segment] = [.noise(500), .voice(400), .wake, .voice(tail), .noise(pause), .voice(600), .noise(1500)]
            let result = try run(
                source: ScriptedSource(segments),
                transcripts: ["what time is it"], brain: timeBrain, wake: ScriptedWake(decisionDelayMs: delay))
            XCTAssertEqual(result.events.first { $0.name == "wake" }?.audioMs, 920, "voice \(tail) ms on")
        }
    }

    /// Only the audio the decision heard places the name's end, however much more arrived
    /// with it: the decision 20 ms after the end hears no pause in the voice that goes on
    /// 100 ms more, and the command begins at the detector's end, with 20 ms reads as with
    /// 160 ms reads (whose pause came with the decision's read).
    func testTheNamesEndIsPlacedOnWhatTheDecisionHeard() throws {
        for chunksPerRead in [1, 8] {
            let source = ScriptedSource([.noise(1500), .voice(400), .wake, .voice(100), .noise(200), .voice(900), .noise(1500)])
            source.chunksPerRead = chunksPerRead
            let result = try run(
                source: source, transcripts: ["what time is it"], brain: timeBrain, wake: ScriptedWake(decisionDelayMs: 20))
            XCTAssertEqual(result.events.first { $0.name == "wake" }?.audioMs, 1920, "\(chunksPerRead * 20) ms reads")
            XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
        }
    }

    func testTheRecogniserAdaptsToTheSecondThatEndsWithTheWakeWord() throws {
        let source = ScriptedSource([.noise(1500), .voice(400), .wake, .voice(900), .noise(1500)])
        let recognizer = ScriptedRecognizer(["what time is it"])
        _ = try run(source: source, transcripts: [], brain: timeBrain, recognizer: recognizer)
        XCTAssertEqual(recognizer.adaptedTo.count, 1)
        let recent = try XCTUnwrap(recognizer.adaptedTo.first)
        XCTAssertEqual(recent.count, 16_000)
        XCTAssertEqual(Array(recent.suffix(320)), [Int16](repeating: Self.wakeMarker, count: 320))
    }

    func testUnfinishedCommandWaitsForTheFullSilence() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1500)])
        let result = try run(source: source, transcripts: ["what is the"], brain: timeBrain)
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" })
        let transcript = try XCTUnwrap(result.events.first { $0.name == "transcript" })
        XCTAssertGreaterThanOrEqual(transcript.audioMs - speechEnd.audioMs, 480, "waited the full end silence")
    }

    func testTheFirstReadingASkillUnderstandsIsAnswered() throws {
        let source = ScriptedSource([.noise(500), .wake, .voice(900), .noise(1500), .wake, .voice(900), .noise(1500)])
        let result = try run(
            source: source,
            transcripts: [
                "what time sit | what dime is it | what time is it | play some jazz", "what time sit | what dime is it",
            ],
            brain: timeBrain)
        let queries = result.events.compactMap { event -> String? in
            if case .transcript(let text) = event.kind { return text }
            return nil
        }
        XCTAssertEqual(queries, ["what time is it", "what time sit"], "the best reading stays when no reading is understood")
        // An understood reading makes the command complete: it ends after the short silence.
        let ends = result.events.filter { $0.name == "speech_end" }.map(\.audioMs)
        let transcripts = result.events.filter { $0.name == "transcript" }.map(\.audioMs)
        XCTAssertEqual(ends.count, 2)
        XCTAssertLessThan(transcripts[0] - ends[0], 400)
        XCTAssertGreaterThanOrEqual(transcripts[1] - ends[1], 300, "not understood: a longer silence")
    }

    func testAPauseGetsTheFinalDecodingWhichEndsTheCommandWhenUnderstood() throws {
        let (result, recognizer) = try runResumable(
            [.noise(500), .wake, .voice(900), .noise(1500)],
            quick: "what time sit", finals: ["what time is it"])
        let transcript = try XCTUnwrap(result.events.first { $0.name == "transcript" })
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" })
        XCTAssertEqual(transcript.kind, .transcript(text: "what time is it"))
        XCTAssertLessThan(transcript.audioMs - speechEnd.audioMs, 300, "ended after the short silence")
        XCTAssertEqual(recognizer.finishes, 1, "the final decoding at the pause is the transcript")
        XCTAssertEqual(recognizer.resumes, 0)
    }

    func testAPauseWhoseFinalDecodingNobodyUnderstandsListensOn() throws {
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(600), .noise(300), .voice(600), .noise(1500)],
            quick: "what time sit", finals: ["what time", "what time is it"])
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertEqual(recognizer.resumes, 1, "reopened after the first pause, then the person went on")
        XCTAssertEqual(recognizer.finishes, 2)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    func testAPauseWhoseFinalDecodingNobodyUnderstandsEndsWithItAfterTheLongerSilence() throws {
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)],
            quick: "what time sit", finals: ["what is the thyme"])
        XCTAssertEqual(result.transcript, .transcript(text: "what is the thyme"))
        XCTAssertGreaterThanOrEqual(try silenceWaited(result), 340, "waited for the undecided silence (350 ms)")
        XCTAssertEqual(recognizer.finishes, 1, "decoded once, at the short silence")
        XCTAssertEqual(recognizer.resumes, 0, "not reopened: the person said no more")
        XCTAssertEqual(recognizer.fedWhileFinished, 0)
    }

    func testAPauseEndsTheCommandWhenASkillIsSureOfTheSecondRecognisersReading() throws {
        // The skills' model misheard it; the open-question model, asked at the pause (its
        // final pass began there), heard a command a skill is sure of: no longer wait.
        var asked = 0
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)],
            quick: "what time sit", finals: ["what is the thyme"],
            secondPass: {
                asked += 1
                return "what time is it"
            })
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertLessThan(try silenceWaited(result), 300, "ended after the short silence")
        XCTAssertEqual(recognizer.finishes, 1)
        XCTAssertGreaterThanOrEqual(asked, 1)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    func testAPauseInsideAQuestionTheSkillsModelHearsAsACommandDoesNotEndItWhenTheOpenModelDisagrees() throws {
        // "how far is paris ... from rome": the skills' model hears the first part as "how are
        // you", which a skill is sure of; the open-question model hears it as it is.
        let brain = ScriptedBrain(["how are you": [.answer(AnswerAction(expression: "Fine."))]])
        var asked = 0
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(250), .voice(900), .noise(1500)],
            quick: "how are you", finals: ["how are you", "how are you from rome"], brain: brain,
            secondPass: {
                asked += 1
                return asked == 1 ? "how far is paris" : "how far is paris from rome"
            })
        try assertHeardToItsEnd(result, recognizer, as: "how far is paris from rome")
    }

    func testACommandBothModelsHearAlikeEndsAfterTheShortSilence() throws {
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)], quick: "what time is it", finals: ["what time is it"],
            secondPass: { "what time is it" })
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertLessThan(try silenceWaited(result), 300, "ended after the short silence")
        XCTAssertEqual(recognizer.finishes, 1)
    }

    func testACommandTheOpenModelMishearsIsAnsweredFromTheSkillsReadingAfterALittleLongerSilence() throws {
        let (result, _) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)], quick: "what time is it", finals: ["what time is it"],
            secondPass: { "what tyme sit" })
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        let waited = try silenceWaited(result)
        XCTAssertTrue((265..<340).contains(waited), "the disputed silence (275 ms), not 200 or 350: \(waited) ms")
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    func testASecondRecogniserFailingAtAPauseDoesNotEndTheCommand() throws {
        // Its reading fails when asked at the pause; the command waits as before, and the
        // reading asked again at its end is answered.
        struct Failure: Error {}
        var asked = 0
        let (result, _) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)],
            quick: "what time sit", finals: ["what is the thyme"],
            secondPass: {
                asked += 1
                if asked == 1 { throw Failure() }
                return "what time is it"
            })
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertFalse(result.events.contains { $0.name == "error" })
        XCTAssertEqual(asked, 2)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    func testASecondReadingASkillTakesOnlyLooselyDoesNotEndTheCommandEarly() throws {
        let (result, _) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)],
            quick: "how many people live", finals: ["how many people live"], brain: looseBrain(),
            secondPass: { "how have you been" })
        XCTAssertGreaterThanOrEqual(try silenceWaited(result), 340, "waited for the undecided silence (350 ms)")
    }

    func testThePauseThatEndsTheCommandIsJudgedOnTheReadingItWouldSend() throws {
        // The skills' model ends on "the", which would wait for the full end silence (500 ms);
        // the second recogniser's reading, which is the one sent, ends on a whole word.
        let (result, _) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(1500)],
            quick: "how many people live the", finals: ["how many people live the"], brain: looseBrain(),
            secondPass: { "how have you been" })
        XCTAssertEqual(result.transcript, .transcript(text: "how have you been"))
        let waited = try silenceWaited(result)
        XCTAssertTrue((340..<450).contains(waited), "the undecided silence (350 ms), not 500: \(waited) ms")
    }

    func testReadingsAreWeighedOnlyWhereAPauseCouldEndTheCommand() throws {
        // Short gaps between words, then the end of the command.
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(400), .noise(60), .voice(400), .noise(60), .voice(400), .noise(1500)],
            quick: "what time is it", finals: [])
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertEqual(recognizer.weighings, 1, "not in the gaps between words, once at the end")
        XCTAssertEqual(recognizer.finishes, 1)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    func testAPauseDecidedEarlyThenMoreSpeechLosesNoAudio() throws {
        // The pause after "what time" reaches the decision point, then the person goes on.
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(600), .noise(160), .voice(600), .noise(1500)],
            quick: "what time is it", finals: ["what time", "what time is it"])
        XCTAssertEqual(result.transcript, .transcript(text: "what time is it"))
        XCTAssertEqual(recognizer.finishes, 2)
        XCTAssertEqual(recognizer.resumes, 1, "reopened when the person went on")
        XCTAssertEqual(recognizer.fedWhileFinished, 0)
        // Everything up to the decision point of the last pause (100 ms into it).
        XCTAssertGreaterThanOrEqual(recognizer.fedAtFinish.last ?? 0, (600 + 160 + 600 + 80) * 16, "the held audio was decoded")
    }

    func testAPauseRightAfterTheWakeWordIsNotDecodedAsACommand() throws {
        // 200 ms of sound (the tail of the wake word), a pause, then the command.
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(200), .noise(300), .voice(900), .noise(1500)],
            quick: "what time sit", finals: ["what time is it"])
        let speechEnd = try XCTUnwrap(result.events.first { $0.name == "speech_end" })
        XCTAssertGreaterThan(speechEnd.audioMs, 1500, "the command after the pause was heard")
        XCTAssertEqual(recognizer.finishes, 1)
        XCTAssertEqual(recognizer.resumes, 0)
        XCTAssertEqual(result.synthesizer.spoken, ["It is ten past four."])
    }

    /// A brain whose skills take "what is the rolling stone" and "how have you been" only
    /// through a loose wildcard (three words nothing checked), as misheard parts of long
    /// questions in noise often are.
    private func looseBrain() -> ScriptedBrain {
        let brain = ScriptedBrain([
            "what is the rolling stone": [.answer(AnswerAction(expression: "Searching."))],
            "how have you been": [.answer(AnswerAction(expression: "Fine."))],
        ])
        brain.unchecked = ["what is the rolling stone": 3, "how have you been": 3]
        return brain
    }

    func testAPauseInsideAQuestionWhoseFinalDecodingASkillTakesOnlyLooselyDoesNotEndIt() throws {
        // A long question in 10 dB noise: a soft stretch reads as 250 ms of silence, and an
        // alternative reading of the final decoding there reaches a skill only through loose
        // wildcards (bench/pause-after-name.py: "how many people live in ..." ended there).
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(250), .voice(900), .noise(1500)],
            quick: "how many people live", finals: ["how many people live | how have you been", "how many people live in paris"],
            brain: looseBrain())
        try assertHeardToItsEnd(result, recognizer, as: "how many people live in paris")
    }

    func testAQuickReadingASkillTakesOnlyLooselyDoesNotEndTheCommandAfterTheShortSilence() throws {
        let (result, recognizer) = try runResumable(
            [.noise(300), .wake, .voice(900), .noise(250), .voice(900), .noise(1500)],
            quick: "what is the rolling stone", finals: ["what is the rolling stone", "what is the rolling stones best song"],
            brain: looseBrain())
        XCTAssertEqual(result.transcript, .transcript(text: "what is the rolling stones best song"))
        XCTAssertEqual(recognizer.resumes, 1)
        XCTAssertGreaterThanOrEqual(try silenceWaited(result), 340, "ended after the undecided silence (350 ms)")
    }

    func testMediaAndSettingsActionsArePerformedInOrderWithEvents() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800), .wake, .voice(600), .noise(800)])
        let result = try run(source: source, transcripts: ["play some jazz", "change your voice to british"], brain: timeBrain)
        XCTAssertEqual(result.names.filter { $0 == "idle" }.count, 2)
        let play = try XCTUnwrap(result.events.first { $0.name == "play" })
        XCTAssertEqual(play.kind, .play(type: "audio_play", identifier: "jazz", identifierType: "search"))
        XCTAssertEqual(result.performed.map(\.type), ["audio_play", "settings"])
        XCTAssertEqual(result.synthesizer.spoken, ["Playing jazz.", "Cheerio."])
        XCTAssertEqual(result.synthesizer.voices, ["en-us", "en-gb"], "a voice change is heard in the next answer")
        let speakIndex = try XCTUnwrap(result.names.firstIndex(of: "speak_start"))
        let playIndex = try XCTUnwrap(result.names.firstIndex(of: "play"))
        XCTAssertLessThan(speakIndex, playIndex, "actions run in the order given")
    }

    /// Issue 50: the speaker is told who answered, so it can refuse what that origin may not change.
    func testActionsArePerformedWithTheOriginOfTheirAnswer() throws {
        for origin in [AnswerOrigin.server, .builtIn] {
            let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
            let brain = timeBrain
            brain.origin = origin
            let result = try run(source: source, transcripts: ["change your voice to british"], brain: brain)
            XCTAssertEqual(result.performed.map(\.type), ["settings"])
            XCTAssertEqual(result.origins, [origin])
        }
    }

    /// A transcriber hearing the command whole, as Whisper does, heard from the wake word's end.
    final class WholeTranscriber: UtteranceTranscriber {
        var heard: String
        var fails = false
        var samples: [Int] = []
        init(_ heard: String) { self.heard = heard }
        func transcribe(_ samples: [Int16]) throws -> String {
            self.samples.append(samples.count)
            if fails { throw PipelineError(stage: .stt, code: "stt-decode-failed", message: "too slow") }
            return heard
        }
    }

    /// Runs one interaction ("what time is it", sure) with `hearing`: the transcript event, the
    /// error codes, and the words spoken.
    private func heardWhole(_ hearing: WholeHearing) throws -> (PipelineEvent.Kind?, [String], [String]) {
        let recorder = RecordingEventSink()
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment()
        environment.wholeHearing = hearing
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(1300), .wake, .voice(900), .noise(1500)]), wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain, synthesizer: synthesizer,
                sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder,
            endpointing: EndpointerSettings(noSpeechTimeoutMs: 1500),
            logger: .silent, clock: { 0 })
        try pipeline.run()
        return (
            recorder.events.first { $0.name == "transcript" }?.kind,
            recorder.events.compactMap { if case .error(_, let code, _) = $0.kind { code } else { nil } },
            synthesizer.spoken
        )
    }

    /// Issue 49: the command heard whole replaces the streaming reading, without the name;
    /// a failure keeps the streaming reading and is reported.
    func testACommandHeardWholeReplacesTheStreamingReading() throws {
        let whole = WholeTranscriber("susi play some jazz")
        let always = WholeHearing(transcriber: whole, replacesSure: true, checksName: false)
        XCTAssertEqual(try heardWhole(always).0, .transcript(text: "play some jazz"))
        XCTAssertEqual(whole.samples.count, 1)
        XCTAssertGreaterThan(whole.samples[0], 900 * 16, "the command's audio, from the wake word's end")
        XCTAssertLessThan(whole.samples[0], 1300 * 16, "not the second before it")
        let unsure = WholeHearing(transcriber: whole, replacesSure: false, checksName: false)
        XCTAssertEqual(try heardWhole(unsure).0, .transcript(text: "what time is it"), "a sure reading kept")
        XCTAssertEqual(whole.samples.count, 1, "and not heard whole")
        whole.fails = true
        let failed = try heardWhole(always)
        XCTAssertEqual(failed.0, .transcript(text: "what time is it"))
        XCTAssertEqual(failed.1, ["stt-decode-failed"])
    }

    /// Issue 49: with the name checked, a wake whose whole reading does not start with the name
    /// (in conversation) is dropped without a word; one that does goes on, however sure the
    /// streaming reading is, and the check fails open.
    func testAWakeWithoutTheNameInItsWholeReadingIsDroppedSilently() throws {
        let whole = WholeTranscriber("so she said what time is it")
        let check = WholeHearing(transcriber: whole, replacesSure: false, checksName: true)
        let dropped = try heardWhole(check)
        XCTAssertNil(dropped.0, "no transcript")
        XCTAssertEqual(dropped.1, ["wake-name-not-heard"])
        XCTAssertEqual(dropped.2, [], "nothing said")
        XCTAssertGreaterThan(whole.samples[0], 1900 * 16, "heard from the second before the wake word's end")

        for heard in ["Susi, what's the time?", "Hey Suzy what's the time", "and Sushi, what's the time"] {
            whole.heard = heard
            let kept = try heardWhole(check)
            XCTAssertEqual(kept.0, .transcript(text: "what time is it"), "\(heard): the sure streaming reading")
            XCTAssertEqual(kept.2, ["It is ten past four."])
        }
        whole.heard = "Susie, what's the time?"
        let replaced = try heardWhole(WholeHearing(transcriber: whole, replacesSure: true, checksName: true))
        XCTAssertEqual(replaced.0, .transcript(text: "what's the time?"), "without the name and what came before it")
        whole.heard = " "
        XCTAssertEqual(try heardWhole(check).0, .transcript(text: "what time is it"), "nothing heard: no evidence")
        whole.fails = true
        XCTAssertEqual(try heardWhole(check).1, ["stt-decode-failed"], "a failure keeps the wake")
    }

    /// Three refused settings in one answer: each reported, the apology said once.
    func testTheSameWordsOfSeveralActionsAreSaidOnce() throws {
        let refused = ScriptedBrain([
            "take over": [
                .settings(SettingsAction(key: "player.command", value: "/tmp/evil")),
                .settings(SettingsAction(key: "brain.server", value: "http://evil.example")),
                .answer(AnswerAction(expression: "Done.")),
                .settings(SettingsAction(key: "setup.on_wifi", value: "reboot")),
            ]
        ])
        let recorder = RecordingEventSink()
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment(perform: { _ in
            ActionOutcome(say: "Not allowed.", failure: ConfigError(.settingRefused, "refused"))
        })
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)]), wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["take over"]), brain: refused, synthesizer: synthesizer, sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder,
            endpointing: EndpointerSettings(noSpeechTimeoutMs: 1500), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        XCTAssertEqual(synthesizer.spoken, ["Not allowed.", "Done."])
        XCTAssertEqual(recorder.events.filter { $0.name == "error" }.count, 3, "every refusal is reported")
    }

    func testAnAnswerInAnotherLanguageIsSpokenWithAVoiceOfThatLanguage() throws {
        let brain = ScriptedBrain([
            "say it in german": [
                .answer(AnswerAction(expression: "Guten Tag.", language: "de")),
                .answer(AnswerAction(expression: "That was German.", language: "en")),
            ]
        ])
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
        let result = try run(source: source, transcripts: ["say it in german"], brain: brain)
        XCTAssertEqual(result.synthesizer.spoken, ["Guten Tag.", "That was German."])
        XCTAssertEqual(result.synthesizer.voices, ["de", "en-us"], "each answer in the voice of its language")
    }

    func testSpeakingAnotherLanguageKeepsTheVariantAndProsody() {
        let voice = VoiceSettings(name: "en-gb-scotland", variant: "f3", rate: 210, pitch: 40, volume: 90)
        XCTAssertEqual(voice.speaking("en"), voice, "the voice's own language")
        XCTAssertEqual(voice.speaking(""), voice, "an untagged answer")
        XCTAssertEqual(voice.speaking("DE"), VoiceSettings(name: "de", variant: "f3", rate: 210, pitch: 40, volume: 90))
        XCTAssertEqual(VoiceSettings(name: "de+m2").languagePrefix, "de")
        XCTAssertEqual(voice.speaking("en-US"), voice, "a region of the voice's language")
        XCTAssertEqual(voice.speaking("pt_BR").name, "pt-br")
    }

    func testSilenceAfterWakeWordIsNoSpeechThenIdle() throws {
        let source = ScriptedSource([.noise(500), .voice(400), .wake, .noise(3000)])
        let result = try run(source: source, transcripts: [], brain: timeBrain)
        XCTAssertEqual(result.names, ["ready", "wake", "listening", "error", "idle"])
        XCTAssertEqual(
            result.events[3].kind, .error(stage: .stt, code: "stt-no-speech", message: "no speech after the wake word"))
        XCTAssertEqual(result.sink.chunks, 1, "an earcon, not a sentence")
    }

    func testBrainFailureIsReportedApologisedAndTheLoopGoesOn() throws {
        let brain = timeBrain
        brain.fails = true
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800), .wake, .voice(600), .noise(800)])
        let result = try run(source: source, transcripts: ["what time is it", "what time is it"], brain: brain)
        XCTAssertEqual(result.names.filter { $0 == "error" }.count, 2)
        XCTAssertEqual(result.names.filter { $0 == "idle" }.count, 2)
        XCTAssertTrue(
            result.events.contains {
                $0.kind == .error(stage: .brain, code: "brain-timeout", message: "the SUSI server did not answer in time")
            })
        XCTAssertEqual(result.synthesizer.spoken.count, 2)
        XCTAssertTrue(result.synthesizer.spoken[0].hasPrefix("Sorry"))
    }

    /// A recogniser that fails on its first command (as PocketSphinx failing mid-search
    /// would), then hears normally.
    final class FaultyOnceRecognizer: SpeechRecognizer {
        private var failed = false
        private var fed = 0
        func start(adaptingTo _: [Int16]) throws { fed = 0 }
        func process(_ samples: [Int16]) throws { fed += samples.count }
        var partial: String? { nil }
        var isInSpeech: Bool { false }
        func finish() throws -> Transcript {
            guard failed else {
                failed = true
                throw TestRecognizerFault()
            }
            return Transcript(
                words: "what time is it".split(separator: " ").map {
                    Transcript.Word(text: String($0), startMilliseconds: 0, endMilliseconds: 0, confidence: 1)
                })
        }
    }

    struct TestRecognizerFault: SusiError {
        var stage: Stage { .stt }
        var code: String { "stt-decode-failed" }
        var message: String { "PocketSphinx could not finish the utterance" }
    }

    /// Issue 17: a recogniser fault is an `error` event of that interaction, and the speaker
    /// goes on listening (the next command is answered).
    func testARecogniserFaultIsAnErrorOfThatInteractionAndListeningGoesOn() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(4000), .wake, .voice(600), .noise(1500)])
        let result = try run(source: source, transcripts: [], brain: timeBrain, recognizer: FaultyOnceRecognizer())
        XCTAssertTrue(
            result.events.contains {
                $0.kind == .error(stage: .stt, code: "stt-decode-failed", message: "PocketSphinx could not finish the utterance")
            })
        XCTAssertEqual(result.names.filter { $0 == "idle" }.count, 2, "both interactions end: \(result.names)")
        XCTAssertEqual(result.names.filter { $0 == "answer" }.count, 1, "the second command is answered: \(result.names)")
        let errorIndex = try XCTUnwrap(result.names.firstIndex(of: "error"))
        let firstIdle = try XCTUnwrap(result.names.firstIndex(of: "idle"))
        XCTAssertLessThan(errorIndex, firstIdle, "the error belongs to the first interaction")
    }

    func testEmptyTranscriptIsReported() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1000)])
        let result = try run(source: source, transcripts: [""], brain: timeBrain)
        XCTAssertTrue(
            result.events.contains {
                if case .error(_, "stt-empty-transcript", _) = $0.kind { return true } else { return false }
            })
        XCTAssertEqual(result.names.last, "idle")
    }

    func testWakeWordDuringSpeechInterruptsAndListens() throws {
        let source = ScriptedSource(
            [.noise(300), .wake, .voice(600), .noise(800)],
            duringSpeech: [.noise(20), .wake, .voice(300), .noise(700)])
        let result = try run(source: source, transcripts: ["what time is it", "stop"], brain: timeBrain)
        XCTAssertEqual(result.sink.interrupted, 1)
        XCTAssertLessThan(result.sink.chunks, 5 + 5, "the first answer was cut short")
        XCTAssertEqual(result.names.filter { $0 == "wake" }.count, 2)
        XCTAssertEqual(result.names.filter { $0 == "transcript" }.count, 2)
        XCTAssertFalse(result.names.contains("error"), "\(result.events)")
        let second = try XCTUnwrap(result.events.last { $0.name == "speech_end" })
        let secondWake = try XCTUnwrap(result.events.last { $0.name == "wake" })
        XCTAssertEqual(Double(second.audioMs - secondWake.audioMs), 300, accuracy: 60, "the barge-in command was heard whole")
        XCTAssertEqual(result.names.last, "idle")
    }

    func testSpeakerDoesNotWakeOnItsOwnName() throws {
        let brain = ScriptedBrain(["what is your name": [.answer(AnswerAction(expression: "My name is SUSI."))]])
        let source = ScriptedSource(
            [.noise(300), .wake, .voice(600), .noise(800)], duringSpeech: [.noise(20), .wake, .noise(100)])
        let result = try run(source: source, transcripts: ["what is your name"], brain: brain)
        XCTAssertEqual(result.sink.interrupted, 0)
        XCTAssertEqual(result.sink.chunks, 5)
        XCTAssertEqual(result.names.filter { $0 == "wake" }.count, 1)
    }

    func testAttentionCoversEveryInteractionAndErrors() throws {
        let brain = timeBrain
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800), .wake, .noise(3000)])
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: brain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder,
            endpointing: EndpointerSettings(noSpeechTimeoutMs: 1500), logger: .silent,
            clock: { 0 })
        var attention: [(Bool, [String])] = []
        environment.onAttention = { attention.append(($0, recorder.events.map(\.name))) }
        try pipeline.run()
        XCTAssertEqual(attention.map(\.0), [true, false, true, false], "the second wake has no speech: still restored")
        XCTAssertEqual(attention[0].1.last, "wake", "music goes down as soon as the wake word is heard")
        XCTAssertEqual(attention[1].1.last, "speak_end", "and comes back once the answer is spoken")
    }

    func testDueAnswersAreSpokenWithTheMusicDownAndOutcomesAreSaid() throws {
        let brain = ScriptedBrain(["what timers are running": [.timerList]])
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(2000)])
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment(perform: { _ in ActionOutcome(say: "One timer is running.") })
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what timers are running"]), brain: brain,
                synthesizer: synthesizer, sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: RecordingEventSink(), endpointing: EndpointerSettings(),
            logger: .silent,
            clock: { 0 })
        var due = ["Time is up!"]
        var attention: [Bool] = []
        environment.dueAnswers = {
            defer { due = [] }
            return due
        }
        environment.onAttention = { attention.append($0) }
        try pipeline.run()
        XCTAssertEqual(synthesizer.spoken, ["Time is up!", "One timer is running."])
        XCTAssertEqual(attention, [true, false, true, false])
    }

    /// Issue 53: an alarm rings with the music down, its words said every `ringSpeechEvery`
    /// rings, until `ringCycles` have rung; then the music comes back up.
    func testAnAlarmRingsOutWithTheMusicDown() throws {
        let synthesizer = ChunkedSynthesizer()
        let sink = RecordingSink()
        let environment = ScriptedEnvironment()
        var alarm: String? = "Wake up!"
        var attention: [Bool] = []
        environment.alarms = {
            defer { alarm = nil }
            return alarm
        }
        environment.onAttention = { attention.append($0) }
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(1000)]), wake: ScriptedWake(), recognizer: ScriptedRecognizer([]),
                brain: timeBrain, synthesizer: synthesizer, sink: sink),
            environment: PipelineEnvironment(environment), events: RecordingEventSink(), endpointing: EndpointerSettings(),
            logger: .silent,
            clock: { 0 })
        try pipeline.run()
        let sayings = (VoicePipeline.ringCycles + VoicePipeline.ringSpeechEvery - 1) / VoicePipeline.ringSpeechEvery
        XCTAssertEqual(synthesizer.spoken, Array(repeating: "Wake up!", count: sayings))
        XCTAssertEqual(attention, [true, false], "music down for the whole ringing, once")
        let toneChunks = (VoicePipeline.ringTone.count + 1599) / 1600
        XCTAssertGreaterThanOrEqual(sink.chunks, VoicePipeline.ringCycles * toneChunks, "every ring was played")
    }

    /// Issue 53: the wake word cuts a ringing alarm, and the command after it ("snooze") is
    /// heard and performed with the music still down.
    func testTheWakeWordCutsARingingAlarmAndItsCommandIsHeard() throws {
        let brain = ScriptedBrain(["snooze": [.planner(PlannerAction(.alarmSnooze))]])
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment(perform: { action in
            action.type == "alarm_snooze" ? ActionOutcome(say: "Okay, I'll ring again in 9 minutes.") : .done
        })
        var alarm: String? = "Wake up!"
        var attention: [Bool] = []
        environment.alarms = {
            defer { alarm = nil }
            return alarm
        }
        environment.onAttention = { attention.append($0) }
        let recorder = RecordingEventSink()
        // "susi snooze" arrives while the first ring plays (after the 5 chunks of its words).
        let source = ScriptedSource([.noise(300)], duringSpeech: [.noise(20), .wake, .voice(600), .noise(1500)])
        let sink = RecordingSink()
        sink.onPlay = { if sink.chunks > 5 { source.speakerTalking = true } }
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["snooze"]), brain: brain,
                synthesizer: synthesizer, sink: sink),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        XCTAssertEqual(synthesizer.spoken, ["Wake up!", "Okay, I'll ring again in 9 minutes."], "cut after the wake word")
        XCTAssertEqual(attention, [true, false], "the music stayed down from the ringing through the command")
        XCTAssertEqual(recorder.events.filter { $0.name == "wake" }.count, 1)
        XCTAssertLessThan(
            sink.chunks, 5 + 2 * VoicePipeline.ringTone.count / 1600 + 5 * 2, "the ringing stopped at the wake word")
    }

    /// While idle, planned answers are asked for once per `idleAskingMs` of input, not on
    /// every 20 ms chunk (each asking applies config changes too), the first chunk included.
    func testIdleAsksForPlannedAnswersOncePerHundredMilliseconds() throws {
        let environment = ScriptedEnvironment()
        var askedAt: [Int] = []
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(2000)]), wake: ScriptedWake(), recognizer: ScriptedRecognizer([]),
                brain: timeBrain, synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: RecordingEventSink(), endpointing: EndpointerSettings(),
            logger: .silent,
            clock: { 0 })
        environment.dueAnswers = {
            askedAt.append(pipeline.audioMs)
            return []
        }
        try pipeline.run()
        XCTAssertEqual(askedAt, Array(stride(from: 20, through: 1920, by: VoicePipeline.idleAskingMs)))
    }

    /// A media source the speaker refuses (`MediaSourcePolicy`) ends as a `player` error event
    /// and the apology the outcome carries, then the rest of the answer goes on.
    func testARefusedMediaSourceIsAPlayerErrorAndAnApology() throws {
        struct Refused: SusiError {
            var stage: Stage { .player }
            var code: String { "player-source-refused" }
            var message: String { "refused to play /: not a regular file" }
        }
        let brain = ScriptedBrain([
            "play slash": [
                .audioPlay(MediaPlayAction(identifier: "/", identifierType: "url")), .answer(AnswerAction(expression: "Done.")),
            ]
        ])
        let recorder = RecordingEventSink()
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment(perform: { action in
            guard case .audioPlay = action else { return .done }
            return ActionOutcome(say: "Sorry, I can't play that.", failure: Refused())
        })
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(300), .wake, .voice(600), .noise(2000)]), wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["play slash"]), brain: brain, synthesizer: synthesizer, sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        let errors = recorder.events.compactMap { event -> String? in
            if case .error(let stage, let code, _) = event.kind { return "\(stage.rawValue) \(code)" } else { return nil }
        }
        XCTAssertEqual(errors, ["player player-source-refused"])
        XCTAssertEqual(synthesizer.spoken, ["Sorry, I can't play that.", "Done."])
    }

    /// Issue 51: a stream that fails to load after the actions were performed is apologised
    /// for within the interaction (`speak_start`, `speak_end`), then `idle`; the input goes on
    /// being read while the outcome is awaited.
    func testWhatTheActionsOweIsSaidBeforeIdle() throws {
        let recorder = RecordingEventSink()
        let synthesizer = ChunkedSynthesizer()
        let environment = ScriptedEnvironment()
        var asked = 0
        environment.owed = {
            asked += 1
            return asked < 4 ? nil : ["Sorry, I could not play that."]
        }
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([.noise(300), .wake, .voice(600), .noise(3000)]), wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["play some jazz"]), brain: timeBrain, synthesizer: synthesizer,
                sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        let names = recorder.events.map(\.name)
        let play = try XCTUnwrap(names.firstIndex(of: "play"), "\(names)")
        XCTAssertEqual(Array(names[play...]), ["play", "speak_start", "speak_end", "idle"])
        XCTAssertEqual(synthesizer.spoken, ["Playing jazz.", "Sorry, I could not play that."])
        XCTAssertEqual(asked, 4, "asked until the outcome came, then no more")
        let speakStart = recorder.events[play + 1]
        XCTAssertGreaterThan(speakStart.audioMs, recorder.events[play].audioMs, "input read while waiting")
    }

    /// The name said just as an interaction ends (the player confirmed the music late, as on a
    /// loaded machine) is heard whole: the detector starts afresh from where that voice began,
    /// not from the middle of it.
    func testANameSaidAsTheInteractionEndsIsHeardWhole() throws {
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        var asked = 0
        // Settling reads 20 ms a time: the outcome comes 280 ms into the voice after 1 s of quiet.
        environment.owed = {
            asked += 1
            return asked < 65 ? nil : []
        }
        let pipeline = VoicePipeline(
            stages: .init(
                source: ScriptedSource([
                    .noise(300), .voice(500), .wake, .voice(600), .noise(1000), .voice(500), .wake, .voice(600),
                    .noise(1500),
                ]),
                wake: ScriptedWake(needsHeardMs: 400), recognizer: ScriptedRecognizer(["play some jazz", "what time is it"]),
                brain: timeBrain, synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        XCTAssertEqual(asked, 66, "the first interaction ended inside the second voice; the second at once")
        let transcripts = recorder.transcripts
        XCTAssertEqual(transcripts, ["play some jazz", "what time is it"], "\(recorder.events.map(\.name))")
    }

    /// A reading no skill is sure of is first heard again as one of the home's commands; the
    /// second pass then has nothing to do. A sure reading is not.
    func testTheHomesCommandsHearAnUnsureReadingFirst() throws {
        let brain = ScriptedBrain([
            "what time is it": [.answer(AnswerAction(expression: "Four."))],
            "turn on the kitchen light": [.answer(AnswerAction(expression: "Done."))],
        ])
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1000), .wake, .voice(800), .noise(1000)])
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        var asked: [String] = []
        environment.homeHearing = { heard in
            asked.append(heard)
            return "turn on the kitchen light"
        }
        environment.secondPass = {
            XCTFail("no second pass after the home's commands heard it")
            return ""
        }
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["what time is it", "so on the kitchen light"]),
                brain: brain, synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        let transcripts = recorder.transcripts
        XCTAssertEqual(transcripts, ["what time is it", "turn on the kitchen light"])
        XCTAssertEqual(asked, ["so on the kitchen light"], "only the reading no skill is sure of")
    }

    func testASecondPassHearsWhatNoSkillMatchesAndOnlyThat() throws {
        let brain = ScriptedBrain(["what time is it": [.answer(AnswerAction(expression: "Four."))]])
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1000), .wake, .voice(800), .noise(1000)])
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it", "who road romeo and"]),
                brain: brain, synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        var passes = 0
        environment.secondPass = {
            passes += 1
            return "who wrote romeo and juliet"
        }
        try pipeline.run()
        let transcripts = recorder.transcripts
        XCTAssertEqual(transcripts, ["what time is it", "who wrote romeo and juliet"])
        XCTAssertEqual(passes, 1, "only the command no skill matched is decoded again")
    }

    func testAReadingOwedToLooseWildcardsIsHeardAgainAndAFewCheckedWordsAreNot() throws {
        let brain = ScriptedBrain([
            "play some jazz": [.answer(AnswerAction(expression: "Jazz."))],
            "what is the rolling stone": [.answer(AnswerAction(expression: "Searching."))],
        ])
        brain.unchecked = ["play some jazz": 2, "what is the rolling stone": 3]
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1000), .wake, .voice(800), .noise(1000)])
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["play some jazz", "what is the rolling stone"]),
                brain: brain, synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        var passes = 0
        environment.secondPass = {
            passes += 1
            return "what is the weather in berlin"
        }
        try pipeline.run()
        let transcripts = recorder.transcripts
        XCTAssertEqual(transcripts, ["play some jazz", "what is the weather in berlin"])
        XCTAssertEqual(passes, 1, "two unchecked words are sure enough; three are heard again")
    }

    func testNothingWakesTheSpeakerWhileTheWakeWordIsOff() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(1500), .wake, .voice(600), .noise(1500)])
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        var asked = 0
        environment.listening = {
            asked += 1
            return asked > 9  // asked as the run starts and per 100 ms of idle input: off for 800 ms
        }
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        let wakes = recorder.events.filter { $0.name == "wake" }
        XCTAssertEqual(wakes.map(\.audioMs), [2440], "only the wake word said once it was on")
        XCTAssertEqual(recorder.events.filter { $0.name == "answer" }.count, 1)
    }

    func testWakeDetectorRestsWhileNobodySpeaks() throws {
        let source = ScriptedSource([.noise(10_000), .voice(400), .wake, .voice(600), .noise(1500)])
        let wake = ScriptedWake()
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: wake, recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        XCTAssertEqual(recorder.events.filter { $0.name == "wake" }.count, 1, "the wake word is still heard")
        XCTAssertLessThan(wake.position, 3000, "ten seconds of background hiss were not searched for the wake word")
        XCTAssertGreaterThan(wake.position, 400, "the voice before the wake word was searched, with some lead-in")
    }

    // MARK: Settings changed between interactions

    /// A pipeline over `source` with a scripted wake detector and the time brain.
    private func livePipeline(_ source: ScriptedSource, wake: any WakeWordDetector = ScriptedWake())
        -> (VoicePipeline, ScriptedEnvironment, RecordingEventSink)
    {
        let recorder = RecordingEventSink()
        let environment = ScriptedEnvironment()
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: wake, recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(environment), events: recorder,
            endpointing: EndpointerSettings(noSpeechTimeoutMs: 1500),
            logger: .silent, clock: { 0 })
        return (pipeline, environment, recorder)
    }

    func testEachCommandIsEndpointedWithTheSettingsOfItsBeginning() throws {
        let source = ScriptedSource([.noise(300), .wake, .noise(4000), .wake, .noise(4000), .wake, .noise(4000)])
        let (pipeline, environment, recorder) = livePipeline(source)
        environment.endpointing = EndpointerSettings(noSpeechTimeoutMs: 3000)
        // Changed during the first command (as `stt.*` would be): for the next one on.
        environment.onAttention = { attending in
            if attending { environment.endpointing = EndpointerSettings(noSpeechTimeoutMs: 800) }
        }
        try pipeline.run()
        let wakes = recorder.events.filter { $0.name == "wake" }.map(\.audioMs)
        let gaveUp = recorder.events.filter { $0.name == "error" }.map(\.audioMs)
        XCTAssertEqual(wakes.count, 3)
        XCTAssertEqual(gaveUp.count, 3)
        let waited = zip(wakes, gaveUp).map { $1 - $0 }
        XCTAssertEqual(waited[0], 3000, accuracy: 40, "the first command's settings")
        XCTAssertEqual(waited[1], 800, accuracy: 40, "the second's")
        XCTAssertEqual(waited[2], 800, accuracy: 40, "and the third's")
        XCTAssertGreaterThan(environment.reconfigurings, 3, "as the run starts, while idle, and as each command begins")
    }

    func testAReplacementWakeDetectorListensFromTheNextChunkOn() throws {
        let source = ScriptedSource([.noise(300), .voice(300), .wake, .noise(2000), .voice(300), .wake, .noise(2000)])
        let first = ScriptedWake()
        let (pipeline, environment, recorder) = livePipeline(source, wake: first)
        let second = DeafWake()
        // After the first interaction, as a `hotword.*` change would be.
        environment.onAttention = { attending in
            if !attending { environment.replacement = { second } }
        }
        try pipeline.run()
        XCTAssertEqual(recorder.events.filter { $0.name == "wake" }.count, 1, "the second wake word is for the new detector")
        XCTAssertGreaterThan(second.heard, 0, "which hears the input")
        XCTAssertLessThan(first.position, 1000, "the old one hears no more")
    }

    func testAWakeDetectorThatCannotBeMadeIsReportedAndTheOldOneKept() throws {
        let source = ScriptedSource([.noise(300), .voice(300), .wake, .noise(2000)])
        let (pipeline, environment, recorder) = livePipeline(source)
        environment.replacement = { throw PipelineError(stage: .wake, code: "wake-init-failed", message: "no such phrase") }
        try pipeline.run()
        XCTAssertEqual(
            recorder.events.first { $0.name == "error" }?.kind,
            .error(stage: .wake, code: "wake-init-failed", message: "no such phrase"))
        XCTAssertEqual(recorder.events.filter { $0.name == "wake" }.count, 1, "still woken by the old detector")
    }

    /// A detector that hears nothing, counting what it is fed.
    final class DeafWake: WakeWordDetector {
        private(set) var heard = 0
        var position: Int { heard / 16 }
        func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
            heard += samples.count
            return []
        }
        func reset() throws {}
    }

    // MARK: State machine

    /// Notes the pipeline's published phase whenever a stage is used.
    final class PhaseLog {
        let status: PipelineStatus
        var seen: [PipelinePhase] = []
        init(_ status: PipelineStatus) { self.status = status }
        func note() {
            let phase = status.phase
            if seen.last != phase { seen.append(phase) }
        }
    }

    final class NotingBrain: ChatBrain {
        let inner: ScriptedBrain
        let onAnswer: () -> Void
        init(_ inner: ScriptedBrain, onAnswer: @escaping () -> Void) {
            self.inner = inner
            self.onAnswer = onAnswer
        }
        func answer(_ query: String) throws -> ChatResponse {
            onAnswer()
            return try inner.answer(query)
        }
        func understanding(of text: String) -> CommandUnderstanding? { inner.understanding(of: text) }
    }

    /// Hands out a scripted source's chunks in another format.
    final class ReformattingSource: AudioSource {
        let inner: ScriptedSource
        let convert: (AudioChunk) -> AudioChunk
        init(_ inner: ScriptedSource, convert: @escaping (AudioChunk) -> AudioChunk) {
            self.inner = inner
            self.convert = convert
        }
        func read(milliseconds: Int) throws -> AudioChunk? { try inner.read(milliseconds: milliseconds).map(convert) }
        func readAvailable() throws -> AudioChunk? { try inner.readAvailable().map(convert) }
    }

    /// The input level is published per chunk: a loud command reads far above the hiss
    /// before it, for the web page's meter.
    func testTheInputLevelIsPublishedWhileListening() throws {
        let status = PipelineStatus()
        let levels = Mutex<[(PipelinePhase, Double)]>([])
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
        let pipeline = VoicePipeline(
            stages: .init(
                source: ReformattingSource(source) { chunk in
                    levels.withLock { $0.append((status.phase, status.level)) }
                    return chunk
                }, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(ScriptedEnvironment()), events: RecordingEventSink(),
            endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 }, status: status)
        try pipeline.run()
        let seen = levels.withLock { $0 }
        let idle = seen.prefix(10).map(\.1)
        let listening = seen.filter { $0.0 == .listening }.map(\.1)
        XCTAssertFalse(listening.isEmpty)
        XCTAssertLessThan(idle.max() ?? 1, 0.2, "hiss of about -55 dBFS")
        XCTAssertGreaterThan(listening.max() ?? 0, 0.7, "a tone of about -14 dBFS")
    }

    /// Idle, the pipeline reads the wake word front end's 80 ms step at once (fewer wake-ups
    /// of its thread); hearing a command, 20 ms, so that its end is heard soon.
    func testIdleReadsAreLongerThanACommandsReads() throws {
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(ScriptedEnvironment()), events: RecordingEventSink(),
            endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        // 15 chunks of noise and the wake word's, then the command.
        XCTAssertEqual(Array(source.asked.prefix(16)), Array(repeating: 80, count: 16))
        XCTAssertEqual(source.asked.dropFirst(16).first, 20)
    }

    /// While the detector hears the input, idle reads end where it can next decide (its
    /// step's end), rounded up to 20 ms: an 80 ms read held a decision back by up to 60 ms.
    /// With no voice, or a detector that may decide anywhere, they are 80 ms.
    func testIdleReadsEndWhereTheDetectorCanNextDecide() throws {
        for stepFrames in [1920, 1000] {
            let source = ScriptedSource([.noise(1000), .voice(600), .noise(3000)])
            source.chunksPerRead = nil
            let wake = ScriptedWake(stepFrames: stepFrames)
            _ = try run(source: source, transcripts: [], brain: timeBrain, wake: wake)
            XCTAssertEqual(Array(source.asked.prefix(12)), Array(repeating: 80, count: 12), "before the voice")
            XCTAssertEqual(source.asked.last, 80, "after the hangover")
            // The first call holds the preroll; each later one what the detector asked for.
            XCTAssertGreaterThan(wake.calls.count, 10)
            for call in wake.calls.dropFirst() {
                let asked = try XCTUnwrap(call.asked)
                XCTAssertTrue((asked..<(asked + 320)).contains(call.given), "step \(stepFrames): \(call)")
                if stepFrames % 320 == 0 { XCTAssertEqual(call.given, asked) }
            }
        }
        let source = ScriptedSource([.noise(1000), .voice(600), .noise(3000)])
        source.chunksPerRead = nil
        _ = try run(source: source, transcripts: [], brain: timeBrain, wake: ScriptedWake())
        XCTAssertEqual(Set(source.asked), [80])
    }

    /// The gate starts the detector at the same place (its preroll before the first voice)
    /// whether input arrives 20 or 80 ms at a time: that place sets where a neural detector's
    /// steps fall, and so what it hears.
    func testTheDetectorHearsTheSameWhateverTheReadSize() throws {
        var heard: [[Int16]] = []
        for chunksPerRead in [1, 4] {
            let source = ScriptedSource([.noise(1500), .voice(400), .noise(1500)])
            source.chunksPerRead = chunksPerRead
            let wake = ScriptedWake()
            _ = try run(source: source, transcripts: [], brain: timeBrain, wake: wake)
            heard.append(wake.heard)
        }
        // From 500 ms before the voice, to about a second after it (to within a read).
        XCTAssertEqual(Double(heard[0].count), 1900 * 16, accuracy: 80 * 16)
        let common = min(heard[0].count, heard[1].count)
        XCTAssertTrue(heard[1].prefix(common).elementsEqual(heard[0].prefix(common)), "heard from another place")
    }

    func testLevelIsTheRMSInDecibelsOnAZeroToOneScale() {
        XCTAssertEqual(PipelineStatus.level(of: []), 0)
        XCTAssertEqual(PipelineStatus.level(of: [Int16](repeating: 0, count: 320)), 0)
        XCTAssertEqual(PipelineStatus.level(of: [Int16](repeating: 32767, count: 320)), 1, accuracy: 0.001)
        // -30 dBFS is halfway on the -60...0 dB scale.
        XCTAssertEqual(PipelineStatus.level(of: [Int16](repeating: 1036, count: 320)), 0.5, accuracy: 0.01)
        XCTAssertEqual(PipelineStatus.level(of: [Int16](repeating: 10, count: 320)), 0, "under -60 dBFS reads 0")
    }

    func testThePhaseIsPublishedAsTheInteractionGoes() throws {
        let status = PipelineStatus()
        let log = PhaseLog(status)
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
        let sink = RecordingSink()
        sink.onPlay = { log.note() }
        let recognizer = ScriptedRecognizer(["what time is it"])
        let pipeline = VoicePipeline(
            stages: .init(
                source: ReformattingSource(source) { chunk in
                    log.note()
                    return chunk
                }, wake: ScriptedWake(), recognizer: recognizer, brain: NotingBrain(timeBrain) { log.note() },
                synthesizer: ChunkedSynthesizer(), sink: sink),
            environment: PipelineEnvironment(ScriptedEnvironment()), events: RecordingEventSink(),
            endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 }, status: status)
        try pipeline.run()
        XCTAssertEqual(log.seen, [.idle, .listening, .thinking, .speaking, .idle])
        XCTAssertEqual(status.phase, .idle)
        XCTAssertEqual(status.audioMs, 300 + 20 + 600 + 800, "the whole input was consumed")
    }

    func testStopCutsTheSentenceAndEndsTheRun() throws {
        let status = PipelineStatus()
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800), .noise(5000)])
        let sink = RecordingSink()
        sink.onPlay = { if sink.chunks == 2 { status.requestStop() } }
        let recorder = RecordingEventSink()
        var attention: [Bool] = []
        let environment = ScriptedEnvironment()
        environment.onAttention = { attention.append($0) }
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: sink),
            environment: PipelineEnvironment(environment), events: recorder, endpointing: EndpointerSettings(), logger: .silent,
            clock: { 0 },
            status: status)
        try pipeline.run()
        XCTAssertEqual(sink.chunks, 2, "the sentence stopped at the next chunk")
        XCTAssertEqual(sink.interrupted, 1)
        XCTAssertEqual(Array(recorder.events.map(\.name).suffix(3)), ["speak_start", "speak_end", "idle"])
        XCTAssertEqual(attention, [true, false], "the music comes back up")
        XCTAssertGreaterThan(source.chunks.count, 200, "the rest of the input was left unread")
        XCTAssertEqual(status.phase, .idle)
    }

    func testStopWhileListeningEndsWithoutAnAnswer() throws {
        let status = PipelineStatus()
        let source = ScriptedSource([.noise(300), .wake, .voice(600), .noise(800)])
        var reads = 0
        let counting = ReformattingSource(source) { chunk in
            reads += 1
            if reads == 30 { status.requestStop() }
            return chunk
        }
        let recorder = RecordingEventSink()
        let pipeline = VoicePipeline(
            stages: .init(
                source: counting, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(ScriptedEnvironment()), events: recorder, endpointing: EndpointerSettings(),
            logger: .silent,
            clock: { 0 },
            status: status)
        try pipeline.run()
        XCTAssertEqual(recorder.events.map(\.name), ["ready", "wake", "listening", "idle"])
        XCTAssertEqual(reads, 30)
    }

    func testBargeInAfterBargeInIsATransitionNotADeeperCall() throws {
        // Every answer is cut by "susi stop"; the last one is heard to the end.
        let brain = ScriptedBrain([
            "what time is it": [.answer(AnswerAction(expression: "It is ten past four."))],
            "stop": [.answer(AnswerAction(expression: "Stopping."))],
        ])
        let source = ScriptedSource(
            [.noise(300), .wake, .voice(600), .noise(800)],
            duringSpeech: [
                .noise(20), .wake, .voice(300), .noise(700), .noise(20), .wake, .voice(300), .noise(700),
                .noise(20), .wake, .voice(300), .noise(700),
            ])
        let recorder = RecordingEventSink()
        var attention: [Bool] = []
        let environment = ScriptedEnvironment()
        environment.onAttention = { attention.append($0) }
        let sink = RecordingSink()
        sink.onPlay = { source.speakerTalking = true }
        let pipeline = VoicePipeline(
            stages: .init(
                source: source, wake: ScriptedWake(),
                recognizer: ScriptedRecognizer(["what time is it", "stop", "stop", "stop"]),
                brain: brain, synthesizer: ChunkedSynthesizer(), sink: sink),
            environment: PipelineEnvironment(environment), events: recorder,
            endpointing: EndpointerSettings(endSilenceMs: 500, shortSilenceMs: 200, noSpeechTimeoutMs: 1500),
            logger: .silent, clock: { 0 })
        try pipeline.run()
        let names = recorder.events.map(\.name)
        XCTAssertEqual(names.filter { $0 == "wake" }.count, 4)
        XCTAssertEqual(names.filter { $0 == "transcript" }.count, 4)
        XCTAssertEqual(sink.interrupted, 3)
        XCTAssertEqual(names.filter { $0 == "idle" }.count, 1, "one interaction, barged into three times")
        XCTAssertEqual(names.last, "idle")
        XCTAssertEqual(attention, [true, false], "the music went down once and came back once")
    }

    func testPositionsFollowEachChunksFormat() throws {
        let segments: [Segment] = [.noise(500), .voice(400), .wake, .voice(900), .noise(1500)]
        let mono = try run(source: ScriptedSource(segments), transcripts: ["what time is it"], brain: timeBrain)
        // The same audio as 16 kHz stereo: twice the samples per chunk, the same times.
        let stereo = AudioFormat(sampleRate: 16_000, channels: 2)
        let recorder = RecordingEventSink()
        let pipeline = VoicePipeline(
            stages: .init(
                source: ReformattingSource(ScriptedSource(segments)) { chunk in
                    AudioChunk(format: stereo, samples: chunk.samples.flatMap { [$0, $0] })
                }, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
            environment: PipelineEnvironment(ScriptedEnvironment()), events: recorder,
            endpointing: EndpointerSettings(endSilenceMs: 500, shortSilenceMs: 200, noSpeechTimeoutMs: 1500), logger: .silent,
            clock: { 0 })
        try pipeline.run()
        XCTAssertEqual(recorder.events.map(\.name), mono.names)
        XCTAssertEqual(recorder.events.map(\.audioMs), mono.events.map(\.audioMs))
        XCTAssertEqual(recorder.events.first { $0.name == "wake" }?.audioMs, 920)
    }

    /// Keeps every third sample: a 48 kHz stream whose samples come in threes is 16 kHz again.
    final class ThirdsConverter: SampleRateConverter {
        private var phase = 0
        func process(_ input: [Float]) -> [Float] {
            var output: [Float] = []
            for sample in input {
                if phase == 0 { output.append(sample) }
                phase = (phase + 1) % 3
            }
            return output
        }
        func flush() -> [Float] { [] }
    }

    func testChunksAtAnotherRateAreResampledAndPlacedByTime() throws {
        let segments: [Segment] = [.noise(500), .voice(400), .wake, .voice(900), .noise(1500)]
        let mono = try run(source: ScriptedSource(segments), transcripts: ["what time is it"], brain: timeBrain)
        let fast = AudioFormat(sampleRate: 48_000, channels: 1)
        let endpointing = EndpointerSettings(endSilenceMs: 500, shortSilenceMs: 200, noSpeechTimeoutMs: 1500)
        func pipeline(resampler: SampleRateConverterMaker?, events: RecordingEventSink) -> VoicePipeline {
            VoicePipeline(
                stages: .init(
                    source: ReformattingSource(ScriptedSource(segments)) { chunk in
                        AudioChunk(format: fast, samples: chunk.samples.flatMap { [$0, $0, $0] })
                    }, wake: ScriptedWake(), recognizer: ScriptedRecognizer(["what time is it"]), brain: timeBrain,
                    synthesizer: ChunkedSynthesizer(), sink: RecordingSink()),
                environment: PipelineEnvironment(ScriptedEnvironment()), events: events, endpointing: endpointing,
                logger: .silent, clock: { 0 },
                resampler: resampler)
        }
        let recorder = RecordingEventSink()
        try pipeline(resampler: { _, _ in ThirdsConverter() }, events: recorder).run()
        XCTAssertEqual(recorder.events.map(\.name), mono.names)
        XCTAssertEqual(recorder.events.map(\.audioMs), mono.events.map(\.audioMs), "48 kHz chunks count at 48 kHz")
        // Without a resampler such input cannot be heard: the source's format is the error.
        XCTAssertThrowsError(try pipeline(resampler: nil, events: RecordingEventSink()).run()) { error in
            XCTAssertEqual((error as? AudioError)?.code, "audio-invalid-format")
        }
    }

    func testImageURLAnswersAreNotReadOut() {
        XCTAssertEqual(SpokenText.answer("https://example.org/cat.JPG"), "I found an image, but I cannot show it on a speaker.")
        XCTAssertEqual(SpokenText.answer("  Hello there "), "Hello there")
        XCTAssertNil(SpokenText.answer("   "))
        let long = String(repeating: "This is a sentence. ", count: 40)
        let cut = SpokenText.answer(long) ?? ""
        XCTAssertTrue(cut.hasSuffix("And more."))
        XCTAssertLessThan(cut.count, 420)
    }
}

extension RecordingEventSink {
    /// The texts of the `transcript` events, in order.
    var transcripts: [String] {
        events.compactMap { event -> String? in
            if case .transcript(let text) = event.kind { return text } else { return nil }
        }
    }
}
