import SusiCore
import SusiModel
import SusiNet

/// `susi skill ACTION SKILL`: one skill's reviews and ratings in the skill CMS of
/// `brain.server`, and yours (rate, review, report), over libcurl (`SkillCMSSession`), each
/// returning what to print.
///
/// Blocking, as `SkillCMSSession` is; its failures come through unchanged.
public struct SkillFeedback: Sendable {
    private let session: SkillCMSSession
    private let skill: SkillReference

    /// The skill `name` of `group` (`model`, `language`) in the CMS of `config.brain.server`,
    /// with the account of `store`; requests log to `logger`.
    public init(
        name: String, group: String, model: String, language: String, config: Config, store: ConfigStore, logger: Logger
    ) {
        skill = SkillReference(model: model, group: group, language: language, name: name)
        session = SkillCMSSession(
            config: config, store: store, http: CurlHTTPClient(stage: .brain, logger: logger), logger: logger)
    }

    /// The newest reviews (three unless `all`) as text lines, or as one JSON document with
    /// `json` (`SkillCMSSession.reviews`). The text is other people's: print it safely.
    public func reviews(all: Bool, json: Bool) throws -> [String] {
        try session.reviews(of: skill, all: all, json: json)
    }

    /// The five-star chart, then your own rating when logged in.
    public func ratings() throws -> [String] {
        try session.ratings(of: skill)
    }

    /// Rates the skill `stars` (1-5, checked by the caller); says the new average.
    public func rate(stars: Int) throws -> String {
        try session.rate(skill, stars: stars)
    }

    /// Posts a review.
    public func review(text: String) throws -> String {
        try session.review(skill, text: text)
    }

    /// Reports the skill with `reason`.
    public func report(reason: String) throws -> String {
        try session.report(skill, reason: reason)
    }
}
