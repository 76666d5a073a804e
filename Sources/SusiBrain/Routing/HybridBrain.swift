import SusiCore
import SusiModel
import Synchronization

/// `brain.mode = hybrid`: device-control and local-only intents are answered by the built-in
/// brain without waiting for the network; everything else goes to the SUSI server, and when
/// the server fails the built-in brain's reply is used instead.
///
/// Which intents stay local is `HybridRoutingPolicy`'s rule. The built-in brain answers first
/// (it is fast and offline), so its reply is ready as the fallback. After each `answer`,
/// `lastAnswer` tells whether a fallback happened and why; `onFallback` is also called then,
/// so the pipeline can emit an `error` event and still speak the local answer.
///
/// `answer` blocks for up to the remote brain's timeout. Safe to use from several threads.
public final class HybridBrain: ChatBrain, Sendable {
    /// The built-in brain.
    public let local: any ChatBrain & Sendable
    /// The SUSI server (normally a `SusiChatClient`).
    public let remote: any ChatBrain & Sendable
    /// The local-or-remote rule.
    public let policy: HybridRoutingPolicy
    private let onFallback: (@Sendable (any SusiError) -> Void)?
    private let logger: Logger
    private let last = Mutex<BrainAnswer?>(nil)

    /// Combines `local` and `remote` under `policy`; `onFallback` is called (on the answering
    /// thread) whenever the server failed and the local reply was used.
    public init(
        local: any ChatBrain & Sendable, remote: any ChatBrain & Sendable,
        policy: HybridRoutingPolicy = HybridRoutingPolicy(),
        logger: Logger = .silent, onFallback: (@Sendable (any SusiError) -> Void)? = nil
    ) {
        self.local = local
        self.remote = remote
        self.policy = policy
        self.logger = logger
        self.onFallback = onFallback
    }

    /// The outcome of the most recent `answer` or `route` call; nil before the first or when
    /// it threw.
    public var lastAnswer: BrainAnswer? { last.withLock { $0 } }

    /// The reply to `query` (see `route` for where it comes from).
    public func answer(_ query: String) throws -> ChatResponse {
        try route(query).response
    }

    /// The reply to `query` and its source.
    ///
    /// Throws only when neither brain has a reply: the server's error when the server was
    /// asked, else the built-in brain's.
    public func route(_ query: String) throws -> BrainAnswer {
        last.withLock { $0 = nil }
        var localReply: ChatResponse?
        var localError: (any Error)?
        do {
            localReply = try local.answer(query)
        } catch {
            localError = error
        }
        let outcome: BrainAnswer
        if let localReply, policy.answersLocally(localReply) {
            logger.debug("hybrid: local intent (\(localReply.skill ?? "?")), not asking the server")
            outcome = BrainAnswer(response: localReply, source: .local)
        } else {
            do {
                outcome = BrainAnswer(response: try remote.answer(query), source: .remote)
            } catch let error as any SusiError {
                guard let localReply, localReply.hasAnswer else {
                    throw error
                }
                logger.warning("hybrid: \(error.code): \(error.message); answering from the built-in brain")
                outcome = BrainAnswer(response: localReply, source: .localFallback, fallbackError: error)
                onFallback?(error)
            } catch {
                guard let localReply, localReply.hasAnswer else { throw localError ?? error }
                outcome = BrainAnswer(response: localReply, source: .localFallback)
            }
        }
        last.withLock { $0 = outcome }
        return outcome
    }

    /// Asks the built-in brain: only it can tell without a round trip.
    public func understanding(of text: String) -> CommandUnderstanding? {
        local.understanding(of: text)
    }
}
