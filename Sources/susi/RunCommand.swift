import Foundation
import SusiAudio
import SusiBrain
import SusiCore
import SusiNet
import SusiPlayer
import SusiServer
import SusiSpeech

/// `susi run`: the assistant.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "the assistant: wake word, recognition, answer, speech"
    static let usage = """
          susi run [--input WAV] [--output WAV] [--events FILE|-] [--realtime] [--conversation] [--no-server]
            --input WAV       listen to a WAV file (any rate/channels) instead of the microphone;
                              exits when it is consumed and the last answer is done
            --output WAV      write what is said to a WAV file instead of the speaker
            --events FILE|-   JSON Lines events (ready, wake, listening, speech_end, transcript,
                              answer, speak_start, speak_end, play, player, error, idle)
            --realtime        pace --input at real time, as a microphone would
            --conversation    print heard / understood / answered lines for people
            --no-server       do not host the setup/control server for the SUSI apps
        With the microphone, the setup/control server runs on setup.port beside the assistant;
        SIGTERM or SIGINT stop both within a second.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let input = try arguments.option("--input")
        let output = try arguments.option("--output")
        let eventsPath = try arguments.option("--events")
        let realtime = arguments.flag("--realtime")
        let conversation = arguments.flag("--conversation")
        let noServer = arguments.flag("--no-server")
        try arguments.finish()
        if realtime, input == nil { throw UsageError("--realtime paces --input; the microphone is real time already") }

        let logger = context.logger
        var sinks: [any EventSink] = []
        if let eventsPath { sinks.append(JSONLinesEventSink(handle: try eventsHandle(eventsPath))) }
        let memory = ConversationMemory(ignoredSkills: [SpeakerActions.feedbackSkill])
        sinks.append(memory)
        if conversation {
            let toStdout = eventsPath != "-"
            sinks.append(ConversationPrinter { line in
                (toStdout ? FileHandle.standardOutput : FileHandle.standardError).write(Data((line + "\n").utf8))
            })
        }
        let events = FanOutEventSink(sinks)
        let clock = ProcessClock.milliseconds
        let position = PositionBox()
        @Sendable func report(_ error: any SusiError) {
            logger.warning("\(error.code): \(error.message)")
            events.emit(.error(error, wallMs: clock(), audioMs: position.audioMs))
        }

        let live = try LiveConfig(store: context.store) { error in report(error) }
        let config = live.current
        let models = try Assembly.modelsDirectory(environment: context.environment)
        // Timers follow the audio when a file is read faster than real time.
        let started = Date()
        let followsAudio = input != nil && !realtime
        let actions = SpeakerActions(
            live: live, configPath: context.store.path, logger: logger.child("actions"), report: report,
            lastSkill: { memory.lastSkill }
        ) {
            followsAudio ? started.addingTimeInterval(Double(position.audioMs) / 1000) : Date()
        }
        defer { actions.shutdown() }
        let localBrain = LocalChatBrain(brain: try Assembly.brain(context)) {
            Assembly.brainContext(live.current, volume: actions.volume, lastAnswer: memory.lastAnswer, lastSkill: memory.lastSkill)
        }
        let brain = ChatBrainFactory.make(
            config: config, http: CurlHTTPClient(logger: logger.child("http")), local: localBrain,
            account: AccountStore(configStore: context.store), logger: logger.child("brain"),
            onFallback: { error in report(error) })

        // The input first: an unreadable file is reported before any device is opened.
        let fileSource: WAVFileSource?
        let file: WAVFileSink?
        let sink: any AudioSink
        do {
            fileSource = try input.map { path throws(AudioError) in try WAVFileSource(path: path, realtime: realtime) }
            file = try output.map { path throws(AudioError) in try WAVFileSink(path: path, realtime: realtime) }
            if let file {
                sink = file
            } else {
                sink = try SpeakerSink(
                    session: try PortAudioSession(logger: logger.child("audio")), device: config.audio.output,
                    logger: logger.child("audio"))
            }
        } catch {
            report(error)
            throw error
        }
        let makePipeline = { (source: any AudioSource) throws -> VoicePipeline in
            let ears = try Assembly.ears(config, models: models, environment: context.environment, logger: logger.child("hearing"))
            let stages = VoicePipeline.Stages(
                source: source, wake: ears.wake, recognizer: ears.recognizer, brain: brain, synthesizer: try ESpeakEngine.shared(),
                sink: sink)
            let pipeline = VoicePipeline(
                stages: stages, events: events, endpointing: EndpointerSettings(config.stt), logger: logger, clock: clock,
                voice: { Assembly.voice(live.current) }, perform: actions.perform)
            pipeline.onAttention = actions.duck
            if config.stt.openQuestions {
                let open = OpenQuestionRecognizer(models: models, logger: logger.child("stt"))
                pipeline.secondPass = open.transcribe
            }
            pipeline.dueAnswers = {
                do throws(ConfigError) {
                    return try actions.planned.takeDue() + actions.takeAnnouncements()
                } catch {
                    report(error)
                    return []
                }
            }
            position.pipeline = pipeline
            return pipeline
        }

        if let fileSource {
            try makePipeline(fileSource).run()
            try file?.close()
            return
        }
        let server = noServer ? nil : startServer(context, live: live, actions: actions, report: report)
        let watch = TerminationWatch {
            // Everything the speaker keeps is saved as it changes; stop what runs and go.
            logger.info("stopping")
            server?.stop()
            actions.shutdown()
            logger.info("stopped")
            // Nothing is left to flush (events and files are written as they happen); skip the
            // C libraries' exit handlers, which can take a second with a stream open.
            _exit(0)
        }
        defer { withExtendedLifetime(watch) {} }
        try listenForever(config: live, make: makePipeline, report: report, logger: logger)
    }

    /// The setup/control server for the SUSI apps beside the pipeline, sharing its player; a
    /// server that cannot start is reported and the speaker carries on without it.
    private static func startServer(
        _ context: CommandContext, live: LiveConfig, actions: SpeakerActions, report: @escaping @Sendable (any SusiError) -> Void
    ) -> HTTPServer? {
        let store = context.store
        let logger = context.logger.child("setup")
        // One mpv, and one sound device: `/say` is spoken by the pipeline.
        let control = StandaloneSpeakerControl(
            configPath: store.path, config: { live.current }, logger: logger.child("control"),
            player: { actions.mediaPlayer() }, speaker: { actions.announce($0) })
        let account = SetupAccountLink(store: store, logger: logger.child("account"))
        let service = SetupService(
            store: store, control: control, account: account,
            voices: { SetupCommand.installedVoices(store: store) }, version: SetupCommand.version, logger: logger)
        let server = service.makeServer(port: nil, host: nil)
        do {
            try server.start()
            logger.info("setup/control server on port \(server.port.map(String.init) ?? "?")")
            // A login the apps sent while the speaker was offline is retried in the background.
            PendingLoginRetry(account: account).start()
            return server
        } catch {
            report(error)
            return nil
        }
    }

    /// The microphone loop: a missing or vanished device is reported and retried, never fatal.
    private static func listenForever(
        config: LiveConfig, make: (any AudioSource) throws -> VoicePipeline, report: (any SusiError) -> Void,
        logger: Logger
    ) throws {
        let session = try PortAudioSession(logger: logger.child("audio"))
        var lastCode: String?
        while true {
            do {
                let source = try MicrophoneSource(session: session, device: config.current.audio.input, logger: logger.child("audio"))
                lastCode = nil
                try make(source).run()
            } catch let error as AudioError {
                // Report each kind of device trouble once, not every retry.
                if lastCode != error.code { report(error) }
                lastCode = error.code
                Thread.sleep(forTimeInterval: 2)
            }
        }
    }

    private static func eventsHandle(_ path: String) throws -> FileHandle {
        if path == "-" { return .standardOutput }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw AudioError(.unwritable, "cannot write events to \(path)")
        }
        return handle
    }
}

/// Milliseconds since the process started, for `wall_ms`.
enum ProcessClock {
    private static let start = ContinuousClock.now

    static func milliseconds() -> Int {
        Int((ContinuousClock.now - start).milliseconds)
    }

    /// Starts the clock; call first thing in `main`.
    static func begin() { _ = start }
}

/// Where the running pipeline is in its input, for events raised outside it.
final class PositionBox: @unchecked Sendable {
    // @unchecked: `current` is only touched while holding `lock`; the pipeline's own
    // `audioMs` is safe to read from any thread.
    private let lock = NSLock()
    private weak var current: VoicePipeline?

    var pipeline: VoicePipeline? {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    var audioMs: Int { pipeline?.audioMs ?? 0 }
}
