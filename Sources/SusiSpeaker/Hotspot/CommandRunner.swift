import Foundation

/// What a finished command left: its exit status and its output (stdout and stderr together).
public struct CommandResult: Sendable, Equatable {
    /// The exit status; 127 when the program could not be started.
    public var status: Int32
    /// stdout and stderr, at most 64 KiB.
    public var output: String

    /// A result.
    public init(status: Int32, output: String = "") {
        self.status = status
        self.output = output
    }

    /// Whether the command succeeded.
    public var succeeded: Bool { status == 0 }
}

/// Runs system commands (`ip`, `hostapd`, `dnsmasq`, `systemctl`, ...) for hotspot mode, as an
/// argument vector and never through a shell. `ProcessCommandRunner` runs them; tests use a
/// fake that records them and answers as a system would.
public protocol CommandRunner: Sendable {
    /// Runs `arguments` (the program first) to the end and returns its result. Blocking.
    func run(_ arguments: [String]) -> CommandResult
}

/// Runs commands as processes, finding programs in `PATH` plus the sbin directories (where
/// `ip`, `hostapd` and `dnsmasq` live and which a normal user's `PATH` lacks).
///
/// `hostapd -B`, `wpa_supplicant -B` and `udhcpc -b` leave daemons behind, and a daemon that
/// keeps an inherited descriptor open would keep Foundation from seeing the command end (it
/// watches a socket the child inherits). So each command starts through a bash trampoline that
/// closes every descriptor above stderr and then `exec`s the program with its arguments as
/// they are (never as shell text). Output goes to a temporary file rather than a pipe, for the
/// same reason. A command still running after `timeout` seconds is terminated.
public struct ProcessCommandRunner: CommandRunner {
    /// Seconds one command may run.
    public var timeout: Double
    /// Extra environment for every command.
    public var environment: [String: String]

    /// A runner; `timeout` bounds each command.
    public init(timeout: Double = 30, environment: [String: String] = [:]) {
        self.timeout = timeout
        self.environment = environment
    }

    public func run(_ arguments: [String]) -> CommandResult {
        guard let program = arguments.first, let path = Self.locate(program) else {
            return CommandResult(status: 127, output: "\(arguments.first ?? "(nothing)"): program not found")
        }
        let outputPath = NSTemporaryDirectory() + "susi-command-\(UUID().uuidString).out"
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
            let output = FileHandle(forUpdatingAtPath: outputPath)
        else {
            return CommandResult(status: 127, output: "cannot create a temporary file for the output of \(program)")
        }
        // Unlinked at once: the open handle keeps it readable, and nothing is left behind even
        // when this process is killed while the command runs.
        try? FileManager.default.removeItem(atPath: outputPath)
        defer { try? output.close() }
        let process = Process()
        if FileManager.default.isExecutableFile(atPath: Self.bash) {
            process.executableURL = URL(fileURLWithPath: Self.bash)
            process.arguments = ["-c", Self.closeDescriptors, "susi-command", path] + arguments.dropFirst()
        } else {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = Array(arguments.dropFirst())
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            return CommandResult(status: 127, output: "\(program) could not start: \(error.localizedDescription)")
        }
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
            return CommandResult(status: 124, output: "\(program) still running after \(Int(timeout)) s; terminated")
        }
        try? output.seek(toOffset: 0)
        let data = (try? output.read(upToCount: 65_536)) ?? Data()
        return CommandResult(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
    }

    private static let bash = "/bin/bash"
    /// Closes descriptors 3 and up, then runs "$@" (dash allows only one-digit descriptors).
    private static let closeDescriptors =
        #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; exec "$@""#

    /// The executable for `program`: itself when it holds a `/`, else the first match in
    /// `PATH`, `/usr/sbin` and `/sbin`.
    public static func locate(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/local/sbin", "/usr/sbin", "/sbin"]
        return directories.lazy.map { ($0 as NSString).appendingPathComponent(program) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
