import Foundation
import SusiAudio
import SusiCore
import SusiModel
import SusiNet
import SusiPlayer
import SusiServer
import SusiSpeech
import Synchronization

/// The control routes' `SpeakerControl`: media through the speaker's `ActionDispatcher`, and
/// `/say` either handed to the voice pipeline (the daemon, which owns the sound device) or
/// spoken here with eSpeak NG on `audio.output` (`susi setup serve`).
///
/// The player starts on the first `play`; controls before that do nothing, as `MediaPlayer`
/// promises. Sentences are spoken one at a time by a single worker thread, started by the first
/// `say`, which alone opens and uses the sound device; `say` returns once its sentence has
/// started, and a new `say` or `stop` cuts the sentence being spoken. Failures (no mpv, no sound
/// device, a bad voice) are thrown to the route, which answers them as JSON errors. Call
/// `shutdown()` when done: the worker keeps the control alive until then.
public final class StandaloneSpeakerControl: SpeakerControl, Sendable {
    private let config: @Sendable () -> Config
    private let dispatcher: ActionDispatcher
    private let player: SpeakerPlayer
    private let volumeFile: PlayerStateFile
    private let logger: Logger
    private let speaker: (@Sendable (String) -> Void)?
    /// The daemon's pipeline, whose phase `/status` reports; nil without one.
    private let pipeline: PipelineStatus?
    private let state = Mutex(State())
    /// Signalled once per queued sentence and on shutdown, waking the worker.
    private let work = DispatchSemaphore(value: 0)
    /// Signalled by the worker when it has ended.
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var media: String?
        var lastInteraction: Date?
        /// Incremented to cut the sentence being spoken; a sentence speaks while it is current.
        var utterance = 0
        var isSpeaking = false
        var isShutDown = false
        var workerStarted = false
        var sentences: [Sentence] = []
    }

    /// One `/say`, with the answer to "did the sound device open?" for the route.
    private struct Sentence: Sendable {
        let text: String
        let voice: VoiceSettings
        let device: String
        let duckVolume: Int
        let number: Int
        let opened: Reply
    }

    /// Carries the worker's answer back to the waiting `say`.
    private final class Reply: Sendable {
        private let error = Mutex<(any Error & Sendable)?>(nil)
        private let done = DispatchSemaphore(value: 0)

        func send(_ failure: (any Error & Sendable)?) {
            error.withLock { $0 = failure }
            done.signal()
        }

        /// Throws what the worker sent; gives up waiting after `timeout` seconds.
        func wait(timeout: Double) throws {
            guard done.wait(timeout: .now() + timeout) == .success else { return }
            if let failure = error.withLock({ $0 }) { throw failure }
        }
    }

    /// A control reading the config through `config` (e.g. `LiveConfig.current`).
    ///
    /// - Parameters:
    ///   - configPath: the config file; the player's volume file lives beside it.
    ///   - dispatcher: performs the media commands, on `player`.
    ///   - player: the speaker's player, shared with the dispatcher; read for `/status`.
    ///   - speaker: speaks `/say` texts instead of opening the sound device here; the daemon
    ///     hands them to its pipeline, which owns the device.
    ///   - pipeline: the daemon's pipeline status: `/status` says what it is doing
    ///     (listening, thinking, speaking).
    public init(
        configPath: String, config: @escaping @Sendable () -> Config, dispatcher: ActionDispatcher, player: SpeakerPlayer,
        logger: Logger, speaker: (@Sendable (String) -> Void)? = nil, pipeline: PipelineStatus? = nil
    ) {
        self.pipeline = pipeline
        self.config = config
        self.dispatcher = dispatcher
        self.player = player
        self.logger = logger
        self.speaker = speaker
        volumeFile = PlayerStateFile(nextToConfig: configPath)
    }

    deinit {
        shutdown()
    }

    public func status() -> SpeakerStatus {
        let (speakingNow, media, last) = state.withLock { ($0.isSpeaking, $0.media, $0.lastInteraction) }
        let player = self.player.current
        let playback = player?.state.rawValue ?? PlayerState.idle.rawValue
        let volume = player?.volume ?? ((try? volumeFile.loadVolume()) ?? nil) ?? config().player.volume
        return SpeakerStatus(
            state: speakingNow ? PipelinePhase.speaking.rawValue : (pipeline?.phase ?? .idle).rawValue, playback: playback,
            media: playback == PlayerState.idle.rawValue ? nil : media, volume: volume, lastInteraction: last)
    }

    /// Performs `action` through the dispatcher as an answer from the server would be (no
    /// setting changes, no Home Assistant); `answer` speaks, `stop` also cuts speech, and a
    /// volume with nothing playing is remembered for the next start.
    public func perform(_ action: ChatAction) throws {
        switch action {
        case .answer(let answer):
            try say(answer.expression)
        case .audioPlay(let media), .videoPlay(let media):
            try dispatch(action)
            touch(media: media.identifier)
        case .audioVolume(let volume) where player.current == nil:
            try volumeFile.save(volume: volume.volume)
            touch()
        case .stop:
            state.withLock { $0.utterance += 1 }
            try dispatch(.stop)
        case .audioVolume, .pause, .resume, .restart, .next, .previous, .shuffle, .table, .piechart, .rss, .websearch,
            .anchor, .map, .timerSet, .imageShow, .settings, .timerList, .timerCancel, .planner, .homeAssistant,
            .skillFeedback, .unknown:
            try dispatch(action)
        }
    }

    /// Speaks `text` with the configured voice; returns once speaking has started.
    private func say(_ text: String) throws {
        touch()
        if let speaker { return speaker(text) }
        let settings = config()
        let voice = Assembly.voice(settings)
        // Checked here so a bad voice is the route's error, not a silent worker's.
        _ = try ESpeakEngine.shared().espeakVoiceName(for: voice)
        let opened = Reply()
        let startWorker = try state.withLock { state throws(PlayerError) -> Bool in
            guard !state.isShutDown else { throw PlayerError(.startFailed, "the speaker is shutting down") }
            state.utterance += 1
            state.sentences.append(
                Sentence(
                    text: text, voice: voice, device: settings.audio.output, duckVolume: settings.player.duckVolume,
                    number: state.utterance, opened: opened))
            defer { state.workerStarted = true }
            return !state.workerStarted
        }
        if startWorker {
            let thread = Thread { [self] in speakSentences() }
            thread.name = "susi-say"
            thread.start()
        }
        work.signal()
        // A missing sound device is the route's error too.
        try opened.wait(timeout: 5)
    }

    /// Cuts speech and stops the player process; later calls do nothing.
    public func shutdown() {
        let (workerRuns, waiting) = state.withLock { state in
            defer {
                state.isShutDown = true
                state.workerStarted = false
                state.utterance += 1
                state.sentences = []
            }
            return (state.workerStarted && !state.isShutDown, state.sentences)
        }
        for sentence in waiting { sentence.opened.send(nil) }
        player.shutdown()
        guard workerRuns else { return }
        work.signal()
        // Wait for a sentence being cut, so the sound device is quiet when this returns.
        _ = finished.wait(timeout: .now() + 1)
    }

    // MARK: The worker

    /// The worker: takes sentences in order until shutdown; owns the sound device.
    private func speakSentences() {
        var sink: SpeakerSink?
        defer { finished.signal() }
        while true {
            work.wait()
            let next = state.withLock { state -> Sentence?? in
                if state.isShutDown { return .none }
                return .some(state.sentences.isEmpty ? nil : state.sentences.removeFirst())
            }
            guard let taken = next else { return }
            guard let sentence = taken else { continue }
            do {
                let engine = try ESpeakEngine.shared()
                let output =
                    try sink
                    ?? SpeakerSink(
                        session: try PortAudioSession(logger: logger.child("audio")), device: sentence.device,
                        sampleRate: engine.format.sampleRate, logger: logger.child("audio"))
                sink = output
                sentence.opened.send(nil)
                speak(sentence, engine: engine, output: output)
            } catch {
                sentence.opened.send(error)
            }
        }
    }

    private func speak(_ sentence: Sentence, engine: ESpeakEngine, output: SpeakerSink) {
        guard isCurrent(sentence.number) else { return }
        state.withLock { $0.isSpeaking = true }
        let player = self.player.current
        player?.duck(to: sentence.duckVolume)
        defer {
            player?.unduck()
            state.withLock { $0.isSpeaking = false }
        }
        do {
            try SpeechOutput.speak(sentence.text, voice: sentence.voice, engine: engine, into: output) {
                isCurrent(sentence.number)
            }
        } catch {
            logger.warning("speaking failed: \(error)")
        }
    }

    // MARK: Helpers

    private func dispatch(_ action: ChatAction) throws {
        // As from the server: a setting or a Home Assistant command is refused.
        if let failure = dispatcher.perform(action, from: .server).failure { throw failure }
        touch()
    }

    private func isCurrent(_ number: Int) -> Bool {
        state.withLock { $0.utterance == number && !$0.isShutDown }
    }

    private func touch(media: String? = nil) {
        state.withLock {
            if let media { $0.media = media }
            $0.lastInteraction = Date()
        }
    }
}
