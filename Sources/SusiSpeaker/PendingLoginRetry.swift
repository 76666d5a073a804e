import Foundation
import Synchronization

/// Retries a login the apps sent while the speaker was offline, once a minute, on its own thread.
public final class PendingLoginRetry: Sendable {
    private let account: SetupAccountLink
    private let stopped = Atomic<Bool>(false)

    /// A retry for `account`'s pending login; nothing runs before `start()`.
    public init(account: SetupAccountLink) {
        self.account = account
    }

    /// Starts the retry thread; it tries at once, then every minute until `stop()`.
    public func start() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                account.retryPending()
                for _ in 0..<600 where !stopped.load(ordering: .relaxed) {
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }
        thread.name = "susi-login-retry"
        thread.start()
    }

    /// Ends the retry thread within 0.1 s.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
