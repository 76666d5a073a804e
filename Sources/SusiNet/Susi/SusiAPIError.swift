import SusiCore

/// Why a call to a SUSI.AI server (chat, account, skill CMS) or to the web search failed.
///
/// The code is `<service>-<kind>`, e.g. `brain-timeout`, `brain-http-status`,
/// `skill-already-reported`, `account-token-expired`, `websearch-no-answer`: stable strings the
/// pipeline's `error` events and the CLI rely on. Messages never contain tokens or passwords.
public struct SusiAPIError: SusiError, Equatable {
    /// Which API failed; the prefix of `code`.
    public enum Service: String, Sendable, CaseIterable {
        /// `/susi/chat.json`: the remote brain.
        case chat = "brain"
        /// `/aaa/login.json` and the stored token.
        case account
        /// The skill CMS (`/cms/...`).
        case skill
        /// DuckDuckGo's instant answers.
        case webSearch = "websearch"
    }

    /// The failure classes; the suffix of `code`.
    public enum Kind: String, Sendable, CaseIterable {
        /// Nothing accepted the connection.
        case connectionRefused = "connection-refused"
        /// The server's host name did not resolve.
        case dnsFailure = "dns-failure"
        /// Resolving plus connecting took longer than the connect limit.
        case connectTimeout = "connect-timeout"
        /// No complete reply within the whole-request limit.
        case timeout
        /// A non-2xx reply; `status` and `reason` say which.
        case httpStatus = "http-status"
        /// HTTP 200 with `"accepted": false`; `message` carries the server's text.
        case rejected
        /// The body is not the JSON object expected.
        case badJSON = "bad-json"
        /// A well-formed reply without an answer (no answers, no actions, no text).
        case noAnswer = "no-answer"
        /// The body is larger than the client's cap.
        case tooLarge = "too-large"
        /// The configured server URL is not a usable http(s) URL.
        case badURL = "bad-url"
        /// Any other transport failure (TLS, reset, ...).
        case transport
        /// The call was cancelled by its caller.
        case cancelled
        /// Not asked: the server timed out or could not be reached a moment ago, and a
        /// background check has not found it answering since (`BackingOffChatClient`); `reason`
        /// holds the code of the failure that began the outage.
        case unavailable
        /// The operation needs a login and there is no token (`susi login` first).
        case notLoggedIn = "not-logged-in"
        /// The stored token has expired; it has been removed.
        case tokenExpired = "token-expired"
        /// The server refused the credentials or token (HTTP 401).
        case unauthorized
        /// The server does not know the skill or route (HTTP 404).
        case notFound = "not-found"
        /// The skill was already reported by this account (HTTP 422 on a report).
        case alreadyReported = "already-reported"
        /// The account file could not be written or removed.
        case storeFailed = "store-failed"
        /// A caller-side value is out of range (stars not 1-5, empty text).
        case badInput = "bad-input"
    }

    /// The API that failed.
    public let service: Service
    /// The class of failure.
    public let kind: Kind
    /// One line for a person; names the server path and the cause, never a secret.
    public let message: String
    /// The HTTP status for `httpStatus`, `unauthorized`, `notFound`, `alreadyReported`; else nil.
    public let status: Int?
    /// The reason text of a non-2xx reply: the HTML page's `<title>`, else its status line; for
    /// `unavailable`, the code of the failure that began the outage (`brain-timeout`, ...).
    public let reason: String?

    /// Creates an error.
    public init(
        _ service: Service, _ kind: Kind, message: String, status: Int? = nil, reason: String? = nil
    ) {
        self.service = service
        self.kind = kind
        self.message = message
        self.status = status
        self.reason = reason
    }

    /// Always `.brain`: every SUSI.AI call serves answering or the skills behind answers.
    public var stage: Stage { .brain }

    /// Stable kebab-case code such as `brain-connection-refused`.
    public var code: String { service.rawValue + "-" + kind.rawValue }

    /// The same failure reported for another service (a transport error met by the CMS client).
    func `as`(_ other: Service) -> SusiAPIError {
        SusiAPIError(other, kind, message: message, status: status, reason: reason)
    }

    /// Maps a transport failure of the HTTP client to this API's codes.
    static func transport(_ error: HTTPError, service: Service) -> SusiAPIError {
        let kind: Kind
        switch error.kind {
        case .connectionRefused: kind = .connectionRefused
        case .dnsFailure: kind = .dnsFailure
        case .connectTimeout: kind = .connectTimeout
        case .timeout: kind = .timeout
        case .tooLarge: kind = .tooLarge
        case .badURL: kind = .badURL
        case .cancelled: kind = .cancelled
        case .badHeader, .transport: kind = .transport
        }
        return SusiAPIError(service, kind, message: error.message)
    }
}
