import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One child player process (mpv, or Snapcast's for `Multiroom`): started from a resolved
/// executable, stopped with SIGTERM and then SIGKILL, so the speaker never leaves it behind.
///
/// The wrapped `Process` is only started in `launch` and afterwards only queried and signalled,
/// which Foundation allows from any thread.
final class MPVProcess: Sendable {
    private let process: Process

    private init(process: Process) {
        self.process = process
    }

    /// The child's process id.
    var identifier: Int32 { process.processIdentifier }

    /// Whether the child has not been reaped yet.
    var isRunning: Bool { process.isRunning }

    /// The exit status or signal number once it ended.
    var terminationStatus: Int32 { process.terminationStatus }

    /// Starts `executable` with `arguments`, its standard input and output on /dev/null and its
    /// standard error on /dev/null, or line by line to `errorLine`.
    ///
    /// The child starts with no signal blocked, whichever thread starts it (a dispatch thread
    /// blocks most, and a child inherits the mask). `onExit` runs on a Foundation thread when
    /// the child ends, for whatever reason.
    /// - Throws: `player-missing` when the executable cannot be started.
    static func launch(
        executable: String, arguments: [String], errorLine: (@Sendable (Substring) -> Void)? = nil,
        onExit: @escaping @Sendable () -> Void
    ) throws(PlayerError) -> MPVProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let errorLine {
            let errors = Pipe()
            process.standardError = errors
            errors.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                guard !data.isEmpty else {
                    handle.readabilityHandler = nil
                    return
                }
                String(decoding: data, as: UTF8.self).split(separator: "\n").forEach(errorLine)
            }
        }
        process.terminationHandler = { _ in onExit() }
        var none = sigset_t()
        var previous = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        do {
            try process.run()
        } catch {
            throw PlayerError(.missing, "cannot start \(executable): \(error.localizedDescription)")
        }
        return MPVProcess(process: process)
    }

    /// The executable `command` names: itself when it contains a slash, else the first
    /// executable file of that name on `PATH`; nil when there is none.
    static func resolve(command: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard !command.isEmpty else { return nil }
        if command.contains("/") {
            return FileManager.default.isExecutableFile(atPath: command) ? command : nil
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + command
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }

    /// Asks the child to quit (SIGTERM), waits up to `grace` seconds, then kills it (SIGKILL)
    /// and waits for it to be reaped. Blocks the caller for at most `grace` plus a moment.
    func terminate(grace: TimeInterval = 1) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        if waitForExit(timeout: grace) { return }
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(timeout: 2)
    }

    /// Polls until the child is reaped; false if it still runs after `timeout` seconds.
    private func waitForExit(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
