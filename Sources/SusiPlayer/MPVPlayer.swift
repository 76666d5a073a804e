import Foundation
import SusiCore

/// The `MediaPlayer` that drives one long-lived mpv process over its JSON IPC socket.
///
/// mpv is started on the first `play`/`enqueue` (or `start()`) as
/// `COMMAND --no-video --no-terminal --ytdl-format=bestaudio/best ARGS --idle=yes
/// --input-ipc-server=SOCKET --volume=N`, the socket in a private 0700 directory. If it dies it
/// is noticed (process exit or socket end), reported once as `player-died`, and the next `play`
/// starts a new one. `shutdown()` (also run by `deinit`) stops the process and removes the
/// socket and its directory.
///
/// Threading: every method may be called from any thread; commands are serialised and block for
/// at most `Configuration.replyTimeout` each (starting mpv: `startTimeout`). Events are delivered
/// on a private serial queue, in the order mpv reported them; the handler may call back into the
/// player.
/// `@unchecked Sendable`: all mutable state is guarded by `lock`, and command sequences by
/// `operations`; the reader thread and the process-exit handler only take `lock`.
public final class MPVPlayer: MediaPlayer, @unchecked Sendable {
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

        /// A configuration; the defaults suit a speaker.
        public init(
            command: String = "mpv", arguments: [String] = [], volume: Int = 70, replyTimeout: TimeInterval = 3,
            startTimeout: TimeInterval = 5, runtimeDirectory: String? = nil
        ) {
            self.command = command
            self.arguments = arguments
            self.volume = volume
            self.replyTimeout = replyTimeout
            self.startTimeout = startTimeout
            self.runtimeDirectory = runtimeDirectory
        }

        /// The configuration the `player.*` config keys describe.
        public init(_ player: Config.Player) {
            self.init(command: player.command, arguments: player.args, volume: player.volume)
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

    /// mpv's observed properties, by the ids used in `observe_property`.
    private enum Observed: Int, CaseIterable {
        case pause = 1
        case idleActive = 2

        var name: String {
            switch self {
            case .pause: return "pause"
            case .idleActive: return "idle-active"
            }
        }
    }

    private let configuration: Configuration
    private let stateFile: PlayerStateFile?
    private let logger: Logger
    private let events = DispatchQueue(label: "susi.player.events")
    /// Held for a whole command sequence, so two threads never start two players.
    private let operations = NSLock()
    /// Guards every field below; held only briefly, never while waiting for mpv.
    private let lock = NSLock()

    private var handler: (@Sendable (PlayerEvent) -> Void)?
    private var session: Session?
    /// Identifies the current session; callbacks from older ones are ignored.
    private var generation = 0
    private var isShutDown = false
    private var directory: String?
    private var paused = false
    private var idle = true
    /// What the handler was last told, so repeated reports do not repeat events.
    private var reportedPause = false
    private var reportedIdle = true
    private var listeningVolume: Int
    private var duckPercent: Int?
    /// What each playlist entry was asked to play, for load-failure messages.
    private var entries: [Int: String] = [:]

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
        listeningVolume = Self.clamp(volume)
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
        lock.lock()
        defer { lock.unlock() }
        guard session != nil, !idle else { return .idle }
        return paused ? .paused : .playing
    }

    public var volume: Int {
        lock.lock()
        defer { lock.unlock() }
        return listeningVolume
    }

    public var isDucked: Bool {
        lock.lock()
        defer { lock.unlock() }
        return duckPercent != nil
    }

    /// The volume mpv is set to now: the listening volume, or its ducked share.
    public var effectiveVolume: Int {
        lock.lock()
        defer { lock.unlock() }
        return effectiveVolumeLocked
    }

    /// The running mpv's process id; nil when none runs. For diagnostics and tests.
    public var processIdentifier: Int32? {
        lock.lock()
        defer { lock.unlock() }
        guard let session, session.process.isRunning else { return nil }
        return session.process.identifier
    }

    /// The path of mpv's IPC socket while it runs; nil otherwise.
    public var socketPath: String? {
        lock.lock()
        defer { lock.unlock() }
        guard session != nil, let directory else { return nil }
        return directory + "/mpv.sock"
    }

    /// Handlers run on a private serial queue, in the order mpv reported the events.
    public func setEventHandler(_ handler: (@Sendable (PlayerEvent) -> Void)?) {
        lock.lock()
        self.handler = handler
        lock.unlock()
    }

    /// Reads an mpv property (`volume`, `pause`, `path`, `time-pos`, ...); nil when mpv is not
    /// running. For diagnostics and tests; never starts mpv.
    ///
    /// - Throws: `player-command-failed` when mpv has no such property or it is unavailable now.
    public func property(_ name: String) throws(PlayerError) -> JSONValue? {
        operations.lock()
        defer { operations.unlock() }
        guard let session = liveSession() else { return nil }
        return try session.connection.request(["get_property", .string(name)], timeout: configuration.replyTimeout)
    }

    // MARK: Commands

    /// Starts mpv now if it is not running, so a missing or broken player is found at startup
    /// rather than at the first song.
    ///
    /// - Throws: `player-missing`, `player-start-failed` or `player-timeout`.
    public func start() throws(PlayerError) {
        operations.lock()
        defer { operations.unlock() }
        _ = try runningSession()
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
                self?.update { player in
                    player.idle = true
                    player.entries = [:]
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
        operations.lock()
        defer { operations.unlock() }
        lock.lock()
        listeningVolume = Self.clamp(volume)
        let saved = listeningVolume
        let effective = effectiveVolumeLocked
        lock.unlock()
        if let stateFile {
            do {
                try stateFile.save(volume: saved)
            } catch {
                logger.warning("\(error.code): \(error.message)")
            }
        }
        guard let session = liveSession() else { return }
        try applyVolume(effective, on: session)
    }

    public func duck(to percent: Int) {
        operations.lock()
        defer { operations.unlock() }
        lock.lock()
        duckPercent = Self.clamp(percent)
        let effective = effectiveVolumeLocked
        lock.unlock()
        applyVolumeQuietly(effective)
    }

    public func unduck() {
        operations.lock()
        defer { operations.unlock() }
        lock.lock()
        guard duckPercent != nil else {
            lock.unlock()
            return
        }
        duckPercent = nil
        let effective = effectiveVolumeLocked
        lock.unlock()
        applyVolumeQuietly(effective)
    }

    public func shutdown() {
        operations.lock()
        defer { operations.unlock() }
        lock.lock()
        isShutDown = true
        let ending = session
        session = nil
        idle = true
        let directory = self.directory
        self.directory = nil
        lock.unlock()
        if let ending { stop(ending) }
        if let directory { removeDirectory(directory) }
    }

    // MARK: Sessions

    /// The current session when its mpv is alive; a dead one is cleared (and reported).
    /// Call with `operations` held.
    private func liveSession() -> Session? {
        lock.lock()
        let current = session
        lock.unlock()
        guard let current else { return nil }
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
        lock.lock()
        let shutDown = isShutDown
        generation += 1
        let generation = self.generation
        idle = true
        paused = false
        reportedIdle = true
        reportedPause = false
        entries = [:]
        let volume = effectiveVolumeLocked
        lock.unlock()
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
            ["--no-video", "--no-terminal", "--ytdl-format=bestaudio/best"] + configuration.arguments
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
        lock.lock()
        session = started
        lock.unlock()
        do throws(PlayerError) {
            for property in Observed.allCases {
                try connection.request(
                    ["observe_property", .number(Double(property.rawValue)), .string(property.name)],
                    timeout: configuration.replyTimeout)
            }
        } catch {
            lock.lock()
            if session === started { session = nil }
            lock.unlock()
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
        lock.lock()
        guard let ending = session, ending.generation == generation else {
            lock.unlock()
            return
        }
        session = nil
        idle = true
        paused = false
        entries = [:]
        emitLocked(
            .failed(
                PlayerError(.died, "the media player stopped unexpectedly; it will be restarted on the next request")))
        lock.unlock()
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
        lock.lock()
        let existing = directory
        lock.unlock()
        if let existing, FileManager.default.fileExists(atPath: existing) { return existing }
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
        lock.lock()
        directory = path
        lock.unlock()
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
        operations.lock()
        defer { operations.unlock() }
        let (session, isNew) = try runningSession()
        do throws(PlayerError) {
            try load(location, mode: mode, on: session)
        } catch  where error.kind == .died && !isNew {
            sessionEnded(generation: session.generation)
            try load(location, mode: mode, on: try startSession())
        }
    }

    private func load(_ location: String, mode: String, on session: Session) throws(PlayerError) {
        if mode == "replace" {
            try setPause(false, on: session)
        }
        try session.connection.request(
            ["loadfile", .string(location), .string(mode)], timeout: configuration.replyTimeout
        ) { [weak self] data in
            self?.update { player in
                if mode == "replace" { player.entries = [:] }
                if let entry = data["playlist_entry_id"]?.intValue { player.entries[entry] = location }
                player.idle = false
            }
        }
        logger.debug("loadfile \(mode): \(location)")
    }

    /// Runs `body` on the live session; nothing when mpv is not running.
    private func control(_ body: (Session) throws(PlayerError) -> Void) throws(PlayerError) {
        operations.lock()
        defer { operations.unlock() }
        guard let session = liveSession() else { return }
        try body(session)
    }

    /// playlist-next / playlist-prev; false when idle or there is no such entry.
    private func step(_ command: String) throws(PlayerError) -> Bool {
        operations.lock()
        defer { operations.unlock() }
        guard let session = liveSession(), !isIdle else { return false }
        do throws(PlayerError) {
            try session.connection.request([.string(command)], timeout: configuration.replyTimeout)
            return true
        } catch  where error.kind == .commandFailed {
            // mpv refuses to step past either end of the playlist; that is an answer, not a fault.
            return false
        }
    }

    private func setPause(_ value: Bool, on session: Session) throws(PlayerError) {
        try session.connection.request(["set_property", "pause", .bool(value)], timeout: configuration.replyTimeout) {
            [weak self] _ in
            self?.update { $0.paused = value }
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
        lock.lock()
        defer { lock.unlock() }
        return idle
    }

    /// Must be called with `lock` held.
    private var effectiveVolumeLocked: Int {
        guard let duckPercent else { return listeningVolume }
        return listeningVolume * duckPercent / 100
    }

    private func update(_ change: (MPVPlayer) -> Void) {
        lock.lock()
        change(self)
        lock.unlock()
    }

    private static func clamp(_ value: Int) -> Int {
        min(max(value, 0), 100)
    }

    // MARK: Events

    /// Turns one of mpv's lines into state and `PlayerEvent`s. Runs on the reader thread.
    private func handle(_ event: MPVConnection.Event, generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard self.generation == generation else { return }
        switch event.name {
        case "property-change":
            guard let value = event.fields["data"]?.boolValue else { return }
            switch event.fields["name"]?.stringValue {
            case Observed.pause.name?:
                paused = value
                if value != reportedPause {
                    reportedPause = value
                    emitLocked(value ? .paused : .resumed)
                }
            case Observed.idleActive.name?:
                if value {
                    enterIdleLocked()
                } else {
                    idle = false
                    reportedIdle = false
                }
            default:
                return
            }
        case "idle":
            // Property changes can be coalesced away; mpv's own idle event is the backstop.
            enterIdleLocked()
        case "start-file":
            idle = false
            reportedIdle = false
        case "file-loaded":
            emitLocked(.fileLoaded)
        case "end-file":
            let reason = PlayerEvent.EndReason(mpvReason: event.fields["reason"]?.stringValue)
            emitLocked(.endOfFile(reason: reason))
            if reason == .error {
                let entry = event.fields["playlist_entry_id"]?.intValue
                let what = entry.flatMap { entries[$0] } ?? "the requested media"
                let why = event.fields["file_error"]?.stringValue ?? "unknown error"
                emitLocked(.failed(PlayerError(.loadFailed, "the media player could not play \(what): \(why)")))
            }
        default:
            return
        }
    }

    /// Must be called with `lock` held.
    private func enterIdleLocked() {
        idle = true
        if !reportedIdle {
            reportedIdle = true
            emitLocked(.idle)
        }
    }

    /// Queues `event` for the handler; called with `lock` held so events keep their order.
    private func emitLocked(_ event: PlayerEvent) {
        events.async { [weak self] in
            guard let self else { return }
            self.lock.lock()
            let handler = self.handler
            self.lock.unlock()
            handler?(event)
        }
    }
}
