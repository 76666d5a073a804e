import Foundation
import SusiCore
import SusiModel
import Synchronization

/// Several speakers playing the same music in sync through Snapcast (Debian's `snapserver`
/// and `snapclient`), when `player.multiroom` is on.
///
/// One speaker serves (`player.multiroom_server` empty): its mpv writes its sound into a pipe
/// beside the config instead of the sound card, `snapserver` reads the pipe and streams it on
/// `player.multiroom_port`, and a `snapclient` of its own plays the stream here. Every other
/// speaker joins (`player.multiroom_server` names the serving one, `HOST` or `HOST:PORT`): a
/// `snapclient` plays the stream, known to the server by the speaker's room. Its own answers
/// and music still play on its own mpv. Volume, pause and ducking act on the serving mpv, so
/// they reach every room.
public struct Multiroom: Sendable, Equatable {
    /// What this speaker does in the group.
    public enum Role: Sendable, Equatable {
        case off
        /// Streams its player on `port`.
        case serve(port: Int)
        /// Plays the stream of the speaker at `host`:`port`.
        case join(host: String, port: Int)
    }

    /// Snapcast's stream port.
    public static let defaultPort = 1704
    /// The sound snapserver expects in the pipe (its default sample format, 48000:16:2).
    public static let pipeArguments = [
        "--ao=pcm", "--ao-pcm-waveheader=no", "--audio-format=s16", "--audio-samplerate=48000",
        "--audio-channels=stereo",
    ]

    public var role: Role
    /// The pipe the serving mpv writes into.
    public var pipe: String
    /// The name this speaker's snapclient gives the server: its room, else "susi".
    public var room: String
    /// The address snapserver listens on (`setup.bind`).
    public var bind: String

    /// The group `config` describes, played into `pipe` (`StateDirectory.multiroomPipe`).
    public init(config: Config, pipe: String) {
        let player = config.player
        if !player.multiroom {
            role = .off
        } else if let server = Self.hostAndPort(player.multiroomServer) {
            role = .join(host: server.host, port: server.port ?? player.multiroomPort)
        } else {
            role = .serve(port: player.multiroomPort)
        }
        self.pipe = pipe
        room = config.room.isEmpty ? "susi" : config.room
        bind = config.setup.bind
    }

    /// `HOST`, `HOST:PORT` or `[IPv6]:PORT` split; a bare IPv6 address (`fe80::1`) is a host
    /// without a port. Nil for empty text.
    static func hostAndPort(_ text: String) -> (host: String, port: Int?)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let colon = trimmed.lastIndex(of: ":"), let port = Int(trimmed[trimmed.index(after: colon)...]) {
            let host = trimmed[..<colon]
            if host.hasPrefix("["), host.hasSuffix("]") { return (String(host.dropFirst().dropLast()), port) }
            if !host.contains(":") { return (String(host), port) }
        }
        return (trimmed, nil)
    }

    /// Added to mpv's arguments: when serving, its sound goes into the pipe.
    public var playerArguments: [String] {
        guard case .serve = role else { return [] }
        return Self.pipeArguments + ["--ao-pcm-file=" + pipe]
    }

    /// The programs the role runs (executable name and arguments), with `clientOutput` as
    /// snapclient's player (`["--player", "alsa"]` on a speaker; a file in tests).
    public func programs(clientOutput: [String]) -> [(program: String, arguments: [String])] {
        switch role {
        case .off:
            return []
        case .serve(let port):
            let directory = (pipe as NSString).deletingLastPathComponent
            let server = [
                "-c", "/dev/null", "--server.datadir=" + directory, "--http.enabled=false", "--tcp.enabled=false",
                "--stream.bind_to_address=" + bind, "--stream.port=\(port)",
                "--stream.source=pipe://" + pipe + "?name=susi&mode=read", "--logging.sink=stderr",
                "--logging.filter=*:warning",
            ]
            let localHost = bind == "0.0.0.0" ? "127.0.0.1" : bind
            return [("snapserver", server), ("snapclient", client(host: localHost, port: port, output: clientOutput))]
        case .join(let host, let port):
            return [("snapclient", client(host: host, port: port, output: clientOutput))]
        }
    }

    private func client(host: String, port: Int, output: [String]) -> [String] {
        ["-h", host, "-p", "\(port)", "--hostID", room, "--logsink=stderr", "--logfilter=*:warning"] + output
    }
}

/// Runs `Multiroom`'s programs and keeps them running: one that ends is started again after
/// `restartDelay` until `stop()`. Their messages go to the log.
public final class MultiroomProcesses: Sendable {
    private struct State {
        var processes: [MPVProcess] = []
        var stopped = false
    }

    private let multiroom: Multiroom
    private let clientOutput: [String]
    private let logger: Logger
    private let restartDelay: Double
    private let state = Mutex(State())

    /// Processes for `multiroom`, snapclient playing with `clientOutput`.
    public init(
        _ multiroom: Multiroom, clientOutput: [String] = ["--player", "alsa"], logger: Logger, restartDelay: Double = 2
    ) {
        self.multiroom = multiroom
        self.clientOutput = clientOutput
        self.logger = logger
        self.restartDelay = restartDelay
    }

    /// Makes the pipe (a FIFO; anything else at its path is replaced, so mpv never fills a
    /// plain file) and starts the programs.
    ///
    /// - Throws: `player-missing` when snapserver or snapclient is not installed or cannot
    ///   start, `player-start-failed` when the pipe cannot be made.
    public func start() throws(PlayerError) {
        let programs = multiroom.programs(clientOutput: clientOutput)
        guard !programs.isEmpty else { return }
        if case .serve = multiroom.role { try makePipe() }
        for (program, arguments) in programs {
            guard let path = MPVPlayer.executable(for: program) else {
                stop()
                throw PlayerError(.missing, "\(program) is not installed (Debian: apt-get install snapserver snapclient)")
            }
            try launch(path, arguments)
        }
        logger.info("multiroom: \(multiroom.role)")
    }

    /// Stops the programs for good (SIGTERM, then SIGKILL after a second).
    public func stop() {
        let running = state.withLock { state in
            state.stopped = true
            defer { state.processes = [] }
            return state.processes
        }
        running.forEach { $0.terminate() }
    }

    /// The process ids running now (for tests and the doctor).
    public var processIdentifiers: [Int32] {
        state.withLock { $0.processes.filter(\.isRunning).map(\.identifier) }
    }

    private func makePipe() throws(PlayerError) {
        var status = stat()
        if lstat(multiroom.pipe, &status) == 0, status.st_mode & S_IFMT != S_IFIFO {
            unlink(multiroom.pipe)
        }
        if mkfifo(multiroom.pipe, 0o600) != 0, errno != EEXIST {
            throw PlayerError(
                .startFailed, "cannot make the multiroom pipe \(multiroom.pipe): \(String(cString: strerror(errno)))")
        }
    }

    private func launch(_ path: String, _ arguments: [String]) throws(PlayerError) {
        let name = (path as NSString).lastPathComponent
        let logger = self.logger
        let started = Mutex<MPVProcess?>(nil)
        let process = try MPVProcess.launch(
            executable: path, arguments: arguments, errorLine: { logger.warning("\(name): \($0)") }
        ) { [weak self] in
            guard let self, let ended = started.withLock({ $0 }) else { return }
            let restart = self.state.withLock { state -> Bool in
                state.processes.removeAll { $0 === ended }
                return !state.stopped
            }
            guard restart else { return }
            self.logger.warning("\(name) ended (status \(ended.terminationStatus)); starting it again")
            DispatchQueue.global().asyncAfter(deadline: .now() + self.restartDelay) {
                guard !self.state.withLock({ $0.stopped }) else { return }
                try? self.launch(path, arguments)
            }
        }
        started.withLock { $0 = process }
        let stopped = state.withLock { state -> Bool in
            if !state.stopped { state.processes.append(process) }
            return state.stopped
        }
        if stopped { process.terminate() }
    }
}
