import Foundation
import SusiModel

/// Answers a `websearch` action from DuckDuckGo's instant-answer JSON.
///
/// `GET {base}/?q=QUERY&format=json`, spoken text from `AbstractText`, else the first
/// `RelatedTopics` entry's `Text` (grouped topics searched too). Blocking, bounded by
/// `timeout`; failures are `websearch-` errors (`websearch-no-answer`, `websearch-timeout`, ...).
public struct WebSearchClient: Sendable {
    /// What the search found.
    public struct Result: Sendable, Equatable {
        /// The text to speak.
        public var text: String
        /// Where it came from (`AbstractURL` or the topic's `FirstURL`), when given.
        public var url: String?
    }

    /// The service's base URL (`websearch.url`).
    public let baseURL: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient

    /// A client for `baseURL` (`https://api.duckduckgo.com` by default in the config).
    public init(baseURL: String, http: any HTTPClient, timeout: Double = 5) {
        self.baseURL = baseURL
        self.http = http
        self.timeout = timeout
    }

    /// A client configured from `websearch.url` and `brain.timeout_seconds`.
    public init(config: Config, http: any HTTPClient) {
        self.init(baseURL: config.websearch.url, http: http, timeout: config.brain.timeoutSeconds)
    }

    /// Searches for `query`.
    public func search(_ query: String) throws(SusiAPIError) -> Result {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SusiAPIError(.webSearch, .badInput, message: "the search query is empty") }
        let request = HTTPRequest(
            url: SusiReply.url(baseURL, "/"),
            query: [("q", trimmed), ("format", "json"), ("no_html", "1"), ("skip_disambig", "1")],
            connectTimeout: min(timeout, 5), totalTimeout: timeout,
            maxResponseBytes: HTTPRequest.defaultMaxResponseBytes)
        let response = try SusiReply.send(request, with: http, service: .webSearch)
        let object = try SusiReply.object(response, service: .webSearch, path: "web search")
        if let abstract = object["AbstractText"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines),
            !abstract.isEmpty
        {
            let url = object["AbstractURL"]?.stringValue
            return Result(text: abstract, url: url?.isEmpty == false ? url : nil)
        }
        if let topic = Self.firstTopic(object["RelatedTopics"]?.arrayValue ?? []) { return topic }
        throw SusiAPIError(.webSearch, .noAnswer, message: "the web search found nothing to say about that")
    }

    /// The first topic with text; groups (`{"Name": ..., "Topics": [...]}`) are searched in order.
    private static func firstTopic(_ topics: [JSONValue]) -> Result? {
        for topic in topics {
            if let text = topic["Text"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                let url = topic["FirstURL"]?.stringValue
                let title = topic["Result"]?.stringValue.flatMap(anchorText)
                return Result(text: withoutRepeatedTitle(text, title: title), url: url?.isEmpty == false ? url : nil)
            }
            if let nested = topic["Topics"]?.arrayValue, let found = firstTopic(nested) { return found }
        }
        return nil
    }

    /// A topic's `Text` is its title followed by its description, and the description often
    /// begins with the title again ("Amazon.com Amazon.com, Inc. is ..."): the title is said
    /// once. `title` is the topic's link text when the reply gave one; without it, a run of up
    /// to eight leading words said twice in a row counts as the title.
    static func withoutRepeatedTitle(_ text: String, title: String?) -> String {
        let words = text.split(separator: " ")
        func key(_ word: Substring) -> String {
            word.lowercased().trimmingCharacters(in: .punctuationCharacters)
        }
        let lengths: [Int]
        if let title, !title.isEmpty {
            lengths = [title.split(separator: " ").count]
        } else {
            lengths = Array(1...max(1, min(8, words.count / 2)))
        }
        for length in lengths where length > 0 && 2 * length <= words.count {
            if zip(words[0..<length], words[length..<(2 * length)]).allSatisfy({ key($0) == key($1) }) {
                return words[length...].joined(separator: " ")
            }
        }
        return text
    }

    /// The text of the first `<a ...>text</a>` in `html`; nil when there is none.
    static func anchorText(_ html: String) -> String? {
        guard let open = html.range(of: "<a "), let start = html.range(of: ">", range: open.upperBound..<html.endIndex),
            let end = html.range(of: "</a>", range: start.upperBound..<html.endIndex)
        else { return nil }
        let text = html[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// What the speaker says for a `websearch` action: the result, or a polite apology.
    public func spokenAnswer(for action: WebSearchAction) -> String {
        do throws(SusiAPIError) {
            return try search(action.query).text
        } catch  where error.kind == .noAnswer || error.kind == .badInput {
            return "I searched the web but found nothing I can read out about that."
        } catch {
            return "Sorry, I couldn't reach the web search just now."
        }
    }
}
