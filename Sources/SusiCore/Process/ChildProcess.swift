import Foundation

/// One run of a child process to its end, bounded in time and in the output it keeps: the one
/// runner behind hotspot commands, setup hooks and the yt-dlp tools.
///
/// The program gets its arguments as an array, never as shell text, no input, and this
/// process's environment plus `environment`. Captured output goes to a temporary file that is
/// unlinked at once (the open handle keeps it readable, and nothing is left behind when this
/// process is killed meanwhile) and is read back when the child has ended, so a child never
/// stalls on a full pipe and a daemon it leaves behind holding its stdout cannot hold up the
/// run. Only `outputLimit` bytes are kept in memory; what the child writes meanwhile is on disk
/// until the run ends. A child still running after `timeout` seconds gets SIGTERM, and SIGKILL
/// when it is still there `terminationGrace` seconds later.
///
/// With `closesInheritedDescriptors` (the default), the child starts through a bash trampoline
/// that closes every descriptor above stderr and then `exec`s the program, so a daemon it
/// leaves behind (`hostapd -B`, `sleep 30 &`) keeps none of this process's files or sockets:
/// Foundation watches one of those to see the child end, and would otherwise wait for the
/// daemon. Without bash the program starts directly.
public struct ChildProcess: Sendable {
    /// Which of the child's output streams are kept; the others go to `/dev/null`.
    public enum Capture: Sendable {
        case nothing, standardOutput, standardError
        /// stdout and stderr together, in the order written.
        case both
    }

    /// The program's path.
    public var executable: String
    /// Its arguments, each passed as it is.
    public var arguments: [String]
    /// Added to this process's environment (replacing variables of the same name).
    public var environment: [String: String]
    /// The child's working directory; nil for this process's.
    public var workingDirectory: String?
    /// The output streams kept.
    public var capture: Capture
    /// The most output bytes kept; beyond it the first and last halves are kept.
    public var outputLimit: Int
    /// Seconds the child may run before it is terminated.
    public var timeout: Double
    /// Seconds between SIGTERM and SIGKILL for a child that ran out of time.
    public var terminationGrace: Double
    /// Whether the child starts with only stdin, stdout and stderr open (see the type's notes).
    public var closesInheritedDescriptors: Bool
    /// The start of the temporary output file's name (it shows in `/proc/PID/fd`).
    public var outputName: String

    /// A run of `executable arguments`; nothing starts until `run`.
    public init(
        _ executable: String, arguments: [String] = [], environment: [String: String] = [:],
        workingDirectory: String? = nil, capture: Capture = .both, outputLimit: Int = 65_536, timeout: Double,
        terminationGrace: Double = 2, closesInheritedDescriptors: Bool = true, outputName: String = "susi-child"
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.capture = capture
        self.outputLimit = outputLimit
        self.timeout = timeout
        self.terminationGrace = terminationGrace
        self.closesInheritedDescriptors = closesInheritedDescriptors
        self.outputName = outputName
    }

    /// Starts the child, calls `started` with its process id once it runs, and blocks until it
    /// has ended (at most `timeout` plus `terminationGrace` seconds, and the time to reap it).
    public func run(started: (Int32) -> Void = { _ in }) -> ChildProcessResult {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            return ChildProcessResult(end: .notStarted("\(executable) is not an executable file"))
        }
        var output: FileHandle?
        if capture != .nothing {
            let path = NSTemporaryDirectory() + "\(outputName)-\(UUID().uuidString).out"
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
                let handle = FileHandle(forUpdatingAtPath: path)
            else {
                return ChildProcessResult(end: .notStarted("cannot create a temporary file for the output of \(executable)"))
            }
            try? FileManager.default.removeItem(atPath: path)
            output = handle
        }
        defer { try? output?.close() }

        let process = Process()
        if closesInheritedDescriptors, FileManager.default.isExecutableFile(atPath: Self.bash) {
            process.executableURL = URL(fileURLWithPath: Self.bash)
            process.arguments = ["-c", Self.closeDescriptors, outputName, executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = FileHandle.nullDevice
        let keepsOut = capture == .standardOutput || capture == .both
        let keepsErr = capture == .standardError || capture == .both
        process.standardOutput = keepsOut ? output : FileHandle.nullDevice
        process.standardError = keepsErr ? output : FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            return ChildProcessResult(end: .notStarted("\(executable) could not start: \(error.localizedDescription)"))
        }
        started(process.processIdentifier)

        var timedOut = false
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            if finished.wait(timeout: .now() + terminationGrace) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                finished.wait()
            }
        }
        let kept = output.map { Self.readBack($0, limit: outputLimit) } ?? Data()
        let end: ChildProcessResult.End =
            if timedOut {
                .timedOut
            } else if process.terminationReason == .exit {
                .exited(process.terminationStatus)
            } else {
                .signalled(process.terminationStatus)
            }
        return ChildProcessResult(end: end, output: kept)
    }

    /// The whole file when it is within `limit`, else its first and last halves around a line
    /// that says how much was left out (a tool's last words usually say why it failed).
    private static func readBack(_ file: FileHandle, limit: Int) -> Data {
        guard let size = try? file.seekToEnd(), (try? file.seek(toOffset: 0)) != nil else { return Data() }
        guard size > UInt64(limit) else { return (try? file.readToEnd()) ?? Data() }
        let half = limit / 2
        var kept = (try? file.read(upToCount: half)) ?? Data()
        kept.append(Data("\n[... \(size - UInt64(2 * half)) bytes left out ...]\n".utf8))
        if (try? file.seek(toOffset: size - UInt64(half))) != nil {
            kept.append((try? file.read(upToCount: half)) ?? Data())
        }
        return kept
    }

    private static let bash = "/bin/bash"
    /// Closes descriptors 3 and up, then runs "$@" (dash allows only one-digit descriptors).
    private static let closeDescriptors =
        #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#
}

/// How a `ChildProcess` run ended and what it wrote.
public struct ChildProcessResult: Sendable, Equatable {
    /// How the run ended.
    public enum End: Sendable, Equatable {
        /// It could not start, for this reason (a missing program, a missing working directory).
        case notStarted(String)
        /// It exited by itself with this status.
        case exited(Int32)
        /// A signal ended it (not the runner's timeout): the signal's number.
        case signalled(Int32)
        /// It was still running at the timeout and was terminated (killed when it held on).
        case timedOut
    }

    /// How the run ended.
    public var end: End
    /// The captured streams, at most the run's `outputLimit` bytes plus one line saying how
    /// much of the middle was left out.
    public var output: Data

    /// A result.
    public init(end: End, output: Data = Data()) {
        self.end = end
        self.output = output
    }

    /// Whether the child exited by itself with status 0 in time.
    public var succeeded: Bool { end == .exited(0) }
    /// `output` as UTF-8 text (invalid bytes replaced).
    public var text: String { String(decoding: output, as: UTF8.self) }
}
