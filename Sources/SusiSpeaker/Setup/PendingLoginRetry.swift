import Foundation
import Synchronization

/// Retries a login the apps sent while the speaker was offline, and adds the speaker to the
/// linked account's device list (`DeviceRegistration`), once a minute, on its own thread.
public final class PendingLoginRetry: Sendable {
    private let account: SetupAccountLink
    private let registration: DeviceRegistration?
    private let stopped = Atomic<Bool>(false)
    private let nudged = Atomic<Bool>(false)

    /// A retry for `account`'s pending login and, when given, `registration`; nothing runs
    /// before `start()`.
    public init(account: SetupAccountLink, registration: DeviceRegistration? = nil) {
        self.account = account
        self.registration = registration
    }

    /// Starts the retry thread; it tries at once, then every minute (or sooner after `nudge()`)
    /// until `stop()`.
    public func start() {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                account.retryPending()
                registration?.registerIfNeeded()
                for _ in 0..<600 where !stopped.load(ordering: .relaxed) {
                    if nudged.exchange(false, ordering: .relaxed) { break }
                    Thread.sleep(forTimeInterval: 0.1)
                }
            }
        }
        thread.name = "susi-login-retry"
        thread.start()
    }

    /// Runs the next round within 0.1 s (the apps' `/auth` has just linked an account).
    public func nudge() {
        nudged.store(true, ordering: .relaxed)
    }

    /// Ends the retry thread within 0.1 s.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }
}
