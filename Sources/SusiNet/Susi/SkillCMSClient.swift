import Foundation
import SusiCore
import SusiModel

/// The skill features of the SUSI apps over the skill CMS: reviews, ratings, rating,
/// reviewing and reporting a skill.
///
/// Blocking (each call up to `timeout` seconds); call it off Swift's cooperative pool. Write
/// calls take an `AccountToken`; get one from `AccountStore.requireToken(for:)`. Errors use the
/// `skill-` codes: `skill-unauthorized` (401), `skill-not-found` (404),
/// `skill-already-reported` (422 on a report), `skill-rejected` (`accepted: false`), plus the
/// transport codes (`skill-timeout`, ...).
public struct SkillCMSClient: Sendable {
    /// What a write call (rate, review, report) got back.
    public struct WriteResult: Sendable, Equatable {
        /// The server's `message`, or empty.
        public var message: String
        /// The new ratings, when the server sent them (after rating).
        public var ratings: SkillRatings?
    }

    /// The server base URL (`brain.server`).
    public let server: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient
    private let logger: Logger

    /// A client for `server`; `timeout` is the whole-request limit.
    public init(server: String, http: any HTTPClient, timeout: Double = 10, logger: Logger = .silent) {
        self.server = server
        self.http = http
        self.timeout = timeout
        self.logger = logger
    }

    /// Every review of the skill, newest first. A skill nobody reviewed has none (the server's
    /// `accepted: false` for that case is not an error).
    public func reviews(of skill: SkillReference) throws(SusiAPIError) -> [SkillReview] {
        let object = try call("/cms/getSkillFeedback.json", skill: skill, extra: [])
        let entries = object["feedback"]?.arrayValue ?? []
        let reviews = entries.compactMap { $0.objectValue.flatMap(SkillReview.init(object:)) }
        if reviews.isEmpty, object["accepted"]?.boolValue == false, object["feedback"] == nil {
            try SusiReply.requireAccepted(object, service: .skill, path: "/cms/getSkillFeedback.json")
        }
        // Stable: reviews with equal (or unreadable) dates keep the server's order.
        return reviews.enumerated().sorted { lhs, rhs in
            switch (lhs.element.date, rhs.element.date) {
            case (let left?, let right?) where left != right: return left > right
            case (_?, nil): return true
            case (nil, _?): return false
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// The skill's five-star ratings; a skill nobody rated has `SkillRatings.none`.
    public func ratings(of skill: SkillReference) throws(SusiAPIError) -> SkillRatings {
        let path = "/cms/getSkillRating.json"
        let object = try call(path, skill: skill, extra: [])
        if let ratings = SkillRatings(reply: object) { return ratings }
        try SusiReply.requireAccepted(object, service: .skill, path: path)
        return .none
    }

    /// The stars this account gave the skill (`/cms/getRatingByUser.json`, the apps' "your
    /// rating"); nil when it has not rated it.
    public func ownRating(of skill: SkillReference, token: AccountToken) throws(SusiAPIError) -> Int? {
        let path = "/cms/getRatingByUser.json"
        guard token.belongs(to: server) else {
            throw SusiAPIError(
                .account, .notLoggedIn, message: "logged in to \(token.server), not \(server); run `susi login` first")
        }
        let object = try call(path, skill: skill, extra: [("access_token", token.accessToken)])
        try SusiReply.requireAccepted(object, service: .skill, path: path)
        // susi_server sends the stored rating object, its stars as a number or a string.
        guard let stars = object["ratings"]?["stars"], let value = stars.doubleValue ?? stars.stringValue.flatMap(Double.init),
            (1...5).contains(value)
        else { return nil }
        return Int(value.rounded())
    }

    /// Rates the skill with 1 to 5 stars; returns the server's message and the new ratings.
    public func rate(_ skill: SkillReference, stars: Int, token: AccountToken) throws(SusiAPIError) -> WriteResult {
        guard (1...5).contains(stars) else {
            throw SusiAPIError(.skill, .badInput, message: "stars must be a whole number from 1 to 5, not \(stars)")
        }
        return try write("/cms/fiveStarRateSkill.json", skill: skill, extra: [("stars", String(stars))], token: token)
    }

    /// Posts a review (the apps' "feedback") of the skill.
    public func review(_ skill: SkillReference, text: String, token: AccountToken) throws(SusiAPIError) -> WriteResult {
        let trimmed = try nonEmpty(text, what: "the review")
        return try write("/cms/feedbackSkill.json", skill: skill, extra: [("feedback", trimmed)], token: token)
    }

    /// Reports the skill (inappropriate, broken, ...) with a reason.
    ///
    /// A second report of the same skill by the same account is `skill-already-reported`.
    public func report(_ skill: SkillReference, reason: String, token: AccountToken) throws(SusiAPIError) -> WriteResult {
        let trimmed = try nonEmpty(reason, what: "the reason")
        do throws(SusiAPIError) {
            return try write("/cms/reportSkill.json", skill: skill, extra: [("feedback", trimmed)], token: token)
        } catch  where error.status == 422 {
            throw SusiAPIError(
                .skill, .alreadyReported, message: "\(skill.name) has already been reported from this account",
                status: 422, reason: error.reason)
        }
    }

    // MARK: - Calls

    private func nonEmpty(_ text: String, what: String) throws(SusiAPIError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SusiAPIError(.skill, .badInput, message: "\(what) is empty") }
        return trimmed
    }

    private func write(
        _ path: String, skill: SkillReference, extra: [(name: String, value: String)], token: AccountToken
    ) throws(SusiAPIError) -> WriteResult {
        guard token.belongs(to: server) else {
            throw SusiAPIError(
                .account, .notLoggedIn, message: "logged in to \(token.server), not \(server); run `susi login` first")
        }
        let object = try call(path, skill: skill, extra: extra + [("access_token", token.accessToken)])
        try SusiReply.requireAccepted(object, service: .skill, path: path)
        return WriteResult(message: object["message"]?.stringValue ?? "", ratings: SkillRatings(reply: object))
    }

    private func call(_ path: String, skill: SkillReference, extra: [(name: String, value: String)])
        throws(SusiAPIError) -> [String: JSONValue]
    {
        let request = HTTPRequest(
            url: SusiReply.url(server, path), query: skill.queryItems + extra,
            connectTimeout: min(timeout, 5), totalTimeout: timeout,
            maxResponseBytes: HTTPRequest.defaultMaxResponseBytes)
        let response = try SusiReply.send(request, with: http, service: .skill)
        logger.debug("\(path) \(skill) -> \(response.status)")
        return try SusiReply.object(response, service: .skill, path: path)
    }
}
