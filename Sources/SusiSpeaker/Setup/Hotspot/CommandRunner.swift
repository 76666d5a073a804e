import Foundation
import SusiCore

/// What a finished command left: its exit status and its output (stdout and stderr together).
public struct CommandResult: Sendable, Equatable {
    /// The exit status; 127 when the program could not be started.
    public var status: Int32
    /// stdout and stderr, at most 64 KiB (the first and last halves of longer output).
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
/// watches a socket the child inherits). So each command runs as a `ChildProcess` that closes
/// every descriptor above stderr before it `exec`s the program with its arguments as they are
/// (never as shell text), with its output in an unlinked temporary file rather than a pipe, for
/// the same reason. A command still running after `timeout` seconds is terminated (status 124).
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
        let result = ChildProcess(
            path, arguments: Array(arguments.dropFirst()), environment: environment, timeout: timeout,
            closesInheritedDescriptors: true, outputName: "susi-command"
        ).run()
        switch result.end {
        case .notStarted(let reason): return CommandResult(status: 127, output: reason)
        case .timedOut: return CommandResult(status: 124, output: "\(program) still running after \(Int(timeout)) s; terminated")
        case .exited(let status), .signalled(let status): return CommandResult(status: status, output: result.text)
        }
    }

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
