import Foundation
import SusiModel

/// The skill features by voice: "rate this skill four stars", "report this skill", "what do
/// people say about this skill", "how is this skill rated", acting on the last skill that
/// answered. Each method returns the sentence to speak and, when something failed, the error
/// for the pipeline's `error` event; none throws.
///
/// Blocking (a CMS call, bounded by the client's timeout); call it from the pipeline's thread.
public struct SkillFeedbackService: Sendable {
    /// What to say, and what went wrong (nil on success).
    public struct Outcome: Sendable {
        /// The sentence to speak.
        public var text: String
        /// The failure, for an `error` event; nil when the request worked.
        public var error: SusiAPIError?
    }

    private let client: SkillCMSClient
    private let account: AccountStore

    /// A service over `client`, writing with the login in `account`.
    public init(client: SkillCMSClient, account: AccountStore) {
        self.client = client
        self.account = account
    }

    /// The skill to act on from the last reply's `answers[0].skills[0]`; nil when there was
    /// none or it was a built-in skill (those are not in the SUSI skill CMS).
    public static func skill(answeredBy reply: ChatResponse?) -> SkillReference? {
        reply?.skill.flatMap { SkillReference(answerSkill: $0) }
    }

    /// "rate this skill N stars".
    public func rate(_ skill: SkillReference?, stars: Int) -> Outcome {
        guard let skill else { return Self.noSkill }
        guard (1...5).contains(stars) else {
            return Outcome(
                text: "Please give a rating from one to five stars.",
                error: SusiAPIError(.skill, .badInput, message: "stars must be 1 to 5, not \(stars)"))
        }
        return perform(skill) { token throws(SusiAPIError) in
            _ = try client.rate(skill, stars: stars, token: token)
            return "Thanks! You rated \(Self.spokenName(skill)) \(Self.starWords(stars))."
        }
    }

    /// "report this skill" (the reason defaults to what a person says most often).
    public func report(_ skill: SkillReference?, reason: String = "Reported by voice from a SUSI smart speaker")
        -> Outcome
    {
        guard let skill else { return Self.noSkill }
        return perform(skill) { token throws(SusiAPIError) in
            _ = try client.report(skill, reason: reason, token: token)
            return "Thanks, I reported \(Self.spokenName(skill)). The SUSI team will have a look."
        }
    }

    /// "what do people say about this skill": the newest `limit` reviews, reviewers anonymised
    /// exactly as on screen (`mario at ...` is spoken as the name before the `@`).
    public func reviews(_ skill: SkillReference?, limit: Int = 3) -> Outcome {
        guard let skill else { return Self.noSkill }
        do throws(SusiAPIError) {
            let reviews = try client.reviews(of: skill)
            guard !reviews.isEmpty else {
                return Outcome(text: "Nobody has reviewed \(Self.spokenName(skill)) yet.", error: nil)
            }
            let shown = reviews.prefix(max(limit, 1))
            let count = reviews.count == 1 ? "one review" : "\(reviews.count) reviews"
            var sentences = ["The \(skill.name.replacingOccurrences(of: "_", with: " ")) skill has \(count)."]
            for review in shown {
                sentences.append("\(Self.spokenReviewer(review)) says: \(Self.sentence(review.text))")
            }
            return Outcome(text: sentences.joined(separator: " "), error: nil)
        } catch {
            return Self.failure(error, doing: "get the reviews")
        }
    }

    /// "how is this skill rated".
    public func ratings(_ skill: SkillReference?) -> Outcome {
        guard let skill else { return Self.noSkill }
        do throws(SusiAPIError) {
            let ratings = try client.ratings(of: skill)
            return Outcome(text: ratings.spokenSummary, error: nil)
        } catch {
            return Self.failure(error, doing: "get the ratings")
        }
    }

    // MARK: - Helpers

    private func perform(_ skill: SkillReference, _ body: (AccountToken) throws(SusiAPIError) -> String) -> Outcome {
        do throws(SusiAPIError) {
            let token = try account.requireToken(for: client.server)
            return Outcome(text: try body(token), error: nil)
        } catch {
            return Self.failure(error, doing: "do that")
        }
    }

    private static let noSkill = Outcome(
        text: "I don't know which skill you mean. Ask me something first, then rate or report the skill that answered.",
        error: nil)

    /// The spoken sentence for each failure class; never reads out codes or URLs.
    static func failure(_ error: SusiAPIError, doing what: String) -> Outcome {
        let text: String
        switch error.kind {
        case .notLoggedIn:
            text = "You need to log in to your SUSI account first. Run susi login on the speaker."
        case .tokenExpired, .unauthorized:
            text = "Your SUSI login has expired. Please log in again."
        case .alreadyReported:
            text = "You have already reported this skill."
        case .notFound:
            text = "The SUSI server doesn't know that skill."
        case .rejected:
            text = "The SUSI server didn't accept that\(error.reason.map { ": \($0)" } ?? ".")"
        default:
            text = "Sorry, I couldn't \(what) right now; the SUSI server isn't answering properly."
        }
        return Outcome(text: text.hasSuffix(".") ? text : text + ".", error: error)
    }

    static func spokenName(_ skill: SkillReference) -> String {
        "the \(skill.name.replacingOccurrences(of: "_", with: " ")) skill"
    }

    /// A reviewer as spoken: the user name, else the part of the address before the `@`.
    static func spokenReviewer(_ review: SkillReview) -> String {
        let shown = review.reviewer
        guard shown.hasSuffix("@...") else { return shown }
        return String(shown.dropLast(4))
    }

    static func starWords(_ stars: Int) -> String {
        ["", "one star", "two stars", "three stars", "four stars", "five stars"][min(max(stars, 0), 5)]
    }

    private static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }
}
