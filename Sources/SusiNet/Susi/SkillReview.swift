import Foundation
import SusiCore
import SusiModel

/// One entry of a skill's feedback list (`/cms/getSkillFeedback.json`).
///
/// The reviewer's email is kept only to derive `reviewer` and `avatarURL`; show people
/// `reviewer`, never `email` (the apps never show whole addresses).
public struct SkillReview: Sendable, Equatable {
    /// The review text.
    public var text: String
    /// The reviewer's email address, as the server sent it.
    public var email: String
    /// The reviewer's chosen name; empty when they set none.
    public var userName: String
    /// The avatar URL the server sent; empty when none.
    public var avatar: String
    /// The timestamp as sent (`2018-06-11 17:04:58.785`, ISO 8601, or epoch milliseconds).
    public var timestamp: String
    /// `timestamp` parsed, when it could be.
    public var date: Date?

    /// Creates a review.
    public init(text: String, email: String, userName: String = "", avatar: String = "", timestamp: String = "") {
        self.text = text
        self.email = email
        self.userName = userName
        self.avatar = avatar
        self.timestamp = timestamp
        date = Self.parseDate(timestamp)
    }

    /// Reads one entry of the `feedback` list leniently; nil when it has no text.
    init?(object: [String: JSONValue]) {
        let text = (object["feedback"]?.stringValue ?? object["text"]?.stringValue ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        self.init(
            text: text, email: object["email"]?.stringValue ?? "",
            userName: (object["user_name"]?.stringValue ?? "").trimmingCharacters(in: .whitespaces),
            avatar: object["avatar"]?.stringValue ?? "", timestamp: object["timestamp"]?.stringValue ?? "")
    }

    /// Who wrote it, as shown to people: `user_name`, else the email cut after the `@`
    /// plus `...` (`mario@...`), else `someone`.
    public var reviewer: String {
        if !userName.isEmpty { return userName }
        let shown = Self.anonymized(email)
        return shown.isEmpty ? "someone" : shown
    }

    /// The avatar: the server's `avatar`, else the Gravatar identicon of the MD5 of the trimmed,
    /// lower-cased email; nil when there is neither.
    public var avatarURL: String? {
        if !avatar.isEmpty { return avatar }
        return Self.gravatarURL(email: email)
    }

    /// The day of the review, `2018-06-11` (UTC); the raw timestamp when it could not be read.
    public var day: String {
        guard let date else { return timestamp }
        return Self.dayFormatter.string(from: date)
    }

    /// `mario@example.com` -> `mario@...`; text without an `@` is not an address and is kept.
    public static func anonymized(_ email: String) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let at = trimmed.firstIndex(of: "@") else { return trimmed }
        return String(trimmed[...at]) + "..."
    }

    /// `https://www.gravatar.com/avatar/MD5?d=identicon` for `email`; nil for an empty one.
    public static func gravatarURL(email: String) -> String? {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !normalized.isEmpty else { return nil }
        return "https://www.gravatar.com/avatar/\(MD5.hex(normalized))?d=identicon"
    }

    /// Reads the timestamp layouts SUSI servers have used; nil for anything else.
    static func parseDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let number = Double(trimmed), number > 0 {
            // Epoch milliseconds (13 digits today) or seconds.
            return Date(timeIntervalSince1970: number > 1e11 ? number / 1000 : number)
        }
        // Java's Timestamp.toString: "2018-06-11 17:04:58.785", fraction of any length.
        var base = trimmed
        if let dot = base.lastIndex(of: "."), base[dot...].dropFirst().allSatisfy(\.isNumber) {
            base = String(base[..<dot])
        }
        for formatter in parsers {
            if let date = formatter.date(from: base) { return date }
        }
        return try? Date(trimmed, strategy: .iso8601)
    }

    private static let parsers: [DateFormatter] = [
        "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm:ss'Z'", "yyyy-MM-dd",
        "EEE MMM dd HH:mm:ss zzz yyyy",
    ].map(formatter)

    private static let dayFormatter = formatter("yyyy-MM-dd")

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = format
        return formatter
    }
}
