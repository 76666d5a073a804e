import SusiBrain
import SusiCore
import SusiModel
import SusiNet
import Synchronization

/// The hybrid brain, saying once per outage that SUSI.AI is slow or cannot be reached: the
/// first answer the built-in brain gives because the server failed starts with `sentence`
/// (`slowSentence` when the server did not answer in time); later fallbacks, those the voice
/// path gives at once while it leaves the server alone (`brain-unavailable`) included, say
/// nothing more until the server has answered again.
///
/// Local intents (answered locally by choice) neither start nor end an outage. Safe to use from
/// several threads.
public final class OutageNoticeBrain: ChatBrain, Sendable {
    /// What is said when an outage begins.
    public static let sentence = "I can't reach SUSI.AI right now; here's what I know offline."
    /// What is said when an outage begins with a server that did not answer in time.
    public static let slowSentence = "SUSI.AI is too slow right now; here's what I know offline."

    /// The notice for an outage that `error` began.
    public static func notice(for error: (any SusiError)?) -> String {
        guard let error = error as? SusiAPIError else { return sentence }
        let timedOut = error.kind == .timeout || (error.kind == .unavailable && error.reason == "brain-timeout")
        return timedOut ? slowSentence : sentence
    }

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
                let notice = Self.notice(for: answer.fallbackError)
                response.answers[0].actions.insert(.answer(AnswerAction(expression: notice)), at: 0)
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
