import Foundation
import SusiCore
import SusiModel

/// The assistant's main loop: wake word, command, brain, actions, speech, back to listening.
///
/// A state machine over `Step`s, run on the caller's thread until the source ends or `stop()`
/// is called (`run()` returns), emitting the events of the README's event list ("Events"). Each step
/// returns the next one, so a barge-in ("susi stop" while speaking) is a transition from
/// speaking back to listening, not a call deeper into the stack. A failed interaction becomes
/// an `error` event, a short spoken apology where it helps, and `idle`; only a failing audio
/// source ends the loop. The phase and input position are published in `status` for readers
/// on other threads.
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

    /// What the pipeline does next: the states of its machine.
    private indirect enum Step {
        /// The settings changed since last asked are applied (`PipelineVoice.reconfigure`):
        /// as the pipeline starts, while idle, after each interaction and as each begins; then
        /// `then`, or with nil what is due (an alarm, planned answers) or idle.
        case reconfiguring(then: Step?)
        /// Idle: waiting for the wake word.
        case waiting
        /// Planned answers are due: say them, music down.
        case announcing([String])
        /// An alarm is due: ring it, music down, saying these words between the rings.
        case ringing(String)
        /// The wake word was heard (first, or as a barge-in): hear the command after it.
        case listening(after: WakeHeard)
        /// A command was heard: ask the brain.
        case thinking(query: String)
        /// The brain answered: perform its actions in order.
        case acting(ChatResponse)
        /// The actions are performed; what they still owe (a stream that would not load) is
        /// awaited until `until`, with the wake word heard meanwhile.
        case settling(until: ContinuousClock.Instant)
        /// The interaction is over: music back up, then idle.
        case finishing
    }

    /// How a sentence ended.
    private enum Spoken {
        case finished
        /// The wake word was heard while speaking; the sentence was cut.
        case bargedIn(WakeHeard)
        /// `stop()` was called; the sentence was cut.
        case stopped
    }

    private let stages: Stages
    private let environment: PipelineEnvironment
    /// Whether the wake word is listened for (`Reconfiguration.listensForWakeWord`).
    private var listensForWakeWord = true
    private let events: any EventSink
    private let logger: Logger
    private let clock: () -> Int
    /// The phase and input position, for readers on other threads.
    public let status: PipelineStatus
    private var history: AudioHistory
    private var wakeGate: WakeGate
    private let listener: CommandListener
    /// Turns chunks that arrive in another format into `SamplePosition.format`.
    private var converter: AudioConverter?
    /// Makes the resamplers for chunks at another rate.
    private let resampler: SampleRateConverterMaker?
    /// Whether an interaction or a planned answer holds the speaker's attention (music down).
    private var attending = false
    /// Most input chunks read between two chunks of speech.
    private static let catchUpChunks = 25
    /// While idle, the pipeline reconfigures and asks for planned answers once per this much
    /// input rather than on every chunk: an asking costs as much as the rest of a quiet room's
    /// chunk.
    static let idleAskingMs = 100
    /// Input read at once while idle and the wake word detector hears nothing (no voice): the
    /// neural front end's step. Each read wakes the thread, and a step's models run slower
    /// when it wakes from sleep (caches gone): idle on speech cost 0.025 CPU s per audio s in
    /// 20 ms reads, 0.022 in 80 ms (`bench/RESULTS.md`). While the detector hears the input,
    /// reads end where it can next decide (`WakeGate.nextReadMilliseconds`).
    static let idleReadMs = 80
    /// The longest idle read, whatever a detector asks for: the neural one's next decision is
    /// at most its stride's two steps (160 ms) away.
    static let longestIdleReadMs = 320
    /// Input read at once while hearing a command: its end is heard within this.
    static let commandReadMs = 20
    /// The longest wait, after the actions, for what they still owe before `idle`: long
    /// enough for yt-dlp to find a stream and mpv to open it (or fail to) on a small board.
    /// Real time, whatever the input's pace: the player keeps the world's clock.
    static let outcomeWaitMs = 10_000
    /// Where the idle pipeline last reconfigured and asked for planned answers.
    private var askedAt = SamplePosition(frames: Int.min / 2)
    /// Where the interaction's own audio ended: the wake word and command, or the last thing said.
    private var interactionAudioEnd = SamplePosition.start

    /// `clock` returns milliseconds since the process started (`wall_ms`); `environment` is
    /// asked for the voice and performs non-speech actions; `status` may be shared with the
    /// server and with later pipelines (a microphone that comes back). Chunks in another
    /// channel count are mixed down; chunks at another rate need `resampler` (SusiAudio's
    /// `SpeexResampler.make`), without which they end the run with `audio-invalid-format`.
    public init(
        stages: Stages, environment: PipelineEnvironment, events: any EventSink, endpointing: EndpointerSettings,
        logger: Logger, clock: @escaping () -> Int, status: PipelineStatus = PipelineStatus(),
        resampler: SampleRateConverterMaker? = nil
    ) {
        self.stages = stages
        self.resampler = resampler
        self.environment = environment
        self.events = events
        self.logger = logger
        self.clock = clock
        self.status = status
        // Enough for the longest command with the longest wait before it.
        let keptMs = max(3_000, endpointing.noSpeechTimeoutMs + endpointing.maxUtteranceMs + 1_000)
        history = AudioHistory(capacity: SamplePosition.format.frames(milliseconds: keptMs))
        wakeGate = WakeGate(detector: stages.wake)
        listener = CommandListener(
            recognizer: stages.recognizer, brain: stages.brain, settings: endpointing, logger: logger,
            hearAgain: { [voice = environment.voice] in try voice.transcribeAgain() })
    }

    /// Position in the input, in ms; safe to read from any thread.
    public var audioMs: Int { status.audioMs }

    /// Ends `run()` soon: within a chunk of input, or a chunk of speech (the sentence being
    /// said is cut, the interaction ends with `idle`). Safe from any thread.
    public func stop() {
        status.requestStop()
    }

    private func emit(_ kind: PipelineEvent.Kind, audioMs: Int? = nil) {
        events.emit(PipelineEvent(kind, wallMs: clock(), audioMs: audioMs ?? self.audioMs))
    }

    private func report(_ error: any SusiError) {
        logger.warning("\(error.code): \(error.message)")
        emit(.error(stage: error.stage, code: error.code, message: error.message))
    }

    /// Listens until the source ends or `stop()` is called. Throws only when the audio source
    /// itself fails.
    public func run() throws {
        emit(.ready)
        defer { status.enter(.idle) }
        var step = Step.reconfiguring(then: .waiting)
        while !status.isStopRequested {
            switch step {
            case .reconfiguring(let next):
                reconfigure()
                step = next ?? announcements()
            case .waiting:
                status.enter(.idle)
                let listening = listensForWakeWord
                let readMs =
                    listening
                    ? wakeGate.nextReadMilliseconds(otherwise: Self.idleReadMs, longest: Self.longestIdleReadMs)
                    : Self.idleReadMs
                guard let chunk = try read(waitingFor: readMs) else { return }
                let wake = listening ? try hearWake(in: chunk) : nil
                step = wake.map { .reconfiguring(then: .listening(after: $0)) } ?? idleAsking()
            case .announcing(let texts):
                step = try announce(texts)
            case .ringing(let text):
                step = try ring(text)
            case .listening(let wake):
                step = try listen(after: wake)
                interactionAudioEnd = history.end
            case .thinking(let query):
                step = think(about: query)
            case .acting(let response):
                step = try act(on: response)
            case .settling(let deadline):
                step = try settle(until: deadline)
            case .finishing:
                finishInteraction()
                step = .reconfiguring(then: nil)
            }
        }
        if attending { finishInteraction() }
    }

    // MARK: Input

    /// The next chunk of input in `SamplePosition.format`, added to the history: the next
    /// `milliseconds`, waiting for them, or with nil what has arrived. Nil at the end of the
    /// input (or when nothing has arrived).
    private func read(waitingFor milliseconds: Int?) throws -> [Int16]? {
        let arrived =
            if let milliseconds { try stages.source.read(milliseconds: milliseconds) } else { try stages.source.readAvailable() }
        guard let chunk = arrived else { return nil }
        let samples = try speechSamples(of: chunk)
        history.append(samples)
        status.advance(to: history.end, level: PipelineStatus.level(of: samples))
        return samples
    }

    private func speechSamples(of chunk: AudioChunk) throws -> [Int16] {
        guard chunk.format != SamplePosition.format else { return chunk.samples }
        var converter =
            try self.converter.flatMap { $0.source == chunk.format ? $0 : nil }
            ?? AudioConverter(from: chunk.format, to: SamplePosition.format, resampler: resampler)
        let converted = try converter.convert(chunk)
        self.converter = converter
        return converted.samples
    }

    /// Applies what the environment says has changed in the settings: the endpointing of
    /// the commands from now on, the wake word detector (a failure to make it is reported, and
    /// the current one kept), and whether to listen for the wake word.
    private func reconfigure() {
        let change = environment.voice.reconfigure()
        if let endpointing = change.endpointing { listener.settings = endpointing }
        if let detector = change.wakeDetector { wakeGate.replace(detector, at: history.end) }
        if let failure = change.wakeFailure { report(failure) }
        if let listens = change.listensForWakeWord { listensForWakeWord = listens }
    }

    /// The wake word in the newest chunk, if it ended there; a detector failure is reported.
    private func hearWake(in chunk: [Int16]) throws -> WakeHeard? {
        do {
            return try wakeGate.hear(chunk, in: history)
        } catch let error as any SusiError {
            report(error)
            return nil
        }
    }

    // MARK: Steps

    /// Music down for an interaction or a planned answer (once, however it goes on).
    private func attend() {
        guard !attending else { return }
        attending = true
        environment.attention.attentionChanged(to: true)
    }

    private func release() {
        guard attending else { return }
        attending = false
        environment.attention.attentionChanged(to: false)
    }

    private func finishInteraction() {
        release()
        // The detector starts afresh after the interaction, not with its audio.
        wakeGate.restart(at: history.end, interactionEnd: interactionAudioEnd)
        status.enter(.idle)
        emit(.idle)
    }

    /// An alarm due now, else planned answers due now, else idle.
    private func announcements() -> Step {
        if let alarm = environment.attention.dueAlarm() { return .ringing(alarm) }
        let texts = environment.attention.dueAnnouncements()
        return texts.isEmpty ? .waiting : .announcing(texts)
    }

    /// Once per `idleAskingMs` of input: the settings changed, then what is due; else idle.
    private func idleAsking() -> Step {
        guard history.end.frames(since: askedAt) >= SamplePosition.format.frames(milliseconds: Self.idleAskingMs) else {
            return .waiting
        }
        askedAt = history.end
        return .reconfiguring(then: nil)
    }

    /// Says planned answers with the music down; a barge-in starts an interaction.
    private func announce(_ texts: [String]) throws -> Step {
        attend()
        for text in texts {
            switch try say(text) {
            case .finished: continue
            case .bargedIn(let wake): return .listening(after: wake)
            case .stopped: return .waiting
            }
        }
        release()
        return .waiting
    }

    /// Rings an alarm with the music down: `ringCycles` rings, saying `text` before the first
    /// and then every `ringSpeechEvery` rings. The wake word cuts it and the command after it
    /// is heard with the music still down ("stop", "snooze"); rung out, it ends by itself.
    private func ring(_ text: String) throws -> Step {
        attend()
        for cycle in 0..<Self.ringCycles {
            var rung: Spoken = .finished
            if cycle % Self.ringSpeechEvery == 0 { rung = try say(text) }
            if case .finished = rung { rung = try chime() }
            switch rung {
            case .finished: continue
            case .bargedIn(let wake): return .listening(after: wake)
            case .stopped: return .waiting
            }
        }
        release()
        return .waiting
    }

    /// Rings of an alarm before it stops by itself: about 40 s.
    static let ringCycles = 24
    /// The alarm's words are said before the first ring and then every this many rings.
    static let ringSpeechEvery = 6
    /// One ring: four short beeps, then a pause.
    static let ringTone: [Int16] = {
        let rate = SamplePosition.format.sampleRate
        var samples: [Int16] = []
        for _ in 0..<4 {
            let count = rate * 140 / 1000
            for index in 0..<count {
                let fade = min(1, Double(min(index, count - index)) / 160)
                samples.append(Int16(sin(2 * .pi * 988 * Double(index) / Double(rate)) * 12_000 * fade))
            }
            samples += [Int16](repeating: 0, count: rate * 90 / 1000)
        }
        return samples + [Int16](repeating: 0, count: rate * 700 / 1000)
    }()

    /// Plays one ring of the alarm tone, listening for the wake word meanwhile.
    private func chime() throws -> Spoken {
        let before = status.phase
        status.enter(.speaking)
        defer {
            status.enter(before)
            interactionAudioEnd = history.end
        }
        let step = SamplePosition.format.frames(milliseconds: 100)
        var start = 0
        do {
            while start < Self.ringTone.count {
                guard !status.isStopRequested else {
                    stages.sink.interrupt()
                    return .stopped
                }
                let chunk = Array(Self.ringTone[start..<min(start + step, Self.ringTone.count)])
                start += step
                if let wake = try playListening(AudioChunk(format: SamplePosition.format, samples: chunk), saying: "") {
                    stages.sink.interrupt()
                    return .bargedIn(wake)
                }
            }
            try stages.sink.drain()
        } catch let error as any SusiError {
            stages.sink.interrupt()
            report(error)
        }
        return .finished
    }

    /// Hears the command after the wake word: the query to think about, or the end of the
    /// interaction when nothing (or nothing understandable) was said.
    private func listen(after wake: WakeHeard) throws -> Step {
        emit(.wake(phrase: wake.phrase), audioMs: wake.end.milliseconds)
        attend()
        status.enter(.listening)
        emit(.listening)
        let command: HeardCommand
        var text: String
        do {
            // The command may have begun in the chunk that ended the wake word.
            // The second before it (the wake word) lets the recogniser adapt to the room first:
            // fewer command word errors in noise (bench/RESULTS.md).
            var ended = try listener.begin(
                at: wake.end, after: history.samples(from: wake.end.advanced(byMilliseconds: -1000), to: wake.end),
                with: history.samples(from: wake.end), noiseFloorDB: wakeGate.noiseFloorDB)
            while !ended, !status.isStopRequested, let chunk = try read(waitingFor: Self.commandReadMs) {
                ended = try listener.hear(chunk)
            }
            command = try listener.finish()
            if status.isStopRequested { return .finishing }
            text = command.text
            // A reading no skill is sure of that may be the home's: its commands alone hear it
            // again, before Whisper (bench/PERFORMANCE.md, "Home Assistant commands").
            let home = command.isSure ? nil : environment.voice.homeCommand(insteadOf: text)
            let hearing = environment.voice.wholeHearing
            let whole = hearing.flatMap { home != nil && !$0.checksName ? nil : hearWhole(command, after: wake, with: $0) }
            if case .withoutName(let heard) = whole {
                // A false wake (in conversation): nothing is said, the music comes back up.
                report(PipelineError(stage: .wake, code: "wake-name-not-heard", message: "heard \"\(heard)\""))
                return .finishing
            }
            if let home {
                logger.debug("no skill is sure of \"\(text)\"; the home's commands heard \"\(home)\"")
                text = home
            } else if case .command(let heard) = whole, !heard.isEmpty, !command.isSure || hearing?.replacesSure == true {
                logger.debug("\(command.isSure ? "sure" : "unsure") \"\(text)\"; heard whole as \"\(heard)\"")
                text = heard
            } else if !command.isSure, let again = try environment.voice.transcribeAgain() {
                logger.debug("no skill is sure of \"\(text)\"; second pass heard \"\(again)\"")
                if !again.isEmpty { text = again }
            }
        } catch let error as any SusiError {
            report(error)
            return apologise("Sorry, I could not understand that.")
        }
        guard let speechEnd = command.speechEnd else {
            report(PipelineError.noSpeech)
            earcon()
            return .finishing
        }
        emit(.speechEnd, audioMs: speechEnd.milliseconds)
        emit(.transcript(text: text))
        guard !text.isEmpty else {
            report(PipelineError.nothingRecognised)
            return apologise("Sorry, I did not catch that.")
        }
        return .thinking(query: text)
    }

    /// What hearing a command whole found.
    private enum WholeReading {
        /// The command's words, without the name (empty when nothing followed it).
        case command(String)
        /// The name was checked for and not heard: what was heard instead.
        case withoutName(String)
    }

    /// The command heard whole by `hearing`'s transcriber (Whisper): from the end of the wake
    /// word (or `nameLeadMs` before it, when it checks the name) to a little after its speech,
    /// without the wake word; nil when nothing calls for it (a sure reading that it would not
    /// replace, with no name to check), no speech ended, or it failed (reported: the streaming
    /// recogniser's reading is used then, and the wake is kept).
    private func hearWhole(_ command: HeardCommand, after wake: WakeHeard, with hearing: WholeHearing) -> WholeReading? {
        guard let end = command.speechEnd, hearing.checksName || hearing.replacesSure || !command.isSure else { return nil }
        let start = hearing.checksName ? wake.end.advanced(byMilliseconds: -Self.nameLeadMs) : wake.end
        let audio = history.samples(from: start, to: end.advanced(byMilliseconds: Self.wholeCommandTailMs))
        do {
            let heard = try hearing.transcriber.transcribe(audio)
            // Nothing heard at all is no evidence against the wake (a noisy room).
            guard hearing.checksName, !heard.trimmingCharacters(in: .whitespaces).isEmpty else {
                return .command(WakeNames.withoutName(heard, phrase: wake.phrase))
            }
            guard let rest = WakeNames.after(wake.phrase, in: heard, startingWithin: Self.nameWithinWords) else {
                return .withoutName(heard)
            }
            return .command(rest)
        } catch let error as any SusiError {
            report(error)
        } catch {
            report(PipelineError(stage: .stt, code: "stt-decode-failed", message: "\(error)"))
        }
        return nil
    }

    /// Audio before the wake word's end heard with the command when the name is checked: the
    /// name, and the end of what came before it.
    static let nameLeadMs = 1000
    /// The name checked for must start within the first this many words heard (a word before
    /// it may be partly heard).
    static let nameWithinWords = 3

    /// Audio after the end of speech handed to the whole-command transcriber: the endpointer
    /// decides the end on the voice's energy, and a soft last sound may follow it.
    static let wholeCommandTailMs = 250

    /// Asks the brain; a failure is reported and apologised for.
    private func think(about query: String) -> Step {
        status.enter(.thinking)
        do {
            let response = try stages.brain.answer(query)
            emit(.answer(query: query, actionsJSON: Self.actionsJSON(response.actions), skill: response.skill))
            return .acting(response)
        } catch let error as any SusiError {
            report(error)
        } catch {
            report(PipelineError(stage: .brain, code: "brain-failed", message: "\(error)"))
        }
        return apologise("Sorry, I cannot answer that right now.")
    }

    /// Performs the answer's actions in the order given; a barge-in cuts the rest.
    private func act(on response: ChatResponse) throws -> Step {
        let actions = response.actions
        let data = response.firstAnswer?.data ?? []
        // Planned answers count from when the answer came, not from when the words before
        // them have been spoken.
        for case .answer(let answer) in actions where answer.isPlanned {
            if let failure = environment.actions.perform(.answer(answer), from: response.origin).failure { report(failure) }
        }
        // What performing said ("Sorry, I am not allowed to change that."), once per answer
        // however many of its actions it was said for.
        var outcomesSaid: Set<String> = []
        for action in actions {
            var words: String?
            var language: String?
            if case .answer(let answer) = action {
                guard !answer.isPlanned, let text = SpokenText.answer(answer.expression) else { continue }
                words = text
                language = answer.language
            }
            if let event = action.event { emit(event) }
            if words == nil {
                let outcome = environment.actions.perform(action, from: response.origin)
                if let failure = outcome.failure { report(failure) }
                if let say = outcome.say, !outcomesSaid.insert(say).inserted { continue }
                words = outcome.say ?? SpokenText.brief(action, data: data)
            }
            guard let words else { continue }
            switch try say(words, language: language) {
            case .finished: continue
            case .bargedIn(let wake): return .listening(after: wake)
            case .stopped: return .finishing
            }
        }
        return .settling(until: .now + .milliseconds(Self.outcomeWaitMs))
    }

    /// Says what the actions still owe once the environment has it ("Sorry, I could not
    /// play that."), so it belongs to the interaction and comes before `idle`; meanwhile the
    /// input is read and the wake word heard. Past `deadline` the interaction ends without it.
    private func settle(until deadline: ContinuousClock.Instant) throws -> Step {
        if let owed = environment.actions.outcomeWords() {
            for text in owed {
                switch try say(text) {
                case .finished: continue
                case .bargedIn(let wake): return .listening(after: wake)
                case .stopped: return .finishing
                }
            }
            return .finishing
        }
        guard ContinuousClock.now < deadline else { return .finishing }
        guard let chunk = try read(waitingFor: Self.commandReadMs) else {
            // The input has ended; the outcome is still worth its wait.
            Thread.sleep(forTimeInterval: Double(Self.commandReadMs) / 1000)
            return .settling(until: deadline)
        }
        if listensForWakeWord, let wake = try hearWake(in: chunk) { return .listening(after: wake) }
        return .settling(until: deadline)
    }

    /// Speaks `text`, listening for the wake word meanwhile; in a voice of `language` when the
    /// answer was tagged with one the configured voice does not speak.
    private func say(_ text: String, language: String? = nil) throws -> Spoken {
        let voice = language.map { environment.voice.voice(forAnswerIn: $0) } ?? environment.voice.voice
        let before = status.phase
        status.enter(.speaking)
        defer {
            status.enter(before)
            interactionAudioEnd = history.end
        }
        emit(.speakStart(text: text))
        var interruption: WakeHeard?
        var stopped = false
        var failure: (any Error)?
        do {
            _ = try stages.synthesizer.synthesize(text, voice: voice) { chunk in
                guard !status.isStopRequested else {
                    stopped = true
                    return false
                }
                do {
                    interruption = try playListening(chunk, saying: text)
                } catch {
                    failure = error
                }
                return interruption == nil && failure == nil
            }
            if let failure { throw failure }
            if interruption == nil, !stopped { try stages.sink.drain() } else { stages.sink.interrupt() }
        } catch let error as any SusiError {
            stages.sink.interrupt()
            report(error)
            emit(.speakEnd)
            return .finished
        }
        emit(.speakEnd)
        if let interruption { return .bargedIn(interruption) }
        return stopped ? .stopped : .finished
    }

    /// Plays `chunk`, then catches up with what the microphone heard meanwhile, bounded so
    /// that a source delivering faster than real time cannot stall the sound: the wake word
    /// heard in it, if any. The speaker must not wake itself: its own name in `text` (what it
    /// is saying) is no barge-in.
    private func playListening(_ chunk: AudioChunk, saying text: String) throws -> WakeHeard? {
        try stages.sink.play(chunk)
        var budget = Self.catchUpChunks
        while budget > 0, let heard = try read(waitingFor: nil) {
            budget -= 1
            if let detection = try wakeGate.hear(heard, in: history),
                !text.lowercased().contains(detection.phrase.lowercased())
            {
                return detection
            }
        }
        return nil
    }

    /// Says `text` (errors are not worth another apology); the interaction ends with it
    /// unless the person barges in.
    private func apologise(_ text: String) -> Step {
        if case .bargedIn(let wake) = (try? say(text)) ?? .finished { return .listening(after: wake) }
        return .finishing
    }

    /// A short rising two-tone beep: "I heard you, but nothing followed".
    private func earcon() {
        let rate = SamplePosition.format.sampleRate
        var samples: [Int16] = []
        for (frequency, ms) in [(660.0, 90), (880.0, 110)] {
            let count = rate * ms / 1000
            for index in 0..<count {
                let fade = min(1, Double(min(index, count - index)) / 160)
                samples.append(Int16(sin(2 * .pi * frequency * Double(index) / Double(rate)) * 8000 * fade))
            }
        }
        try? stages.sink.play(AudioChunk(format: SamplePosition.format, samples: samples))
        try? stages.sink.drain()
    }

    static func actionsJSON(_ actions: [ChatAction]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(actions) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
