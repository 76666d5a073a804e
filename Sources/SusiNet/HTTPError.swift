import SusiCore

/// Why an HTTP exchange failed before a complete response arrived.
///
/// A response with a non-2xx status is not an `HTTPError`; see `HTTPResponse.status`.
public struct HTTPError: SusiError, Equatable {
    /// The failure classes callers branch on; each has a stable code.
    public enum Kind: String, Sendable, CaseIterable {
        /// The URL is malformed or not http/https.
        case badURL = "http-bad-url"
        /// A request header cannot be sent (line break or colon in the name).
        case badHeader = "http-bad-header"
        /// Nothing accepted the connection (refused or unreachable).
        case connectionRefused = "http-connection-refused"
        /// The host name did not resolve.
        case dnsFailure = "http-dns-failure"
        /// Resolving plus connecting took longer than `connectTimeout`.
        case connectTimeout = "http-connect-timeout"
        /// The whole exchange took longer than `totalTimeout`.
        case timeout = "http-timeout"
        /// The body exceeded `maxResponseBytes`; the transfer was aborted.
        case tooLarge = "http-too-large"
        /// The caller cancelled the transfer.
        case cancelled = "http-cancelled"
        /// Any other transport failure (TLS, protocol, reset connection, ...).
        case transport = "http-transport"
    }

    /// The class of failure.
    public let kind: Kind
    /// The pipeline stage reported in `error` events; chosen by the client's owner.
    public let stage: Stage
    /// One line naming the URL and the cause.
    public let message: String

    /// Creates an error; the client builds these, tests and fakes may too.
    public init(_ kind: Kind, stage: Stage = .brain, message: String) {
        self.kind = kind
        self.stage = stage
        self.message = message
    }

    /// Stable kebab-case code, e.g. `http-timeout`.
    public var code: String { kind.rawValue }
}
