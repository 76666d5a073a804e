import Foundation
import SusiAudio
import SusiCore
import SusiModel
import SusiPipeline
import SusiSpeech
import Synchronization

/// The speaker as a Home Assistant voice satellite over the Wyoming protocol
/// (`susi satellite serve`): Home Assistant's Assist hears through this speaker's microphone
/// and wake word and answers through its loudspeaker.
///
/// Any connection may ask `describe` (answered with `SatelliteInfo`) and `ping`. The connection
/// that sends `run-satellite` is Home Assistant, and only its other events count: the newest
/// such connection takes over, since a restarted Home Assistant leaves its old one dead. While it
/// runs the satellite (from `run-satellite` until `pause-satellite` or it goes away) the
/// microphone is open and `SatelliteListener` wakes on the name and streams the command to it.
/// Answer audio it sends (`audio-start`, `audio-chunk`s, `audio-stop`) is played on
/// `audio.output` through PortAudio and answered with `played`; meanwhile the microphone's
/// audio is not listened to, so the speaker does not wake on its own voice.
///
/// One thread accepts connections, one reads each of them, one owns the microphone and the
/// wake word detector, one owns the loudspeaker. Malformed events close the connection that
/// sent them; memory is bounded by `WyomingDecoder.Limits`, `maxConnections` and
/// `maxQueuedSamples`.
public final class WyomingSatellite: Sendable {
    /// Where to listen.
    public struct Options: Sendable {
        /// An IP address of this host (`0.0.0.0` for all of them); `127.0.0.1` by default.
        public var host: String
        /// The TCP port; 0 picks a free one (`port` says which).
        public var port: UInt16

        /// Options for `host` and `port`.
        public init(host: String = WyomingSatellite.defaultHost, port: UInt16 = WyomingSatellite.defaultPort) {
            self.host = host
            self.port = port
        }
    }

    /// Wyoming satellites' usual port (wyoming-satellite's examples, Home Assistant's form).
    public static let defaultPort: UInt16 = 10700
    /// Only this host by default: Wyoming has no authentication, and whoever connects hears
    /// what is said after the wake word. `--host 0.0.0.0` opens it to the network.
    public static let defaultHost = "127.0.0.1"
    /// Connections held at once; more are closed as they arrive.
    static let maxConnections = 8
    /// Answer audio waiting for the loudspeaker, in samples (about three minutes of 22 kHz
    /// speech); chunks beyond it are dropped.
    static let maxQueuedSamples = 4 * 1024 * 1024

    private enum Playback: Sendable {
        case chunk(AudioChunk)
        /// The end of one answer; `played` goes to Home Assistant when `announce`.
        case stop(announce: Bool)
    }

    private struct Shared {
        var stopped = false
        var connections: [ObjectIdentifier: TCPSocket] = [:]
        /// The connection Home Assistant runs the satellite on.
        var controller: TCPSocket?
        /// Between `run-satellite` and `pause-satellite` (or the controller's end).
        var running = false
        /// Home Assistant ended the command being streamed (transcript, error, pause).
        var endStream = false
        var playback: [Playback] = []
        var queuedSamples = 0
        /// An answer is queued or playing: the microphone is not listened to.
        var playing = false
        /// A chunk of the current answer was dropped (warned once per answer).
        var dropped = false
        /// A chunk of the current answer was unplayable (warned once per answer).
        var unplayable = false
        /// When Home Assistant last sent answer audio: an answer it never ends (no
        /// `audio-stop`) stops keeping the microphone deaf after `answerSilenceSeconds`.
        var lastAnswerAudio = ContinuousClock.now
    }

    /// How long an answer may go without audio or its `audio-stop` before it counts as ended.
    static let answerSilenceSeconds = 5

    private let options: Options
    private let config: Config
    private let models: String
    private let calibrations: String
    private let logger: Logger
    private let socket: TCPSocket
    private let shared = Mutex(Shared())
    private let threads = DispatchGroup()
    private let playbackWake = DispatchSemaphore(value: 0)
    /// `info`, set once the loudspeaker's fate is known (before any connection is accepted).
    private let info = Mutex(WyomingEvent(type: "info"))

    /// Listens on `options`' address with the speaker's config from `store`; `start()` serves.
    ///
    /// - Throws: `ConfigError` for a bad config, `SetupFailure` without models,
    ///   `satellite-cannot-listen` when the address cannot be had.
    public init(options: Options, store: ConfigStore, environment: [String: String], logger: Logger) throws {
        self.options = options
        config = try store.load()
        models = try Assembly.modelsDirectory(environment: environment)
        calibrations = WakePhraseCheck.directory(store: store)
        self.logger = logger
        socket = try TCPSocket.listen(host: options.host, port: options.port)
    }

    deinit {
        stop()
    }

    /// The port listened on.
    public var port: UInt16 { socket.port ?? options.port }

    /// Opens the loudspeaker (without one the satellite still hears, and asks Home Assistant
    /// for no spoken answers), loads the wake word detector and starts serving.
    ///
    /// - Throws: `SpeechError` when no wake word detector can be made, `AudioError` when
    ///   PortAudio cannot start.
    public func start() throws {
        let session = try PortAudioSession(logger: logger.child("audio"))
        let ready = DispatchSemaphore(value: 0)
        let playsAnswers = Mutex(false)
        spawn("satellite-speaker") { [self] in
            playLoop(session: session) { opened in
                playsAnswers.withLock { $0 = opened }
                ready.signal()
            }
        }
        ready.wait()
        let plays = playsAnswers.withLock { $0 }
        info.withLock { $0 = SatelliteInfo.event(config, version: Assembly.version, playsAnswers: plays) }
        let failure = Mutex<(any Error)?>(nil)
        spawn("satellite-microphone") { [self] in
            listenLoop(session: session, playsAnswers: plays) { error in
                failure.withLock { $0 = error }
                ready.signal()
            }
        }
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            stop()
            throw error
        }
        spawn("satellite-accept") { [self] in acceptLoop() }
    }

    /// Stops serving: connections close, the microphone and loudspeaker are released, and
    /// every thread has ended when it returns. Safe to call twice, from any thread.
    public func stop() {
        let sockets = shared.withLock { state -> [TCPSocket] in
            state.stopped = true
            return Array(state.connections.values)
        }
        sockets.forEach { $0.shutdown() }
        playbackWake.signal()
        threads.wait()
        socket.close()
    }

    private var isStopped: Bool { shared.withLock { $0.stopped } }

    /// Runs `body` on a thread of its own that SIGINT and SIGTERM never interrupt (the
    /// command's main thread waits for them), counted in `threads`.
    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            body()
            threads.leave()
        }
        thread.name = name
        thread.start()
    }

    // MARK: Connections

    private func acceptLoop() {
        while !isStopped {
            guard let connection = socket.accept() else { continue }
            let admitted = shared.withLock { state -> Bool in
                guard !state.stopped, state.connections.count < Self.maxConnections else { return false }
                state.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard admitted else {
                logger.warning("refused a connection from \(connection.address): \(Self.maxConnections) are open")
                connection.close()
                continue
            }
            logger.info("connection from \(connection.address)")
            spawn("satellite-connection") { [self] in serve(connection) }
        }
    }

    /// Reads `connection`'s events until it ends, sends a malformed one, or the satellite stops.
    private func serve(_ connection: TCPSocket) {
        var decoder = WyomingDecoder()
        defer { disconnect(connection) }
        while !isStopped {
            guard let bytes = connection.receive() else { return }
            guard !bytes.isEmpty else { continue }
            decoder.append(bytes)
            do {
                while let event = try decoder.next() { handle(event, from: connection) }
            } catch {
                logger.warning("\(error.code): \(error.message) from \(connection.address); closing that connection")
                return
            }
        }
    }

    private func disconnect(_ connection: TCPSocket) {
        let wasController = shared.withLock { state -> Bool in
            state.connections[ObjectIdentifier(connection)] = nil
            guard state.controller === connection else { return false }
            release(&state)
            return true
        }
        connection.close()
        playbackWake.signal()
        logger.info(wasController ? "Home Assistant (\(connection.address)) went away" : "\(connection.address) closed")
    }

    /// Forgets the controller: the microphone closes, the stream and any answer end unannounced.
    private func release(_ state: inout Shared) {
        state.controller = nil
        state.running = false
        state.endStream = true
        if state.playing { state.playback.append(.stop(announce: false)) }
    }

    private func handle(_ event: WyomingEvent, from connection: TCPSocket) {
        switch event.type {
        case "describe":
            _ = connection.send(info.withLock { $0 }.encoded())
            return
        case "ping":
            _ = connection.send(WyomingEvent(type: "pong", data: ["text": event.data["text"] ?? .null]).encoded())
            return
        default:
            break
        }
        let (controls, replaced) = shared.withLock { state -> (Bool, TCPSocket?) in
            guard state.controller !== connection else { return (true, nil) }
            guard event.type == "run-satellite" else { return (false, nil) }
            let previous = state.controller
            if previous != nil { release(&state) }
            state.controller = connection
            return (true, previous)
        }
        if let replaced {
            logger.info("\(connection.address) takes over from \(replaced.address)")
            replaced.shutdown()
        }
        guard controls else {
            logger.debug("ignored a '\(event.type)' event from \(connection.address), which does not run the satellite")
            return
        }
        switch event.type {
        case "run-satellite":
            logger.info("Home Assistant (\(connection.address)) runs the satellite")
            shared.withLock { state in
                state.running = true
                state.endStream = true
            }
        case "pause-satellite":
            logger.info("Home Assistant paused the satellite")
            shared.withLock { state in
                state.running = false
                state.endStream = true
            }
        case "transcript", "error":
            if event.type == "error" {
                logger.warning(
                    "Home Assistant: \(event.data["text"]?.stringValue ?? "an error") (\(event.data["code"]?.stringValue ?? "no code"))"
                )
            }
            shared.withLock { $0.endStream = true }
        case "audio-start":
            shared.withLock { state in
                state.playing = true
                state.dropped = false
                state.unplayable = false
                state.lastAnswerAudio = .now
            }
        case "audio-chunk":
            enqueue(event)
        case "audio-stop":
            shared.withLock { state in
                state.playing = true
                state.lastAnswerAudio = .now
                state.playback.append(.stop(announce: true))
            }
            playbackWake.signal()
        default:
            // Other events (voice-started, synthesize, timers, ...) need nothing of a speaker.
            logger.debug("ignored a '\(event.type)' event")
        }
    }

    private func enqueue(_ event: WyomingEvent) {
        let chunk: AudioChunk
        do {
            chunk = try event.audio()
        } catch {
            let first = shared.withLock { state in
                defer { state.unplayable = true }
                return !state.unplayable
            }
            if first { logger.warning("\(error.code): \(error.message); such chunks are not played") }
            return
        }
        let warn = shared.withLock { state -> Bool in
            state.playing = true
            state.lastAnswerAudio = .now
            guard state.queuedSamples + chunk.samples.count <= Self.maxQueuedSamples else {
                defer { state.dropped = true }
                return !state.dropped
            }
            state.queuedSamples += chunk.samples.count
            state.playback.append(.chunk(chunk))
            return false
        }
        if warn {
            logger.warning("answer audio arrives faster than it plays; dropping what is over \(Self.maxQueuedSamples) samples")
        }
        playbackWake.signal()
    }

    /// Sends `event` to Home Assistant, if connected; a failed send ends that connection.
    private func sendToController(_ event: WyomingEvent) {
        guard let controller = shared.withLock({ $0.controller }) else { return }
        if !controller.send(event.encoded()) { controller.shutdown() }
    }

    // MARK: Microphone

    /// The microphone's thread: makes the wake word detector (reporting the outcome through
    /// `started`, nil when ready), then listens while Home Assistant runs the satellite.
    private func listenLoop(session: PortAudioSession, playsAnswers: Bool, started: (_ failure: (any Error)?) -> Void) {
        let hearing = logger.child("hearing")
        let detector: any WakeWordDetector
        do {
            detector = try Assembly.wakeDetector(config, models: models, calibrations: calibrations, logger: hearing)
        } catch {
            started(error)
            return
        }
        started(nil)
        var listener = SatelliteListener(
            detector: detector, endpointing: EndpointerSettings(config.stt), playsAnswers: playsAnswers)
        var source: MicrophoneSource?
        var lastFailure: String?
        while !isStopped {
            let (running, endStream, playing) = shared.withLock { state in
                defer { state.endStream = false }
                return (state.running && state.controller != nil, state.endStream, state.playing)
            }
            if endStream { _ = listener.stop(announce: false) }
            guard running else {
                if source != nil {
                    source = nil
                    logger.info("microphone closed")
                }
                Thread.sleep(forTimeInterval: 0.1)
                continue
            }
            do {
                let microphone =
                    try source ?? MicrophoneSource(session: session, device: config.audio.input, logger: logger.child("audio"))
                source = microphone
                lastFailure = nil
                guard let chunk = try microphone.read(milliseconds: listener.nextReadMilliseconds) else { continue }
                // Its own answer is not listened to (it may say the name); the stream ends.
                if playing {
                    listener.stop(announce: true).forEach(sendToController)
                    continue
                }
                for event in try listener.hear(chunk.samples) {
                    if event.type == "detection" { logger.info("wake word heard; streaming the command to Home Assistant") }
                    sendToController(event)
                }
            } catch let error as any SusiError {
                source = nil
                listener.stop(announce: true).forEach(sendToController)
                if lastFailure != error.code { logger.warning("\(error.code): \(error.message)") }
                lastFailure = error.code
                // Two seconds before the next try, in steps short enough to stop promptly.
                for _ in 0..<20 where !isStopped { Thread.sleep(forTimeInterval: 0.1) }
            } catch {
                source = nil
                logger.warning("the microphone failed: \(error)")
                for _ in 0..<20 where !isStopped { Thread.sleep(forTimeInterval: 0.1) }
            }
        }
    }

    // MARK: Loudspeaker

    /// The loudspeaker's thread: opens `audio.output` (reporting through `opened`), then plays
    /// what Home Assistant sends, in order.
    private func playLoop(session: PortAudioSession, opened: (Bool) -> Void) {
        let sink: SpeakerSink
        do {
            sink = try SpeakerSink(
                session: session, device: config.audio.output, sampleRate: SatelliteInfo.soundFormat.sampleRate,
                logger: logger.child("audio"))
        } catch {
            logger.warning("\(error.code): \(error.message); Home Assistant's answers will not be played")
            opened(false)
            return
        }
        opened(true)
        while !isStopped {
            _ = playbackWake.wait(timeout: .now() + 0.2)
            let items = shared.withLock { state -> [Playback] in
                defer {
                    state.playback = []
                    state.queuedSamples = 0
                }
                if state.playing, state.playback.isEmpty,
                    ContinuousClock.now - state.lastAnswerAudio > .seconds(Self.answerSilenceSeconds)
                {
                    // Home Assistant never ended this answer: it is over, unannounced.
                    return [.stop(announce: false)]
                }
                return state.playback
            }
            for (index, item) in items.enumerated() where !isStopped {
                switch item {
                case .chunk(let chunk):
                    do {
                        try sink.play(chunk)
                    } catch let error as any SusiError {
                        logger.warning("\(error.code): \(error.message)")
                    } catch {
                        logger.warning("playing Home Assistant's answer failed: \(error)")
                    }
                case .stop(let announce):
                    do {
                        try sink.drain()
                    } catch let error as any SusiError {
                        logger.warning("\(error.code): \(error.message)")
                    } catch {
                        logger.warning("playing Home Assistant's answer failed: \(error)")
                    }
                    // Listening again once the last answer queued has been heard.
                    if index == items.count - 1 {
                        shared.withLock { state in
                            if state.playback.isEmpty { state.playing = false }
                        }
                    }
                    if announce { sendToController(WyomingEvent(type: "played")) }
                }
            }
        }
        sink.interrupt()
    }
}
