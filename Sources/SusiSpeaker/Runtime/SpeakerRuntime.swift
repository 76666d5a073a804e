import Foundation
import SusiAudio
import SusiBrain
import SusiCore
import SusiModel
import SusiNet
import SusiPipeline
import SusiPlayer
import SusiServer
import SusiSpeech
import Synchronization

/// The speaker: the voice pipeline wired to the brain, the player, the config and (with the
/// microphone) the setup/control server for the SUSI apps. `susi run` parses its arguments
/// into `Options` and calls `run()`.
///
/// Everything the speaker keeps is saved as it changes, so `shutdown()` only stops what runs.
public final class SpeakerRuntime {
    /// How `susi run` was asked to run.
    public struct Options: Sendable {
        /// A WAV file to listen to instead of the microphone.
        public var input: String?
        /// A WAV file to speak into instead of the sound device.
        public var output: String?
        /// Pace `input` at real time, as a microphone would.
        public var realtime = false
        /// Host the setup/control server beside the pipeline (microphone runs only).
        public var server = true

        /// Options for a run from the microphone to the sound device, with the server.
        public init(input: String? = nil, output: String? = nil, realtime: Bool = false, server: Bool = true) {
            self.input = input
            self.output = output
            self.realtime = realtime
            self.server = server
        }
    }

    private let options: Options
    private let store: ConfigStore
    private let environment: [String: String]
    private let logger: Logger
    private let events: FanOutEventSink
    private let memory: ConversationMemory
    /// The web page's view of the speaker: live events, history, wake figures, examples.
    private let dashboard: SpeakerDashboard
    /// Where the pipeline is (phase, input position) and whether it was asked to stop: for
    /// events raised outside it, for `/status` and for SIGTERM. Outlives each pipeline.
    private let status = PipelineStatus()
    private let report: @Sendable (any SusiError) -> Void
    /// The config, player, timers, lists and actions, shared with the setup server.
    private let parts: SpeakerServices
    private var live: LiveConfig { parts.live }
    private let brain: CurrentChatBrain
    private let observer: SpeakerConfigObserver
    private let models: String
    /// Whisper, loaded once for the run: a pipeline made anew after a sound device came back
    /// keeps it.
    private let whisper: WhisperSlot
    private let fileSource: WAVFileSource?
    private let file: WAVFileSink?
    private let sink: any AudioSink
    private let services = Services()

    /// Whether the run reads a file (and ends) rather than the microphone (and runs until
    /// stopped).
    public var readsFile: Bool { fileSource != nil }

    /// Wires the speaker; opens the input file, output file or sound device.
    ///
    /// - Parameters:
    ///   - sinks: where events go besides the speaker's own memory (JSON Lines, the
    ///     conversation printer).
    /// - Throws: `AudioError` for an unreadable input or unusable output (reported as an
    ///   `error` event first), `ConfigError`, `SetupFailure` for missing models.
    public init(
        options: Options, store: ConfigStore, environment: [String: String], logger: Logger, sinks: [any EventSink]
    ) throws {
        self.options = options
        self.store = store
        self.environment = environment
        self.logger = logger
        let memory = ConversationMemory(ignoredSkills: [ActionDispatcher.feedbackSkill])
        self.memory = memory
        // The history asks the live config about privacy mode; the live config reports through
        // the events, so it is made after them and handed over here.
        let liveForPrivacy = Mutex<LiveConfig?>(nil)
        let history = InteractionLog(path: store.state.history) {
            liveForPrivacy.withLock { $0?.current.privacy.mode } ?? false
        }
        let broadcaster = EventBroadcaster()
        let hearing = HearingCounters()
        let events = FanOutEventSink(sinks + [memory, history, hearing, broadcaster])
        self.events = events
        let status = self.status
        let report = Self.reporter(logger: logger, events: events, status: status)
        self.report = report

        models = try Assembly.modelsDirectory(environment: environment)
        whisper = WhisperSlot(directory: models + "/whisper", logger: logger.child("hearing"))
        // Timers follow the audio when a file is read faster than real time.
        let started = Date()
        let followsAudio = options.input != nil && !options.realtime
        let parts = try SpeakerServices(
            store: store, logger: logger, report: report,
            clock: { followsAudio ? started.addingTimeInterval(Double(status.audioMs) / 1000) : Date() },
            homeCache: Assembly.cacheDirectory(environment: environment),
            lastSkill: { memory.lastSkill })
        self.parts = parts
        let live = parts.live
        liveForPrivacy.withLock { $0 = live }
        let config = live.current
        let player = parts.player
        services.player = player
        // Asked once now, so a Home Assistant's names are fetched (in the background) before the
        // first command rather than at it.
        let home = parts.home
        _ = home?.names
        let builtBrain = try Assembly.brain(environment: environment, logger: logger)
        let examples = SpeakerDashboards.examples(of: builtBrain)
        var page = SpeakerDashboard(
            events: broadcaster, history: history, hearing: hearing, pipeline: status, timers: parts.planned,
            examples: { examples }, locate: LocationSetting.locator(store: store, environment: environment))
        page.wakeEngine = WakePhraseCheck.pageLine(store: store, environment: environment)
        page.lists = parts.lists
        dashboard = page
        let localBrain = LocalChatBrain(brain: builtBrain) {
            let volume = player.current?.volume ?? live.current.player.volume
            return Assembly.brainContext(
                live.current, volume: volume, lastAnswer: memory.lastAnswer, lastSkill: memory.lastSkill, home: home?.names)
        }
        let languageNotice = LanguageNotice()
        @Sendable func makeBrain(_ config: Config) -> any ChatBrain & Sendable {
            // Made at start and after every brain.* change: the one place a new language shows.
            if let note = languageNotice.note(for: config) { logger.warning(note) }
            return Assembly.chatBrain(
                config: config, local: localBrain, store: store, logger: logger, backoff: ChatBackoff(), onFallback: report)
        }
        let brain = CurrentChatBrain(makeBrain(config))
        self.brain = brain
        observer = SpeakerConfigObserver(
            live: live, brain: brain, makeBrain: makeBrain, player: player, logger: logger.child("config"))

        // The input first: an unreadable file is reported before any device is opened.
        do {
            fileSource = try options.input.map { path throws(AudioError) in
                try WAVFileSource(path: path, realtime: options.realtime)
            }
            (sink, file) = try Assembly.speechSink(
                path: options.output, realtime: options.realtime, device: config.audio.output, logger: logger)
        } catch {
            report(error)
            player.shutdown()
            throw error
        }
    }

    deinit {
        services.stop()
    }

    /// Runs the speaker: to the end of the input file, or from the microphone until `stop()`
    /// (a missing or vanished device is reported and retried, never fatal). Then the server,
    /// the login retry and the player are stopped.
    public func run() throws {
        defer { services.stop() }
        if let fileSource {
            try makePipeline(fileSource).run()
            try file?.close()
            return
        }
        if options.server { startServer() }
        let config = live.current
        startMultiroom(config)
        if config.stt.openQuestions, config.brain.mode != "local" {
            // SUSI.AI's skill examples for the recogniser's next start; never in a command's way.
            SkillExampleFetcher(
                server: config.brain.server, language: config.brain.language,
                http: CurlHTTPClient(stage: .brain, logger: logger.child("http")), logger: logger.child("stt")
            ).refreshInBackground(cacheDirectory: Assembly.cacheDirectory(environment: environment))
        }
        try listenForever()
    }

    /// Snapcast's programs when `player.multiroom` is on; a failure is reported and the
    /// speaker plays on its own.
    private func startMultiroom(_ config: Config) {
        let multiroom = Multiroom(config: config, pipe: store.state.multiroomPipe)
        guard multiroom.role != .off else { return }
        let processes = MultiroomProcesses(multiroom, logger: logger.child("multiroom"))
        do {
            try processes.start()
            services.started(processes)
        } catch {
            report(error)
        }
    }

    /// Ends `run()` soon: the sentence being said is cut, the interaction ends with `idle`,
    /// and `run()` returns within a chunk of audio. Safe from any thread.
    public func stop() {
        status.requestStop()
    }

    /// `stop()` as a closure for another thread, e.g. a signal handler's.
    public var stopHandler: @Sendable () -> Void {
        { [status] in status.requestStop() }
    }

    /// Stops the server, the login retry and the player (`run()` does so when it returns).
    public func shutdown() {
        services.stop()
    }

    /// `shutdown()` as a closure for another thread: for a process that must end before
    /// `run()` returns (a stage that cannot be cut, such as a brain request in flight).
    public var shutdownHandler: @Sendable () -> Void {
        { [services] in services.stop() }
    }

    // MARK: Wiring

    /// The one place the voice pipeline is built: its stages, events, voice, actions and
    /// what it says unasked (timers, announcements). The config observer is updated in the
    /// pipeline's reconfiguring step (`SpeakerEnvironment.reconfigure`), so config changes
    /// take effect on the next interaction.
    private func makePipeline(_ source: any AudioSource) throws -> VoicePipeline {
        let config = observer.update()
        let calibrations = WakePhraseCheck.directory(store: store)
        let ears = try Assembly.ears(
            config, models: models, environment: environment, calibrations: calibrations, logger: logger.child("hearing"))
        let stages = VoicePipeline.Stages(
            source: source, wake: ears.wake, recognizer: ears.recognizer, brain: brain, synthesizer: try ESpeakEngine.shared(),
            sink: sink)
        let models = self.models
        let hearing = logger.child("hearing")
        // Loaded now (once), not when the first command ends.
        _ = whisper.transcriber(for: config)
        let environment = SpeakerEnvironment(
            live: live, observer: observer, dispatcher: parts.dispatcher, player: parts.player, planned: parts.planned,
            announcements: parts.announcements, recognizer: ears.recognizer, homeNames: { [home = parts.home] in home?.names },
            whisper: whisper,
            makeWakeDetector: { [recognizer = ears.recognizer] config throws(SpeechError) in
                try Assembly.wakeDetector(config, models: models, calibrations: calibrations, host: recognizer, logger: hearing)
            },
            report: report)
        return VoicePipeline(
            stages: stages, environment: PipelineEnvironment(environment), events: events,
            endpointing: EndpointerSettings(config.stt),
            logger: logger, clock: ProcessClock.milliseconds, status: status, resampler: SpeexResampler.make)
    }

    /// Logs a failure and emits it as an `error` event at the pipeline's position.
    private static func reporter(logger: Logger, events: any EventSink, status: PipelineStatus)
        -> @Sendable (any SusiError) -> Void
    {
        { error in
            logger.warning("\(error.code): \(error.message)")
            events.emit(.error(error, wallMs: ProcessClock.milliseconds(), audioMs: status.audioMs))
        }
    }

    /// The setup/control server for the SUSI apps beside the pipeline, sharing its player; a
    /// server that cannot start is reported and the speaker carries on without it.
    private func startServer() {
        let logger = self.logger.child("setup")
        // One mpv, and one sound device: `/say` is spoken by the pipeline.
        let announcements = parts.announcements
        let control = parts.control(speaker: { announcements.add($0) }, pipeline: status)
        let setup = SetupServer(
            store: store, live: live, control: control,
            hotspot: .forSpeaker(store: store, logger: logger.child("hotspot")), logger: logger, dashboard: dashboard)
        do {
            try setup.start()
            logger.info("setup/control server on port \(setup.server.port.map(String.init) ?? "?")")
            services.started(setup)
        } catch {
            report(error)
        }
    }

    /// The microphone loop: each kind of device trouble is reported once, then retried.
    private func listenForever() throws {
        let session = try PortAudioSession(logger: logger.child("audio"))
        var lastCode: String?
        while !status.isStopRequested {
            do {
                let source = try MicrophoneSource(
                    session: session, device: live.current.audio.input, logger: logger.child("audio"))
                lastCode = nil
                try makePipeline(source).run()
            } catch let error as AudioError {
                if lastCode != error.code { report(error) }
                lastCode = error.code
                // Two seconds before the next try, in steps short enough to stop promptly.
                for _ in 0..<20 where !status.isStopRequested { Thread.sleep(forTimeInterval: 0.1) }
            }
        }
    }
}

/// What runs beside the pipeline and must be stopped from another thread on SIGTERM.
private final class Services: Sendable {
    private struct Running {
        var setup: SetupServer?
        var player: SpeakerPlayer?
        var multiroom: MultiroomProcesses?
    }

    private let running = Mutex(Running())

    var player: SpeakerPlayer? {
        get { running.withLock { $0.player } }
        set { running.withLock { $0.player = newValue } }
    }

    func started(_ setup: SetupServer) {
        running.withLock { $0.setup = setup }
    }

    func started(_ multiroom: MultiroomProcesses) {
        running.withLock { $0.multiroom = multiroom }
    }

    /// Stops everything once; later calls do nothing.
    func stop() {
        let stopping = running.withLock { state in
            defer { state = Running() }
            return state
        }
        stopping.setup?.stop()
        stopping.player?.shutdown()
        stopping.multiroom?.stop()
    }
}

/// Milliseconds since the process started, for `wall_ms`.
public enum ProcessClock {
    private static let start = ContinuousClock.now

    /// Milliseconds since `begin()` (or the first call).
    public static func milliseconds() -> Int {
        Int((ContinuousClock.now - start).milliseconds)
    }

    /// Starts the clock; call first thing in `main`.
    public static func begin() { _ = start }
}
