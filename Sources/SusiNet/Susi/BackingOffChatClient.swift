import SusiCore
import SusiModel
import Synchronization

/// The remote brain of the voice path: after one timeout or failed connection it stops asking
/// the server, so a hung server costs one request's wait of silence and not one per question.
///
/// While the outage lasts, `answer` throws `brain-unavailable` at once (the hybrid brain then
/// answers offline) and a background check asks `probe` "hello" on the schedule of `backoff`
/// (30 s, doubling to 4 minutes by default). When a check gets any reply in time, even an
/// error page, the next question goes to the server again. Failures that come fast (an error
/// page, a refusal, no answer) never begin an outage: they cost no waiting.
///
/// A check holds no strong reference to the client: a client that is dropped (the config
/// observer makes a new brain) stops being checked. Safe to use from several threads.
public final class BackingOffChatClient: ChatBrain, Sendable {
    /// The server, asked while no outage lasts (normally a `SusiChatClient`).
    public let remote: any ChatBrain & Sendable
    /// When to check again.
    public let backoff: ChatBackoff
    private let probe: any ChatBrain & Sendable
    private let logger: Logger
    private let state = Mutex<Outage?>(nil)

    /// The query the background check asks.
    public static let probeQuery = "hello"

    /// An outage: what began it and how many checks have failed since.
    private struct Outage {
        var cause: SusiAPIError
        var failedChecks = 0
    }

    /// Guards `remote`; `probe` is what the checks ask (an anonymous client with the same
    /// server and time limit, so a check succeeds only when a question would).
    public init(
        remote: any ChatBrain & Sendable, probe: any ChatBrain & Sendable, backoff: ChatBackoff = ChatBackoff(),
        logger: Logger = .silent
    ) {
        self.remote = remote
        self.probe = probe
        self.backoff = backoff
        self.logger = logger
    }

    /// The failure that began the current outage; nil while the server is asked.
    public var outage: SusiAPIError? { state.withLock { $0?.cause } }

    /// The server's reply; during an outage `brain-unavailable` without asking it.
    public func answer(_ query: String) throws -> ChatResponse {
        if let cause = outage {
            throw SusiAPIError(
                .chat, .unavailable,
                message: "not asked: the SUSI server \(Self.described(cause)) (\(cause.code)); answering offline "
                    + "until a background check finds it answering again",
                reason: cause.code)
        }
        do {
            return try remote.answer(query)
        } catch let error as SusiAPIError where ChatBackoff.beginsOutage(error) {
            begin(error)
            throw error
        }
    }

    /// The server cannot judge a partial command without a round trip.
    public func understanding(of text: String) -> CommandUnderstanding? { nil }

    /// Starts an outage unless one is on (two questions may fail at once), and its checks.
    private func begin(_ cause: SusiAPIError) {
        let begins = state.withLock { outage in
            guard outage == nil else { return false }
            outage = Outage(cause: cause)
            return true
        }
        guard begins else { return }
        let delay = backoff.delay(afterFailedChecks: 0)
        logger.warning("SUSI.AI \(cause.code): answering offline; asking it again in \(Self.spoken(delay))")
        schedule(after: delay)
    }

    private func schedule(after delay: Duration) {
        backoff.scheduler.run(after: delay) { [weak self] in self?.check() }
    }

    /// One background check: a reply in time ends the outage, another slow failure doubles the
    /// wait before the next.
    private func check() {
        do {
            _ = try probe.answer(Self.probeQuery)
        } catch let error as SusiAPIError where ChatBackoff.beginsOutage(error) {
            let failed = state.withLock { outage -> Int in
                outage?.failedChecks += 1
                return outage?.failedChecks ?? 0
            }
            let delay = backoff.delay(afterFailedChecks: failed)
            logger.info("SUSI.AI still \(error.code); asking it again in \(Self.spoken(delay))")
            schedule(after: delay)
            return
        } catch {
            // Any reply in time, even a refusal or an error page, shows the server is there.
        }
        state.withLock { $0 = nil }
        logger.info("SUSI.AI answers again; the next question goes to it")
    }

    /// What the server did, for the `brain-unavailable` message.
    private static func described(_ cause: SusiAPIError) -> String {
        cause.kind == .timeout ? "did not answer in time" : "could not be reached"
    }

    private static func spoken(_ delay: Duration) -> String {
        let seconds = Int(delay.seconds.rounded())
        return seconds % 60 == 0 && seconds >= 60 ? "\(seconds / 60) min" : "\(seconds) s"
    }
}
