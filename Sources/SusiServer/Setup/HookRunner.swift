import Foundation
import SusiCore
import Synchronization

/// Runs the shell commands of `setup.on_wifi` and `setup.on_complete` in the background.
///
/// The command runs as `/bin/sh -c COMMAND` with the values it needs in environment variables
/// (`SUSI_WIFI_SSID`, ...); values are never put into the command text, so an SSID like
/// `x; rm -rf ~` is only ever data. Passwords are never passed. The hook's output is discarded
/// and its exit status logged; a hook still running after `timeout` seconds is terminated.
/// `run` returns once the hook has started, so the reply to the app goes out before a hook that
/// reboots.
public final class HookRunner: Sendable {
    /// Seconds a hook may run before it is terminated.
    public let timeout: Double
    private let logger: Logger
    /// How many hooks are still running, so `waitForAll` can wait for them.
    private let running = Mutex(0)

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
        let hook = ChildProcess(
            "/bin/sh", arguments: ["-c", command], environment: environment, capture: .nothing, timeout: timeout)
        let start = HookStart()
        let logger = self.logger
        let timeout = self.timeout
        // Counted before it starts: a quick hook may end before `run` returns.
        running.withLock { $0 += 1 }
        Thread.detachNewThread { [self] in
            defer { running.withLock { $0 -= 1 } }
            let result = hook.run { pid in
                logger.info("\(name) hook started (pid \(pid))")
                start.report(true)
            }
            switch result.end {
            case .notStarted(let reason):
                logger.error("\(name) hook could not start: \(reason)")
                start.report(false)
            case .exited(0): logger.info("\(name) hook finished")
            case .exited(let status), .signalled(let status): logger.warning("\(name) hook ended with status \(status)")
            case .timedOut: logger.warning("\(name) hook still running after \(Int(timeout)) s; terminated it")
            }
        }
        return start.wait()
    }

    /// Waits until every started hook has ended, at most `seconds`; returns whether all did.
    public func waitForAll(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if running.withLock({ $0 == 0 }) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return running.withLock { $0 == 0 }
    }
}

/// Whether a hook started, handed from the thread that runs it to the caller of `run`.
private final class HookStart: Sendable {
    private let started = Mutex<Bool?>(nil)
    private let known = DispatchSemaphore(value: 0)

    func report(_ value: Bool) {
        started.withLock { $0 = value }
        known.signal()
    }

    func wait() -> Bool {
        known.wait()
        return started.withLock { $0 } ?? false
    }
}
