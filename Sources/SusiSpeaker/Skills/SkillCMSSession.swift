import Foundation
import SusiCore
import SusiModel
import SusiNet

/// `susi skill ...`: the SUSI apps' skill features against the skill CMS of `brain.server`,
/// each returning what to print. Writes use the login kept beside the config.
///
/// Blocking (one CMS call or two, each bounded by `timeout`). A CMS failure is reworded as one
/// line naming the skill (`SkillCMSRequestError`, keeping the client's code).
public struct SkillCMSSession: Sendable {
    /// Reviews shown without `all`.
    public static let defaultReviewCount = 3

    /// The CMS of `brain.server`.
    public let client: SkillCMSClient
    private let account: AccountStore

    /// A session with the CMS of `config.brain.server`, over `http`, with the account of `store`.
    /// Requests may take `max(brain.timeout_seconds, 10)` seconds: the CMS is slower than chat.
    public init(config: Config, store: ConfigStore, http: any HTTPClient, logger: Logger) {
        client = SkillCMSClient(
            server: config.brain.server, http: http, timeout: max(config.brain.timeoutSeconds, 10), logger: logger)
        account = AccountStore(configStore: store)
    }

    /// The newest reviews (`defaultReviewCount` unless `all`): as text lines (reviewers never
    /// by full address; the text is other people's, so the caller strips terminal codes), or
    /// as one JSON document with `json`.
    public func reviews(of skill: SkillReference, all: Bool, json: Bool) throws -> [String] {
        let reviews = try explained(skill, "read the reviews of") { try client.reviews(of: skill) }
        let shown = all ? reviews : Array(reviews.prefix(Self.defaultReviewCount))
        if json { return [try Self.reviewsJSON(skill, reviews: shown, total: reviews.count)] }
        return Self.reviewLines(skill, reviews: shown, total: reviews.count)
    }

    /// The five-star chart, then your own rating when logged in.
    public func ratings(of skill: SkillReference) throws -> [String] {
        let ratings = try explained(skill, "read the ratings of") { try client.ratings(of: skill) }
        var lines = ["Ratings of \(skill)"] + ratings.chartLines()
        if let login = account.token(for: client.server) {
            let own = try explained(skill, "read your rating of") { try client.ownRating(of: skill, token: login) }
            lines.append(own.map { "Your rating: \($0) star\($0 == 1 ? "" : "s")" } ?? "You have not rated it yet.")
        }
        return lines
    }

    /// Rates the skill 1-5 stars (the caller checks the range); says the new average.
    /// - Throws: `SusiAPIError` (`notLoggedIn`, `tokenExpired`) without a login.
    public func rate(_ skill: SkillReference, stars: Int) throws -> String {
        let login = try account.requireToken(for: client.server)
        let result = try explained(skill, "rate") { try client.rate(skill, stars: stars, token: login) }
        var line = "Rated \(skill.name) \(stars) star\(stars == 1 ? "" : "s")"
        if let ratings = result.ratings, ratings.total > 0 {
            line +=
                "; it now averages \(String(format: "%.1f", ratings.average)) from \(ratings.total) rating\(ratings.total == 1 ? "" : "s")"
        }
        return line + "."
    }

    /// Posts a review.
    public func review(_ skill: SkillReference, text: String) throws -> String {
        let login = try account.requireToken(for: client.server)
        _ = try explained(skill, "review") { try client.review(skill, text: text, token: login) }
        return "Posted your review of \(skill.name)."
    }

    /// Reports the skill with `reason`.
    public func report(_ skill: SkillReference, reason: String) throws -> String {
        let login = try account.requireToken(for: client.server)
        _ = try explained(skill, "report") { try client.report(skill, reason: reason, token: login) }
        return "Reported \(skill.name); thank you."
    }

    /// The text listing: a header, each review (reviewer, day, indented text), and how many
    /// more `--all` would show.
    static func reviewLines(_ skill: SkillReference, reviews: [SkillReview], total: Int) -> [String] {
        guard total > 0 else { return ["\(skill): no reviews yet"] }
        var lines = ["\(skill): \(total) review\(total == 1 ? "" : "s")"]
        for review in reviews {
            lines.append("")
            lines.append(review.day.isEmpty ? review.reviewer : "\(review.reviewer), \(review.day)")
            // "\r\n" is one Character, and a bare "\r" a line end too: split on every newline.
            for textLine in review.text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
                lines.append("  " + textLine)
            }
        }
        if total > reviews.count {
            lines.append("")
            lines.append("\(total - reviews.count) more, use --all")
        }
        return lines
    }

    /// The shown reviews with reviewer, date, text and avatar URL (no addresses).
    static func reviewsJSON(_ skill: SkillReference, reviews: [SkillReview], total: Int) throws -> String {
        let entries: [JSONValue] = reviews.map { review in
            [
                "reviewer": .string(review.reviewer), "date": .string(review.day),
                "timestamp": .string(review.timestamp),
                "text": .string(review.text), "avatar": review.avatarURL.map(JSONValue.string) ?? .null,
            ]
        }
        let object: JSONValue = [
            "skill": [
                "model": .string(skill.model), "group": .string(skill.group), "language": .string(skill.language),
                "name": .string(skill.name),
            ],
            "total": .number(Double(total)), "more": .number(Double(total - reviews.count)), "reviews": .array(entries),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(object), as: UTF8.self)
    }

    /// Runs a CMS call and rewords its failure as one clear line naming the skill.
    private func explained<T>(_ skill: SkillReference, _ doing: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SusiAPIError {
            throw SkillCMSRequestError(error, skill: skill, doing: doing)
        }
    }
}

/// A skill CMS failure worded for the command line; keeps the client's code.
public struct SkillCMSRequestError: SusiError {
    /// The client's code (`api-unauthorized`, `api-not-found`, ...).
    public let code: String
    /// One line naming the skill and what to do.
    public let message: String
    /// Always `.brain`.
    public var stage: Stage { .brain }

    /// `error` met while trying to `doing` (`"rate"`, `"read the reviews of"`) `skill`.
    init(_ error: SusiAPIError, skill: SkillReference, doing: String) {
        code = error.code
        switch error.kind {
        case .unauthorized:
            message = "the server refused the login (HTTP \(error.status ?? 401)); run `susi login` again"
        case .notFound:
            message = "the server does not know the skill \(skill) (HTTP \(error.status ?? 404))"
        case .alreadyReported:
            message = "you have already reported \(skill.name) (HTTP 422)"
        case .rejected:
            message = "the server did not accept the request to \(doing) \(skill.name): \(error.reason ?? "no reason given")"
        default:
            message = "could not \(doing) \(skill.name): \(error.message)"
        }
    }
}
