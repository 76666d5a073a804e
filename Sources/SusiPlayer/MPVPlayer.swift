import Foundation
import SusiCore
import SusiModel
import Synchronization

/// The `MediaPlayer` that drives one long-lived mpv process over its JSON IPC socket.
///
/// mpv is started on the first `play`/`enqueue` (or `start()`) as
/// `COMMAND --no-video --no-terminal --ytdl-format=bestaudio/best [YTDLP] ARGS --idle=yes
/// --input-ipc-server=SOCKET --volume=N` (YTDLP: `YTDLP.mpvArguments` when one is configured), the socket in a private 0700 directory. If it dies it
/// is noticed (process exit or socket end), reported once as `player-died`, and the next `play`
/// starts a new one. `shutdown()` (also run by `deinit`) stops the process and removes the
/// socket and its directory.
///
/// Threading: every method may be called from any thread; commands are serialised and block for
/// at most `Configuration.replyTimeout` each (starting mpv: `startTimeout`). Events are delivered
/// on a private serial queue, in the order mpv reported them; the handler may call back into the
/// player.
///
/// All mutable state is one `State` value behind one mutex, held only briefly and never while
/// waiting for mpv; command sequences are serialised by a second mutex that the reader thread
/// and the process-exit handler never take.
public final class MPVPlayer: MediaPlayer, Sendable {
    /// How to run mpv and how long to wait for it.
    public struct Configuration: Sendable, Equatable {
        /// The player executable: a name looked up on `PATH`, or a path.
        public var command: String
        /// Extra mpv options, placed after the defaults (so `--vo=...` or `--ao=...` can
        /// override them) and before the options this class needs (`--idle`, the socket,
        /// `--volume`).
        public var arguments: [String]
        /// The listening volume (0-100) when no state file holds one.
        public var volume: Int
        /// How long one command may wait for mpv's reply, in seconds.
        public var replyTimeout: TimeInterval
        /// How long a starting mpv may take to open its socket, in seconds.
        public var startTimeout: TimeInterval
        /// Where the private socket directory is made; nil for `$XDG_RUNTIME_DIR` or the
        /// temporary directory.
        public var runtimeDirectory: String?
        /// The yt-dlp mpv's ytdl hook runs; nil leaves mpv to find one on `PATH`.
        public var ytdl: YTDLP?

        /// A configuration; the defaults suit a speaker.
        public init(
            command: String = "mpv", arguments: [String] = [], volume: Int = 70, replyTimeout: TimeInterval = 3,
            startTimeout: TimeInterval = 5, runtimeDirectory: String? = nil, ytdl: YTDLP? = nil
        ) {
            self.ytdl = ytdl
            self.command = command
            self.arguments = arguments
            self.volume = volume
            self.replyTimeout = replyTimeout
            self.startTimeout = startTimeout
            self.runtimeDirectory = runtimeDirectory
        }

        /// The configuration the `player.*` config keys describe, with the yt-dlp that belongs
        /// to this binary (`YTDLP.locate()`).
        public init(_ player: Config.Player) {
            self.init(command: player.command, arguments: player.args, volume: player.volume, ytdl: YTDLP.locate())
        }
    }

    /// One running mpv and the IPC session with it.
    private final class Session: Sendable {
        let generation: Int
        let process: MPVProcess
        let connection: MPVConnection

        init(generation: Int, process: MPVProcess, connection: MPVConnection) {
            self.generation = generation
            self.process = process
            self.connection = connection
        }

        var isAlive: Bool { process.isRunning && !connection.closed }
    }

    /// Everything that changes, behind `guarded`.
    private struct State {
        var handler: (@Sendable (PlayerEvent) -> Void)?
        var session: Session?
        /// Identifies the current session; callbacks from older ones are ignored.
        var generation = 0
        var isShutDown = false
        var directory: String?
        var listeningVolume: Int
        var duckPercent: Int?
        var playback = MPVPlayback()

        /// The volume mpv is set to now: the listening volume, or its ducked share.
        var effectiveVolume: Int {
            guard let duckPercent else { return listeningVolume }
            return listeningVolume * duckPercent / 100
        }
    }

    private let configuration: Configuration
    private let stateFile: PlayerStateFile?
    private let logger: Logger
    private let events = DispatchQueue(label: "susi.player.events")
    /// Held for a whole command sequence, so two threads never start two players.
    private let operations = Mutex(())
    private let guarded: Mutex<State>

    /// A player that starts mpv when first needed.
    ///
    /// The listening volume comes from `stateFile` when it holds one (an unreadable file is
    /// logged and ignored), else from `configuration.volume`. Nothing is started here.
    public init(
        configuration: Configuration = Configuration(), stateFile: PlayerStateFile? = nil, logger: Logger = .silent
    ) {
        self.configuration = configuration
        self.stateFile = stateFile
        self.logger = logger
        var volume = configuration.volume
        do {
            if let saved = try stateFile?.loadVolume() { volume = saved }
        } catch {
            logger.warning("\(error.code): \(error.message); using volume \(configuration.volume)")
        }
        guarded = Mutex(State(listeningVolume: Self.clamp(volume)))
    }

    /// A player configured from the `player.*` config keys.
    public convenience init(config: Config.Player, stateFile: PlayerStateFile? = nil, logger: Logger = .silent) {
        self.init(configuration: Configuration(config), stateFile: stateFile, logger: logger)
    }

    deinit {
        shutdown()
    }

    // MARK: Observing

    public var state: PlayerState {
        guarded.withLock { state in
            guard state.session != nil, !state.playback.idle else { return .idle }
            return state.playback.paused ? .paused : .playing
        }
    }

    public var volume: Int {
        guarded.withLock { $0.listeningVolume }
    }

    public var isDucked: Bool {
        guarded.withLock { $0.duckPercent != nil }
    }

    /// The volume mpv is set to now: the listening volume, or its ducked share.
    public var effectiveVolume: Int {
        guarded.withLock { $0.effectiveVolume }
    }

    /// The running mpv's process id; nil when none runs. For diagnostics and tests.
    public var processIdentifier: Int32? {
        guarded.withLock { state in
            guard let session = state.session, session.process.isRunning else { return nil }
            return session.process.identifier
        }
    }

    /// The path of mpv's IPC socket while it runs; nil otherwise.
    public var socketPath: String? {
        guarded.withLock { state in
            guard state.session != nil, let directory = state.directory else { return nil }
            return directory + "/mpv.sock"
        }
    }

    /// Handlers run on a private serial queue, in the order mpv reported the events.
    public func setEventHandler(_ handler: (@Sendable (PlayerEvent) -> Void)?) {
        guarded.withLock { $0.handler = handler }
    }

    /// Reads an mpv property (`volume`, `pause`, `path`, `time-pos`, ...); nil when mpv is not
    /// running. For diagnostics and tests; never starts mpv.
    ///
    /// - Throws: `player-command-failed` when mpv has no such property or it is unavailable now.
    public func property(_ name: String) throws(PlayerError) -> JSONValue? {
        try operations.withLock { _ throws(PlayerError) -> JSONValue? in
            guard let session = liveSession() else { return nil }
            return try session.connection.request(
                ["get_property", .string(name)], timeout: configuration.replyTimeout)
        }
    }

    // MARK: Commands

    /// Starts mpv now if it is not running, so a missing or broken player is found at startup
    /// rather than at the first song.
    ///
    /// - Throws: `player-missing`, `player-start-failed` or `player-timeout`.
    public func start() throws(PlayerError) {
        try operations.withLock { _ throws(PlayerError) in
            _ = try runningSession()
        }
    }

    public func play(identifier: String, type: String) throws(PlayerError) {
        let location = try MediaLocator.location(identifier: identifier, type: type)
        try load(location, mode: "replace")
    }

    public func enqueue(identifier: String, type: String) throws(PlayerError) {
        let location = try MediaLocator.location(identifier: identifier, type: type)
        try load(location, mode: "append-play")
    }

    public func pause() throws(PlayerError) {
        try control { session throws(PlayerError) in
            guard !isIdle else { return }
            try setPause(true, on: session)
        }
    }

    public func resume() throws(PlayerError) {
        try control { session throws(PlayerError) in
            guard !isIdle else { return }
            try setPause(false, on: session)
        }
    }

    public func stop() throws(PlayerError) {
        try control { session throws(PlayerError) in
            try session.connection.request(["stop"], timeout: configuration.replyTimeout) { [weak self] _ in
                self?.guarded.withLock { state in
                    state.playback.idle = true
                    state.playback.entries = [:]
                }
            }
        }
    }

    @discardableResult
    public func next() throws(PlayerError) -> Bool {
        try step("playlist-next")
    }

    @discardableResult
    public func previous() throws(PlayerError) -> Bool {
        try step("playlist-prev")
    }

    public func restart() throws(PlayerError) {
        try control { session throws(PlayerError) in
            guard !isIdle else { return }
            do throws(PlayerError) {
                try session.connection.request(["seek", 0, "absolute"], timeout: configuration.replyTimeout)
            } catch  where error.kind == .commandFailed {
                // Refused while the entry is still opening: it will start from the beginning.
                logger.debug("restart before the media was loaded: \(error.message)")
            }
            // Someone asking to hear it from the start wants to hear it, paused or not.
            try setPause(false, on: session)
        }
    }

    public func shuffle() throws(PlayerError) {
        try control { session throws(PlayerError) in
            try session.connection.request(["playlist-shuffle"], timeout: configuration.replyTimeout)
        }
    }

    /// Also saves the volume to the state file; a failure to save is logged, not thrown, as
    /// the volume itself did change.
    public func setVolume(_ volume: Int) throws(PlayerError) {
        try operations.withLock { _ throws(PlayerError) in
            let (saved, effective) = guarded.withLock { state -> (Int, Int) in
                state.listeningVolume = Self.clamp(volume)
                return (state.listeningVolume, state.effectiveVolume)
            }
            save(volume: saved)
            guard let session = liveSession() else { return }
            try applyVolume(effective, on: session)
        }
    }

    private func save(volume: Int) {
        guard let stateFile else { return }
        do {
            try stateFile.save(volume: volume)
        } catch {
            logger.warning("\(error.code): \(error.message)")
        }
    }

    public func duck(to percent: Int) {
        operations.withLock { _ in
            let effective = guarded.withLock { state in
                state.duckPercent = Self.clamp(percent)
                return state.effectiveVolume
            }
            applyVolumeQuietly(effective)
        }
    }

    public func unduck() {
        operations.withLock { _ in
            let effective: Int? = guarded.withLock { state in
                guard state.duckPercent != nil else { return nil }
                state.duckPercent = nil
                return state.effectiveVolume
            }
            if let effective { applyVolumeQuietly(effective) }
        }
    }

    public func shutdown() {
        operations.withLock { _ in
            let (ending, directory) = guarded.withLock { state in
                state.isShutDown = true
                defer {
                    state.session = nil
                    state.directory = nil
                    state.playback = MPVPlayback()
                }
                return (state.session, state.directory)
            }
            if let ending { stop(ending) }
            if let directory { removeDirectory(directory) }
        }
    }

    // MARK: Sessions

    /// The current session when its mpv is alive; a dead one is cleared (and reported).
    /// Call with `operations` held.
    private func liveSession() -> Session? {
        guard let current = guarded.withLock({ $0.session }) else { return nil }
        if current.isAlive { return current }
        sessionEnded(generation: current.generation)
        return nil
    }

    /// The live session, starting mpv when none runs. Call with `operations` held.
    private func runningSession() throws(PlayerError) -> (session: Session, isNew: Bool) {
        if let current = liveSession() { return (current, false) }
        return (try startSession(), true)
    }

    private func startSession() throws(PlayerError) -> Session {
        let (shutDown, generation, volume) = guarded.withLock { state in
            state.generation += 1
            state.playback = MPVPlayback()
            return (state.isShutDown, state.generation, state.effectiveVolume)
        }
        guard !shutDown else {
            throw PlayerError(.startFailed, "the media player has been shut down")
        }
        guard let executable = MPVProcess.resolve(command: configuration.command) else {
            throw PlayerError(
                .missing, "media player '\(configuration.command)' not found (install mpv or set player.command)")
        }
        let directory = try runtimeDirectory()
        let socketPath = directory + "/mpv.sock"
        // A socket left by a crashed mpv would make the connect below reach nobody.
        unlink(socketPath)
        let arguments =
            ["--no-video", "--no-terminal", "--ytdl-format=bestaudio/best"] + (configuration.ytdl?.mpvArguments ?? [])
            + configuration.arguments
            + ["--idle=yes", "--input-ipc-server=\(socketPath)", "--volume=\(volume)"]
        let process = try MPVProcess.launch(executable: executable, arguments: arguments) { [weak self] in
            self?.sessionEnded(generation: generation)
        }
        let socket: UnixSocket
        do throws(PlayerError) {
            socket = try connect(to: socketPath, process: process)
        } catch {
            process.terminate()
            throw error
        }
        let connection = MPVConnection(
            socket: socket,
            onEvent: { [weak self] event in self?.handle(event, generation: generation) },
            onClose: { [weak self] in self?.sessionEnded(generation: generation) })
        let started = Session(generation: generation, process: process, connection: connection)
        guarded.withLock { $0.session = started }
        do throws(PlayerError) {
            for property in MPVPlayback.Observed.allCases {
                try connection.request(
                    ["observe_property", .number(Double(property.rawValue)), .string(property.name)],
                    timeout: configuration.replyTimeout)
            }
        } catch {
            guarded.withLock { state in
                if state.session === started { state.session = nil }
            }
            stop(started)
            throw error
        }
        logger.info("started \(executable) (pid \(process.identifier))")
        return started
    }

    /// Waits for mpv to open its socket, giving up when it exits or `startTimeout` passes.
    private func connect(to path: String, process: MPVProcess) throws(PlayerError) -> UnixSocket {
        let deadline = Date().addingTimeInterval(configuration.startTimeout)
        var lastReason = "no socket yet"
        while Date() < deadline {
            switch UnixSocket.connect(path: path) {
            case .success(let socket):
                return socket
            case .failure(let failure):
                lastReason = failure.reason
            }
            guard process.isRunning else {
                throw PlayerError(
                    .startFailed,
                    "media player \(configuration.command) exited (status \(process.terminationStatus)) before opening its control socket; check player.args"
                )
            }
            usleep(20_000)
        }
        throw PlayerError(
            .timeout,
            "media player \(configuration.command) did not open its control socket within \(JSONValue.format(configuration.startTimeout)) s: \(lastReason)"
        )
    }

    /// Forgets session `generation` if it is still the current one and reports that it died.
    /// Called from the reader thread, the process-exit handler, or a command that found it dead.
    private func sessionEnded(generation: Int) {
        let ended: Session? = guarded.withLock { state in
            guard let ending = state.session, ending.generation == generation else { return nil }
            state.session = nil
            state.playback = MPVPlayback()
            emit(
                .failed(
                    PlayerError(
                        .died, "the media player stopped unexpectedly; it will be restarted on the next request")))
            return ending
        }
        guard let ending = ended else { return }
        logger.warning("player-died: mpv (pid \(ending.process.identifier)) went away")
        // Off this thread: the reader or exit handler must not wait for the process to be reaped.
        DispatchQueue.global().async { [ending] in
            ending.connection.close()
            ending.process.terminate()
        }
    }

    /// Ends a session on purpose: closes the socket and stops the process.
    private func stop(_ ending: Session) {
        ending.connection.close()
        ending.process.terminate()
    }

    /// The private directory for the socket, made on first use.
    private func runtimeDirectory() throws(PlayerError) -> String {
        if let existing = guarded.withLock({ $0.directory }), FileManager.default.fileExists(atPath: existing) { return existing }
        let environment = ProcessInfo.processInfo.environment
        var base = configuration.runtimeDirectory ?? environment["XDG_RUNTIME_DIR"] ?? NSTemporaryDirectory()
        if base.hasSuffix("/") { base.removeLast() }
        // sun_path holds 108 bytes; a deep temporary directory would not fit a socket name.
        if base.isEmpty || base.utf8.count > 70 || !FileManager.default.fileExists(atPath: base) { base = "/tmp" }
        var path = ""
        var failure = ""
        // An unusable runtime directory (read-only, full) should not cost the speaker its music.
        for candidate in base == "/tmp" ? [base] : [base, "/tmp"] {
            path = candidate + "/susi-player-\(getpid())-\(UUID().uuidString.prefix(8))"
            do {
                try FileManager.default.createDirectory(
                    atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                failure = ""
                break
            } catch {
                failure = error.localizedDescription
            }
        }
        guard failure.isEmpty else {
            throw PlayerError(.startFailed, "cannot create the player's socket directory \(path): \(failure)")
        }
        guarded.withLock { $0.directory = path }
        return path
    }

    private func removeDirectory(_ path: String) {
        unlink(path + "/mpv.sock")
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            logger.debug("cannot remove \(path): \(error.localizedDescription)")
        }
    }

    // MARK: Command helpers

    /// Loads `location` with loadfile `mode`, starting mpv if needed. A session that turns out
    /// to have died since the last command is replaced once, transparently.
    private func load(_ location: String, mode: String) throws(PlayerError) {
        try operations.withLock { _ throws(PlayerError) in
            let (session, isNew) = try runningSession()
            do throws(PlayerError) {
                try load(location, mode: mode, on: session)
            } catch  where error.kind == .died && !isNew {
                sessionEnded(generation: session.generation)
                try load(location, mode: mode, on: try startSession())
            }
        }
    }

    private func load(_ location: String, mode: String, on session: Session) throws(PlayerError) {
        if mode == "replace" {
            try setPause(false, on: session)
        }
        try session.connection.request(
            ["loadfile", .string(location), .string(mode)], timeout: configuration.replyTimeout
        ) { [weak self] data in
            self?.guarded.withLock { state in
                if mode == "replace" { state.playback.entries = [:] }
                if let entry = data["playlist_entry_id"]?.intValue { state.playback.entries[entry] = location }
                state.playback.idle = false
            }
        }
        logger.debug("loadfile \(mode): \(URLRedaction.redacted(location))")
    }

    /// Runs `body` on the live session; nothing when mpv is not running.
    private func control(_ body: (Session) throws(PlayerError) -> Void) throws(PlayerError) {
        try operations.withLock { _ throws(PlayerError) in
            guard let session = liveSession() else { return }
            try body(session)
        }
    }

    /// playlist-next / playlist-prev; false when idle or there is no such entry.
    private func step(_ command: String) throws(PlayerError) -> Bool {
        try operations.withLock { _ throws(PlayerError) -> Bool in
            guard let session = liveSession(), !isIdle else { return false }
            do throws(PlayerError) {
                try session.connection.request([.string(command)], timeout: configuration.replyTimeout)
                return true
            } catch  where error.kind == .commandFailed {
                // mpv refuses to step past either end of the playlist; that is an answer, not a fault.
                return false
            }
        }
    }

    private func setPause(_ value: Bool, on session: Session) throws(PlayerError) {
        try session.connection.request(["set_property", "pause", .bool(value)], timeout: configuration.replyTimeout) {
            [weak self] _ in
            self?.guarded.withLock { $0.playback.paused = value }
        }
    }

    private func applyVolume(_ volume: Int, on session: Session) throws(PlayerError) {
        try session.connection.request(
            ["set_property", "volume", .number(Double(volume))], timeout: configuration.replyTimeout)
    }

    /// Sets mpv's volume if it runs; a failure is logged (a death is reported by its event).
    private func applyVolumeQuietly(_ volume: Int) {
        guard let session = liveSession() else { return }
        do {
            try applyVolume(volume, on: session)
        } catch {
            logger.warning("\(error.code): cannot set the player volume to \(volume): \(error.message)")
        }
    }

    private var isIdle: Bool {
        guarded.withLock { $0.playback.idle }
    }

    private static func clamp(_ value: Int) -> Int {
        min(max(value, 0), 100)
    }

    // MARK: Events

    /// Applies one of mpv's lines to the playback state and queues the events it means, under
    /// the state's mutex so events keep mpv's order. Runs on the reader thread.
    private func handle(_ event: MPVConnection.Event, generation: Int) {
        guarded.withLock { state in
            guard state.generation == generation else { return }
            for reported in state.playback.apply(event) { emit(reported) }
        }
    }

    /// Queues `event` for the handler; called with the state's mutex held so events keep their
    /// order, while the handler itself runs later without it (it may call back into the player).
    private func emit(_ event: PlayerEvent) {
        events.async { [weak self] in
            guard let handler = self?.guarded.withLock({ $0.handler }) else { return }
            handler(event)
        }
    }
}

extension MPVPlayer {
    /// The executable `command` (`player.command`) names: itself when it contains a slash,
    /// else the first of that name on `PATH`; nil when there is none (`susi doctor`).
    public static func executable(for command: String) -> String? {
        MPVProcess.resolve(command: command)
    }
}
