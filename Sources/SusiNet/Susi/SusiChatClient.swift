import Foundation
import SusiCore
import SusiModel

/// The remote brain: asks a SUSI.AI server's `/susi/chat.json` and decodes the reply.
///
/// Every failure is a `SusiAPIError` with a `brain-` code (`brain-connection-refused`,
/// `brain-dns-failure`, `brain-connect-timeout`, `brain-timeout`, `brain-http-status`,
/// `brain-rejected`, `brain-bad-json`, `brain-no-answer`, `brain-too-large`, ...), and no call
/// outlives `timeout` seconds (the HTTP client enforces it). `answer` blocks the calling
/// thread; the voice pipeline calls it from its own thread. Immutable, so any thread may use it.
public final class SusiChatClient: ChatBrain, Sendable {
    /// The chat endpoint's path.
    public static let path = "/susi/chat.json"
    /// The `device_type` sent with every query.
    public static let deviceType = "Smart Speaker"

    /// The server base URL, e.g. `https://api.susi.ai`.
    public let server: String
    /// Whole-request limit in seconds (`brain.timeout_seconds`).
    public let timeout: Double
    /// ISO 639-1 language sent as `language`.
    public let language: String
    /// Where the speaker is; sent when set.
    public let location: Config.Location
    /// The body cap; a longer reply fails with `brain-too-large`.
    public let maxResponseBytes: Int
    private let http: any HTTPClient
    private let account: AccountStore?
    private let timeZone: TimeZone?
    private let logger: Logger

    /// A client for `server`.
    ///
    /// `account` supplies the access token (sent only while valid and only to the server that
    /// issued it); `timeZone` gives `timezoneOffset` (nil: the local zone, read without
    /// loading ICU as `TimeZone.current` would).
    public init(
        server: String, timeout: Double = 5, language: String = "en", location: Config.Location = Config().location,
        http: any HTTPClient, account: AccountStore? = nil, timeZone: TimeZone? = nil,
        maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes, logger: Logger = .silent
    ) {
        self.server = server
        self.timeout = timeout
        self.language = language
        self.location = location
        self.http = http
        self.account = account
        self.timeZone = timeZone
        self.maxResponseBytes = maxResponseBytes
        self.logger = logger
    }

    /// A client configured from `config` (`brain.server`, `brain.timeout_seconds`,
    /// `brain.language`, `location.*`); `server` overrides `brain.server` (`susi ask --server`).
    public convenience init(
        config: Config, http: any HTTPClient, account: AccountStore? = nil, server: String? = nil,
        timeZone: TimeZone? = nil, logger: Logger = .silent
    ) {
        self.init(
            server: server ?? config.brain.server, timeout: config.brain.timeoutSeconds,
            language: config.brain.language,
            location: config.location, http: http, account: account, timeZone: timeZone, logger: logger)
    }

    /// Asks the server; returns a reply that has an answer, or throws a `brain-` error.
    public func answer(_ query: String) throws(SusiAPIError) -> ChatResponse {
        let request = try self.request(for: query)
        let started = ContinuousClock.now
        let response = try SusiReply.send(request, with: http, service: .chat)
        logger.debug("\(Self.path) -> \(response.status) in \(ContinuousClock.now - started)")
        return try Self.decode(response)
    }

    /// The server cannot be asked whether a partial command is complete without a round trip,
    /// so the endpointer waits the full silence for remote-only brains.
    public func understanding(of text: String) -> CommandUnderstanding? { nil }

    /// The HTTP request for `query`: parameters in the order the apps send them.
    public func request(for query: String, now: Date = Date()) throws(SusiAPIError) -> HTTPRequest {
        let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw SusiAPIError(.chat, .badInput, message: "the query is empty") }
        // UTC minus local, in minutes: CEST (UTC+2) is -120.
        let offset = -(timeZone?.secondsFromGMT(for: now) ?? Timestamp.local(now).offset) / 60
        var items: [(name: String, value: String)] = [
            ("q", trimmed), ("timezoneOffset", String(offset)), ("language", language),
            ("device_type", Self.deviceType),
        ]
        if let latitude = location.latitude, let longitude = location.longitude {
            items.append(("latitude", JSONValue.format(latitude)))
            items.append(("longitude", JSONValue.format(longitude)))
        }
        if !location.countryCode.isEmpty { items.append(("country_code", location.countryCode)) }
        if !location.countryName.isEmpty { items.append(("country_name", location.countryName)) }
        if let token = currentToken(now: now) { items.append(("access_token", token.accessToken)) }
        return HTTPRequest(
            url: SusiReply.url(server, Self.path), query: items, connectTimeout: min(timeout, 5), totalTimeout: timeout,
            maxResponseBytes: maxResponseBytes)
    }

    /// Decodes a chat reply, or names what is wrong with it.
    public static func decode(_ response: HTTPResponse) throws(SusiAPIError) -> ChatResponse {
        let object: [String: JSONValue]
        do throws(SusiAPIError) {
            object = try SusiReply.object(response, service: .chat, path: path)
        } catch  where error.kind == .unauthorized || error.kind == .notFound {
            // For the chat API every non-2xx page is the same failure class.
            throw SusiAPIError(.chat, .httpStatus, message: error.message, status: error.status, reason: error.reason)
        }
        try SusiReply.requireAccepted(object, service: .chat, path: path)
        let reply: ChatResponse
        do {
            reply = try ChatResponse.decode(response.body)
        } catch {
            throw SusiAPIError(.chat, .badJSON, message: "\(path) answered JSON that is not a chat reply")
        }
        guard let first = reply.answers.first, !first.actions.isEmpty else {
            throw SusiAPIError(.chat, .noAnswer, message: "the SUSI server had no answer for the query")
        }
        return reply
    }

    private func currentToken(now: Date) -> AccountToken? {
        guard let account else { return nil }
        switch account.state(now: now) {
        case .loggedOut:
            return nil
        case .expired:
            logger.warning("the SUSI login has expired and was removed; asking anonymously (run `susi login` again)")
            return nil
        case .loggedIn(let token):
            guard token.belongs(to: server) else { return nil }
            return token
        }
    }
}
