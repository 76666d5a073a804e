import Foundation
import Synchronization

/// The assistant's main loop: wake word, command, brain, actions, speech, back to listening.
///
/// Runs on the caller's thread until the source ends (`run()` returns) and emits the events of
/// the DESIGN.md contract. A failed interaction becomes an `error` event, a short spoken apology
/// where it helps, and `idle`; only a failing audio source ends the loop.
public final class VoicePipeline {
    /// The stages; all are used from the pipeline's thread only.
    public struct Stages {
        public var source: any AudioSource
        public var wake: any WakeWordDetector
        public var recognizer: any SpeechRecognizer
        public var brain: any ChatBrain
        public var synthesizer: any SpeechSynthesizer
        public var sink: any AudioSink

        public init(
            source: any AudioSource, wake: any WakeWordDetector, recognizer: any SpeechRecognizer, brain: any ChatBrain,
            synthesizer: any SpeechSynthesizer, sink: any AudioSink
        ) {
            self.source = source
            self.wake = wake
            self.recognizer = recognizer
            self.brain = brain
            self.synthesizer = synthesizer
            self.sink = sink
        }
    }

    private var stages: Stages
    private let events: any EventSink
    private let endpointing: EndpointerSettings
    private let logger: Logger
    private let clock: () -> Int
    /// Performs an action that is not speech (settings, media, timers).
    private let perform: (ChatAction) -> ActionOutcome
    /// The voice to speak with now (settings actions may have changed it).
    private let voice: () -> VoiceSettings
    /// Told true when an interaction begins and false when it is over, errors included, so
    /// music can be turned down while the speaker listens and talks.
    public var onAttention: (Bool) -> Void = { _ in }
    /// Planned answers (timers) that are due now; asked between chunks of input.
    public var dueAnswers: () -> [String] = { [] }
    /// A second recogniser for commands no skill matches (open questions): given the
    /// command's audio, its transcript. Nil for none.
    public var secondPass: (([Int16]) throws -> String)?

    /// Samples consumed from the source so far; `audio_ms` is derived from it.
    private var consumed = 0 {
        didSet { published.store(consumed, ordering: .relaxed) }
    }
    /// `consumed`, readable from other threads.
    private let published = Atomic<Int>(0)
    /// Recent input, so a command can start where the wake word ended.
    private var history = SampleHistory(capacity: 16_000 * 3)
    /// Voice activity while idle: gates the wake detector and seeds each command's endpointer.
    private var idleActivity = VoiceActivityDetector(marginDB: 6)
    /// Where voice was last heard while idle.
    private var lastVoiceSample = Int.min / 2
    /// How far the wake detector has been fed, in input samples.
    private var wakeFedUntil = 0
    /// The wake detector keeps running this long after the last voice...
    private static let gateHangoverSamples = 16_000
    /// ...and starts this far before the first voice, so the word's soft onset is kept.
    private static let prerollSamples = 8_000
    /// Most input chunks read between two chunks of speech.
    private static let catchUpChunks = 25
    /// How much speech a command needs before a pause gets the recogniser's final decoding
    /// when no quick reading reaches a skill.
    static let earlyFinishSpeechMs = 400
    /// How long before the short silence that ends a complete command its final decoding
    /// starts (it takes 50-150 ms).
    static let decisionLeadMs = 100
    /// Samples handed to the wake detector; it skips audio while a command is heard, so its
    /// positions are mapped back onto `consumed`.
    private var wakeFed = 0

    /// `clock` returns milliseconds since the process started (`wall_ms`); `voice` the voice
    /// to speak with, asked before every answer; `perform` executes non-speech actions.
    public init(
        stages: Stages, events: any EventSink, endpointing: EndpointerSettings, logger: Logger,
        clock: @escaping () -> Int, voice: @escaping () -> VoiceSettings,
        perform: @escaping (ChatAction) -> ActionOutcome
    ) {
        self.stages = stages
        self.events = events
        self.endpointing = endpointing
        self.logger = logger
        self.clock = clock
        self.perform = perform
        self.voice = voice
    }

    /// Position in the input, in ms; safe to read from any thread.
    public var audioMs: Int { published.load(ordering: .relaxed) / 16 }

    private func emit(_ kind: PipelineEvent.Kind, audioMs: Int? = nil) {
        events.emit(PipelineEvent(kind, wallMs: clock(), audioMs: audioMs ?? self.audioMs))
    }

    private func report(_ error: any SusiError) {
        logger.warning("\(error.code): \(error.message)")
        emit(.error(stage: error.stage, code: error.code, message: error.message))
    }

    /// Listens until the source ends. Throws only when the audio source itself fails.
    public func run() throws {
        emit(.ready)
        while let chunk = try stages.source.read() {
            try listenForWake(chunk.samples)
            try sayDueAnswers()
        }
    }

    /// Speaks planned answers whose time has come, with the music turned down.
    private func sayDueAnswers() throws {
        let texts = dueAnswers()
        guard !texts.isEmpty else { return }
        onAttention(true)
        defer { onAttention(false) }
        for text in texts where try !say(text) { break }
    }

    private func take(_ samples: [Int16]) {
        consumed += samples.count
        history.append(samples)
    }

    private func listenForWake(_ samples: [Int16]) throws {
        let detection: WakeHeard?
        do {
            detection = try hearWake(samples)
        } catch let error as any SusiError {
            report(error)
            return
        }
        guard let detection else { return }
        try interact(after: detection)
    }

    /// Takes newly arrived samples and listens for the wake word in them.
    ///
    /// Keyword spotting costs most of the idle CPU, so it runs only around voice activity:
    /// from a little before the first voiced frame until a second after the last one.
    private func hearWake(_ samples: [Int16]) throws -> WakeHeard? {
        take(samples)
        if idleActivity.anyVoiced(samples) { lastVoiceSample = consumed }
        guard consumed - lastVoiceSample <= Self.gateHangoverSamples else { return nil }
        let unheard = history.samples(since: max(wakeFedUntil, consumed - samples.count - Self.prerollSamples))
        wakeFedUntil = consumed
        return try detectWake(in: unheard)
    }

    /// Runs the wake detector on samples that end now; returns the phrase heard and where it
    /// ended, as a sample position in the whole input.
    private func detectWake(in samples: [Int16]) throws -> WakeHeard? {
        wakeFed += samples.count
        guard let detection = try stages.wake.process(samples).first else { return nil }
        return WakeHeard(phrase: detection.phrase, endSample: consumed - (wakeFed - detection.endMilliseconds * 16))
    }

    /// One interaction: the command after the wake word, its answer, back to idle.
    private func interact(after detection: WakeHeard) throws {
        emit(.wake(phrase: detection.phrase), audioMs: detection.endSample / 16)
        onAttention(true)
        defer {
            onAttention(false)
            // The detector starts afresh after the interaction, not with its audio.
            try? stages.wake.reset()
            wakeFedUntil = consumed
            emit(.idle)
        }
        emit(.listening)
        let query: String
        do {
            guard let heard = try listenForCommand(from: detection.endSample) else { return }
            query = heard
        } catch let error as any SusiError {
            report(error)
            apologise("Sorry, I could not understand that.")
            return
        }
        let response: ChatResponse
        do {
            response = try stages.brain.answer(query)
        } catch let error as any SusiError {
            report(error)
            apologise("Sorry, I cannot answer that right now.")
            return
        } catch {
            report(PipelineError(stage: .brain, code: "brain-failed", message: "\(error)"))
            apologise("Sorry, I cannot answer that right now.")
            return
        }
        emit(.answer(query: query, actionsJSON: Self.actionsJSON(response.actions), skill: response.skill))
        try execute(response.actions, data: response.firstAnswer?.data ?? [])
    }

    /// Recognises the command that follows the wake word; nil when nothing was said.
    private func listenForCommand(from start: Int) throws -> String? {
        try stages.recognizer.start()
        var endpointer = Endpointer(settings: endpointing, noiseFloorDB: idleActivity.noiseFloorDB)
        var pending = history.samples(since: start)
        // The command's audio, kept for a second pass only.
        var command: [Int16] = []
        // How finished the words so far sound. It only matters where a pause could end the
        // command, so the best reading is weighed (by the brain) only at three points of a
        // pause: `decisionLeadMs` before the short silence that ends a complete command, at
        // that silence, and at the one that ends an undecided command. Other readings come
        // only from a final decoding: a lattice search mid-utterance can crash PocketSphinx.
        var ending = CommandEnding.unfinished
        let shortMs = endpointer.silenceMs(for: .complete)
        let decisionMs = max(10, shortMs - Self.decisionLeadMs)
        let weighingPoints = [decisionMs, shortMs, endpointer.silenceMs(for: .undecided)]
        // The latest of those points weighed in this pause; 0 while the person speaks.
        var weighedAt = 0
        /// Weighs the recogniser's quick reading into `ending`; true when a skill understands it.
        func weighReading(_ silence: Int) -> Bool {
            guard let words = stages.recognizer.partial else { return false }
            let understood = stages.brain.isCompleteCommand(words)
            ending = .of(words, matchesSkill: understood)
            logger.trace("\(silence) ms into a pause: \(ending) \"\(words)\"")
            return understood
        }
        // The final decoding had in this pause, when the command is to end with it; the audio
        // after it is held back, and decoded only if the person goes on.
        var finalAtPause: Transcript?
        var held: [Int16] = []
        while true {
            if finalAtPause == nil { try stages.recognizer.process(pending) } else { held += pending }
            if secondPass != nil { command += pending }
            let silence = endpointer.trailingSilenceMs
            if silence > 0, finalAtPause == nil,
                let point = weighingPoints.last(where: { $0 > weighedAt && silence + pending.count / 16 >= $0 })
            {
                weighedAt = point
                let understood = weighReading(silence)
                // The quick reading reaches a skill ahead of the short silence: the final
                // decoding is had now, so the answer is ready when that silence is over.
                let ahead = point == decisionMs && understood
                // The quick reading reaches no skill at the short silence: the final decoding
                // often hears better. When it reaches no skill either, the command still waits
                // for the longer silence, and ends with this decoding unless the person goes on.
                // Not in the first moments of speech: the end of the wake word, decoded alone,
                // is often "hey".
                let instead = point == shortMs && !understood && endpointer.speechMs >= Self.earlyFinishSpeechMs
                if ahead || instead, stages.recognizer.canResume {
                    let transcript = try stages.recognizer.finish()
                    logger.trace("\(silence) ms into a pause, final decoding: \(transcript.readings)")
                    finalAtPause = transcript
                    let reached = ahead || transcript.readings.contains(where: stages.brain.isCompleteCommand)
                    ending = reached ? .complete : .of(transcript.text, matchesSkill: false)
                }
            }
            if case .ended = endpointer.process(pending, ending: ending) { break }
            if endpointer.trailingSilenceMs == 0 {
                // The person goes on.
                if finalAtPause != nil {
                    finalAtPause = nil
                    try stages.recognizer.resume()
                    try stages.recognizer.process(held)
                }
                held = []
                weighedAt = 0
                ending = .unfinished
            }
            guard let chunk = try stages.source.read() else { break }
            take(chunk.samples)
            pending = chunk.samples
        }
        var text = try (finalAtPause ?? stages.recognizer.finish()).firstReading(where: stages.brain.isCompleteCommand)
        if let secondPass, !stages.brain.isCompleteCommand(text) {
            let open = try secondPass(command)
            logger.debug("no skill matches \"\(text)\"; second pass heard \"\(open)\"")
            if !open.isEmpty { text = open }
        }
        if endpointer.state == .ended(.noSpeech) || endpointer.speechStartMs == nil {
            report(PipelineError.noSpeech)
            earcon()
            return nil
        }
        emit(.speechEnd, audioMs: (start + (endpointer.lastVoiceMs ?? endpointer.elapsedMs) * 16) / 16)
        emit(.transcript(text: text))
        guard !text.isEmpty else {
            report(PipelineError.nothingRecognised)
            apologise("Sorry, I did not catch that.")
            return nil
        }
        return text
    }

    // MARK: Actions

    private func execute(_ actions: [ChatAction], data: [[String: JSONValue]]) throws {
        // Planned answers count from when the answer came, not from when the words before
        // them have been spoken.
        for case .answer(let answer) in actions where answer.isPlanned {
            if let failure = perform(.answer(answer)).failure { report(failure) }
        }
        for action in actions {
            if case .answer(let answer) = action, answer.isPlanned { continue }
            switch action {
            case .answer(let answer) where !answer.isPlanned:
                guard let text = SpokenText.answer(answer.expression) else { continue }
                if try !say(text) { return }
                continue
            case .audioPlay(let media), .videoPlay(let media):
                emit(.play(type: action.type, identifier: media.identifier, identifierType: media.identifierType))
            case .stop, .pause, .resume, .restart, .next, .previous, .shuffle:
                emit(.player(command: action.type))
            case .audioVolume(let volume):
                emit(.player(command: "volume \(volume.volume)"))
            default:
                break
            }
            let outcome = perform(action)
            if let failure = outcome.failure { report(failure) }
            if let text = outcome.say ?? SpokenText.brief(action, data: data), try !say(text) { return }
        }
    }

    /// Speaks `text`, listening for the wake word meanwhile; false when interrupted.
    @discardableResult
    private func say(_ text: String) throws -> Bool {
        emit(.speakStart(text: text))
        var interruption: WakeHeard?
        var failure: (any Error)?
        do {
            _ = try stages.synthesizer.synthesize(text, voice: voice()) { chunk in
                do {
                    try stages.sink.play(chunk)
                    // Catch up with what the microphone heard meanwhile, bounded so that a
                    // source delivering faster than real time cannot stall the speech.
                    var budget = Self.catchUpChunks
                    while interruption == nil, budget > 0, let heard = try stages.source.readAvailable() {
                        budget -= 1
                        // The speaker must not wake itself: saying its own name is no barge-in.
                        if let detection = try hearWake(heard.samples),
                            !text.lowercased().contains(detection.phrase.lowercased())
                        {
                            interruption = detection
                        }
                    }
                } catch {
                    failure = error
                }
                return interruption == nil && failure == nil
            }
            if let failure { throw failure }
            if interruption == nil { try stages.sink.drain() } else { stages.sink.interrupt() }
        } catch let error as any SusiError {
            stages.sink.interrupt()
            report(error)
            emit(.speakEnd)
            return true
        }
        emit(.speakEnd)
        if let interruption {
            try interact(after: interruption)
            return false
        }
        return true
    }

    private func apologise(_ text: String) {
        _ = try? say(text)
    }

    /// A short rising two-tone beep: "I heard you, but nothing followed".
    private func earcon() {
        let rate = 16_000
        var samples: [Int16] = []
        for (frequency, ms) in [(660.0, 90), (880.0, 110)] {
            let count = rate * ms / 1000
            for index in 0..<count {
                let fade = min(1, Double(min(index, count - index)) / 160)
                samples.append(Int16(sin(2 * .pi * frequency * Double(index) / Double(rate)) * 8000 * fade))
            }
        }
        try? stages.sink.play(AudioChunk(format: .speech, samples: samples))
        try? stages.sink.drain()
    }

    static func actionsJSON(_ actions: [ChatAction]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(actions) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// What performing a non-speech action led to: words to say instead of the action's own
/// rendering, and a failure to report.
public struct ActionOutcome: Sendable {
    public var say: String?
    public var failure: (any SusiError)?

    public init(say: String? = nil, failure: (any SusiError)? = nil) {
        self.say = say
        self.failure = failure
    }

    /// Done, nothing to add.
    public static let done = ActionOutcome()

    /// Failed with `error`.
    public static func failed(_ error: any SusiError) -> ActionOutcome { ActionOutcome(failure: error) }
}

/// A wake phrase heard, placed in the whole input.
struct WakeHeard {
    var phrase: String
    /// Where the phrase ended, in samples since the input began.
    var endSample: Int
}

/// The last few seconds of input with absolute sample positions.
struct SampleHistory {
    private var buffer: [Int16] = []
    private let capacity: Int
    /// Absolute position of `buffer[0]`.
    private var start = 0

    init(capacity: Int) {
        self.capacity = capacity
        buffer.reserveCapacity(capacity * 2)
    }

    mutating func append(_ samples: [Int16]) {
        buffer.append(contentsOf: samples)
        if buffer.count > capacity * 2 {
            let drop = buffer.count - capacity
            buffer.removeFirst(drop)
            start += drop
        }
    }

    /// Samples from absolute position `position` to now (clamped to what is kept).
    func samples(since position: Int) -> [Int16] {
        let offset = max(0, min(position - start, buffer.count))
        return Array(buffer[offset...])
    }
}
