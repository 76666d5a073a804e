import SusiBrain
import SusiCore
import Synchronization

/// The hybrid brain, saying once per outage that SUSI.AI cannot be reached: the first answer
/// the built-in brain gives because the server failed starts with `sentence`; later fallbacks
/// say nothing more until the server has answered again.
///
/// Local intents (answered locally by choice) neither start nor end an outage. Safe to use from
/// several threads.
public final class OutageNoticeBrain: ChatBrain, Sendable {
    /// What is said when an outage begins.
    public static let sentence = "I can't reach SUSI.AI right now; here's what I know offline."

    /// The brain whose fallbacks are announced.
    public let hybrid: HybridBrain
    private let inOutage = Mutex(false)

    /// Announces `hybrid`'s fallbacks.
    public init(_ hybrid: HybridBrain) {
        self.hybrid = hybrid
    }

    /// The hybrid brain's reply, with `sentence` before it when an outage has just begun.
    public func answer(_ query: String) throws -> ChatResponse {
        let answer = try hybrid.route(query)
        var response = answer.response
        switch answer.source {
        case .remote:
            inOutage.withLock { $0 = false }
        case .localFallback:
            let begins = inOutage.withLock { outage in
                defer { outage = true }
                return !outage
            }
            if begins, !response.answers.isEmpty {
                response.answers[0].actions.insert(.answer(AnswerAction(expression: Self.sentence)), at: 0)
            }
        case .local:
            break
        }
        return response
    }

    /// The hybrid brain's cheap check.
    public func understanding(of text: String) -> CommandUnderstanding? {
        hybrid.understanding(of: text)
    }
}
