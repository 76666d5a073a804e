import Foundation
import SusiCore
import Synchronization

/// Runs the shell commands of `setup.on_wifi` and `setup.on_complete` in the background.
///
/// The command runs as `/bin/sh -c COMMAND` with the values it needs in environment variables
/// (`SUSI_WIFI_SSID`, ...); values are never put into the command text, so an SSID like
/// `x; rm -rf ~` is only ever data. Passwords are never passed. The hook's output is discarded
/// and its exit status logged; a hook still running after `timeout` seconds is terminated.
/// `run` returns at once, so the reply to the app goes out before a hook that reboots.
public final class HookRunner: Sendable {
    /// Seconds a hook may run before it is terminated.
    public let timeout: Double
    private let logger: Logger
    /// Hooks still running, so they stay referenced until they end and `waitForAll` can wait.
    private let running = Mutex<[ObjectIdentifier: HookProcess]>([:])

    /// A runner; `timeout` bounds each hook.
    public init(timeout: Double = 120, logger: Logger = .silent) {
        self.timeout = timeout
        self.logger = logger
    }

    /// Starts `command` (ignored when empty or only spaces) with `environment` added to this
    /// process's environment. Returns whether a hook was started.
    @discardableResult
    public func run(_ name: String, command: String, environment: [String: String]) -> Bool {
        guard !command.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let hook = HookProcess(process)
        let key = ObjectIdentifier(hook)
        let logger = self.logger
        process.terminationHandler = { [weak self] finished in
            let status = finished.terminationStatus
            if finished.terminationReason == .exit, status == 0 {
                logger.info("\(name) hook finished")
            } else {
                logger.warning("\(name) hook ended with status \(status)")
            }
            self?.running.withLock { _ = $0.removeValue(forKey: key) }
        }
        // Registered before it starts: a quick hook may end before `run()` returns.
        running.withLock { $0[key] = hook }
        do {
            try process.run()
        } catch {
            running.withLock { _ = $0.removeValue(forKey: key) }
            logger.error("\(name) hook could not start: \(error.localizedDescription)")
            return false
        }
        logger.info("\(name) hook started (pid \(process.processIdentifier))")
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            guard let self, let late = self.running.withLock({ $0[key] }) else { return }
            logger.warning("\(name) hook still running after \(Int(self.timeout)) s; terminating it")
            late.terminate()
        }
        return true
    }

    /// Waits until every started hook has ended, at most `seconds`; returns whether all did.
    public func waitForAll(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if running.withLock({ $0.isEmpty }) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return running.withLock { $0.isEmpty }
    }
}

/// A running hook's `Process`: started before it is shared, afterwards only terminated, which
/// Foundation allows from any thread.
private final class HookProcess: Sendable {
    private let process: Process

    init(_ process: Process) {
        self.process = process
    }

    func terminate() {
        if process.isRunning { process.terminate() }
    }
}
