import Foundation
import SusiCore

/// A reply in the shape of SUSI's `/susi/chat.json`, from the public server or the built-in
/// brain alike, so one executor handles both.
///
/// Decoding accepts both layouts SUSI servers have used: newer ones send `query_language` and
/// no `count`, older ones `language` and `count`. Whichever members were present are written
/// back. A reply with no answer has `answers` empty (or missing in the JSON).
public struct ChatResponse: Sendable, Equatable, Codable {
    /// The query as the server understood it.
    public var query: String
    /// When the query arrived, e.g. `2024-03-04T10:00:00.000Z` (UTC).
    public var queryDate: String
    /// When the answer was ready, same format.
    public var answerDate: String
    /// Milliseconds spent answering.
    public var answerTime: Int
    /// Language of the query (newer servers).
    public var queryLanguage: String?
    /// Language of the query (older servers).
    public var language: String?
    /// Number of answers (older servers).
    public var count: Int?
    /// The client id the server assigned, when sent.
    public var clientID: String?
    /// The server's session object (identity of the asker), kept as received.
    public var session: JSONValue?
    /// The answers; the first is the one to act on.
    public var answers: [ChatAnswer]
    /// `false` on a soft failure (HTTP 200 with an error `message`); `nil` when not sent.
    public var accepted: Bool?
    /// The error text of a soft failure.
    public var message: String?
    /// Who answered, which bounds what the answer's actions may change
    /// (`SettingsAction.allowedKeys(from:)`). Not part of the JSON: a decoded reply came over
    /// the network and is `.server`, whatever it says; only the built-in brain sets `.builtIn`.
    public var origin: AnswerOrigin

    /// Creates a reply.
    public init(
        query: String,
        queryDate: String,
        answerDate: String,
        answerTime: Int,
        queryLanguage: String? = "en",
        language: String? = nil,
        count: Int? = nil,
        clientID: String? = nil,
        session: JSONValue? = nil,
        answers: [ChatAnswer],
        accepted: Bool? = nil,
        message: String? = nil,
        origin: AnswerOrigin = .server
    ) {
        self.query = query
        self.queryDate = queryDate
        self.answerDate = answerDate
        self.answerTime = answerTime
        self.queryLanguage = queryLanguage
        self.language = language
        self.count = count
        self.clientID = clientID
        self.session = session
        self.answers = answers
        self.accepted = accepted
        self.message = message
        self.origin = origin
    }

    private enum CodingKeys: String, CodingKey {
        case query
        case queryDate = "query_date"
        case answerDate = "answer_date"
        case answerTime = "answer_time"
        case queryLanguage = "query_language"
        case language
        case count
        case clientID = "client_id"
        case session
        case answers
        case accepted
        case message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String? {
            (try? container.decodeIfPresent(JSONValue.self, forKey: key))??.stringValue
        }
        func number(_ key: CodingKeys) -> Int? {
            (try? container.decodeIfPresent(JSONValue.self, forKey: key))??.intValue
        }
        query = text(.query) ?? ""
        queryDate = text(.queryDate) ?? ""
        answerDate = text(.answerDate) ?? ""
        answerTime = number(.answerTime) ?? 0
        queryLanguage = text(.queryLanguage)
        language = text(.language)
        count = number(.count)
        clientID = text(.clientID)
        session = try? container.decodeIfPresent(JSONValue.self, forKey: .session)
        answers = (try? container.decodeIfPresent([ChatAnswer].self, forKey: .answers)) ?? []
        accepted = (try? container.decodeIfPresent(JSONValue.self, forKey: .accepted))??.boolValue
        message = text(.message)
        origin = .server
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(query, forKey: .query)
        try container.encodeIfPresent(count, forKey: .count)
        try container.encodeIfPresent(clientID, forKey: .clientID)
        try container.encode(queryDate, forKey: .queryDate)
        try container.encode(answers, forKey: .answers)
        try container.encode(answerDate, forKey: .answerDate)
        try container.encode(answerTime, forKey: .answerTime)
        try container.encodeIfPresent(queryLanguage, forKey: .queryLanguage)
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(session, forKey: .session)
        try container.encodeIfPresent(accepted, forKey: .accepted)
        try container.encodeIfPresent(message, forKey: .message)
    }

    /// The answer to act on, if any.
    public var firstAnswer: ChatAnswer? { answers.first }

    /// The actions of the first answer (empty when there is no answer).
    public var actions: [ChatAction] { answers.first?.actions ?? [] }

    /// The skill that answered (`answers[0].skills[0]`), if named.
    public var skill: String? { answers.first?.skills.first }

    /// Whether the server answered at all (and did not report a soft failure).
    public var hasAnswer: Bool { accepted != false && !(answers.first?.actions.isEmpty ?? true) }

    /// The text spoken now for the first answer (see `ChatAnswer.spokenText`).
    public var spokenText: String { answers.first?.spokenText ?? "" }

    /// The language of the query, whichever layout the server used; `en` when neither.
    public var effectiveLanguage: String { queryLanguage ?? language ?? "en" }

    /// Formats a date as SUSI does: ISO 8601 in UTC with milliseconds.
    public static func timestamp(_ date: Date) -> String {
        Timestamp.iso8601(date, milliseconds: true)
    }

    /// Decodes a reply from JSON bytes.
    public static func decode(_ data: Data) throws -> ChatResponse {
        try JSONDecoder().decode(ChatResponse.self, from: data)
    }

    /// Encodes the reply as JSON; `pretty` adds indentation and sorted keys for people.
    public func encoded(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
