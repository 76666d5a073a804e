import Foundation
import SusiCore
import Synchronization

/// Warnings that a flood of bad requests would repeat thousands of times, logged at most once
/// per `interval` for each kind; the next one logged says how many were left out.
///
/// Safe to use from any thread.
public final class WarningLimiter: Sendable {
    private let logger: Logger
    private let interval: Double
    private let now: @Sendable () -> Date
    private let kinds = Mutex<[String: Kind]>([:])

    private struct Kind {
        var lastLogged: Date
        var suppressed: Int
    }

    /// Warnings to `logger`, each kind at most once per `interval` seconds.
    public init(logger: Logger, interval: Double = 10, now: @escaping @Sendable () -> Date = Date.init) {
        self.logger = logger
        self.interval = interval
        self.now = now
    }

    /// Logs `message` as a warning unless a warning of `kind` was logged less than `interval`
    /// ago (then it is only counted). Returns whether it was logged.
    @discardableResult
    public func warn(_ kind: String, _ message: @autoclosure () -> String) -> Bool {
        let moment = now()
        let left: Int? = kinds.withLock { kinds in
            if let last = kinds[kind], moment.timeIntervalSince(last.lastLogged) < interval {
                kinds[kind]?.suppressed += 1
                return nil
            }
            defer { kinds[kind] = Kind(lastLogged: moment, suppressed: 0) }
            return kinds[kind]?.suppressed ?? 0
        }
        guard let left else { return false }
        logger.warning(left > 0 ? "\(message()) (and \(left) more like it since the last such warning)" : message())
        return true
    }
}
