import Foundation

/// Runs a server check later, off the caller's thread. The role lets tests decide when a check
/// runs instead of waiting for the clock.
public protocol ProbeScheduler: Sendable {
    /// Runs `work` once, about `delay` from now, on a thread where it may block (a check is a
    /// bounded HTTP request).
    func run(after delay: Duration, _ work: @escaping @Sendable () -> Void)
}

/// The speaker's scheduler: one thread per check that sleeps for the delay, then runs it.
///
/// Each outage has at most one check waiting, so at most one such thread exists per brain.
public struct ThreadProbeScheduler: ProbeScheduler {
    /// A scheduler on plain threads.
    public init() {}

    /// Sleeps `delay` on a new thread named `susi-probe`, then runs `work` there.
    public func run(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.sleep(forTimeInterval: delay.seconds)
            work()
        }
        thread.name = "susi-probe"
        thread.start()
    }
}
