/// How long the speaker leaves a slow or unreachable SUSI server alone: which failures begin an
/// outage, and when a background check asks the server again.
///
/// The first check comes `first` after the failure; each check that fails doubles the wait, up
/// to `longest`. With the defaults a server that stays away is asked after 30 s, then 1, 2 and
/// 4 minutes, then every 4 minutes; meanwhile every question is answered offline at once.
public struct ChatBackoff: Sendable {
    /// The wait before the first check.
    public var first: Duration
    /// The longest wait between checks.
    public var longest: Duration
    /// Runs the checks; tests hand in one they fire themselves.
    public var scheduler: any ProbeScheduler

    /// A back-off of `first` doubling to `longest`.
    public init(
        first: Duration = .seconds(30), longest: Duration = .seconds(240),
        scheduler: any ProbeScheduler = ThreadProbeScheduler()
    ) {
        self.first = first
        self.longest = max(first, longest)
        self.scheduler = scheduler
    }

    /// The wait before the next check once `failedChecks` checks have failed.
    public func delay(afterFailedChecks failedChecks: Int) -> Duration {
        var delay = first
        for _ in 0..<max(0, failedChecks) where delay < longest {
            delay = min(delay * 2, longest)
        }
        return delay
    }

    /// Whether `error` means the server is slow or out of reach, so asking again at once would
    /// cost the same wait: no reply in time, no connection, no name, a broken transfer. A
    /// server that answers, even with an error page or a refusal, is there.
    public static func beginsOutage(_ error: SusiAPIError) -> Bool {
        switch error.kind {
        case .timeout, .connectTimeout, .connectionRefused, .dnsFailure, .transport:
            return true
        default:
            return false
        }
    }
}
