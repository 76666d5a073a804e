import SusiCore

/// The HTTP methods the client sends.
public enum HTTPMethod: String, Sendable, Equatable {
    /// A plain fetch; `HTTPRequest.form` is ignored.
    case get = "GET"
    /// A form post: `HTTPRequest.form` is sent as `application/x-www-form-urlencoded`, or
    /// `HTTPRequest.body` as it is.
    case post = "POST"
}

/// One HTTP request: where, what, and how long to wait.
///
/// Values are plain data; build one per call. Names and values in `query` and `form` are
/// given decoded and are percent-encoded by the client (any UTF-8 is fine).
public struct HTTPRequest: Sendable {
    /// GET or POST.
    public var method: HTTPMethod
    /// Absolute `http` or `https` URL. It may already carry a query; `query` is appended to it.
    public var url: String
    /// Query parameters appended to `url`, in order, percent-encoded.
    public var query: [(name: String, value: String)]
    /// Form fields sent as the body of a POST, in order, percent-encoded.
    public var form: [(name: String, value: String)]
    /// A body sent as it is with a POST instead of `form` (JSON for a REST API); the caller
    /// names its type in `headers` (`Content-Type: application/json`). Nil: `form` is sent.
    public var body: String?
    /// Extra request headers, sent in order. Names must not contain `:` or line breaks;
    /// such headers are rejected with `http-bad-header`.
    public var headers: [(name: String, value: String)]
    /// Seconds allowed for name resolution plus the TCP (and TLS) connect.
    public var connectTimeout: Double
    /// Seconds allowed for the whole exchange, connect included.
    public var totalTimeout: Double
    /// The largest body accepted; a longer one aborts the transfer with `http-too-large`.
    public var maxResponseBytes: Int
    /// Whether 3xx redirects are followed (at most five, http and https only).
    public var followRedirects: Bool
    /// Lets another thread abort the transfer; `fetch` sets one up for task cancellation.
    public var cancellation: HTTPCancellation?

    /// The default body cap: 2 MiB, far above any SUSI reply and small enough for the speaker.
    public static let defaultMaxResponseBytes = 2 * 1024 * 1024

    /// Creates a request; only `url` is required.
    public init(
        method: HTTPMethod = .get,
        url: String,
        query: [(name: String, value: String)] = [],
        form: [(name: String, value: String)] = [],
        body: String? = nil,
        headers: [(name: String, value: String)] = [],
        connectTimeout: Double = 5,
        totalTimeout: Double = 10,
        maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes,
        followRedirects: Bool = true,
        cancellation: HTTPCancellation? = nil
    ) {
        self.method = method
        self.url = url
        self.query = query
        self.form = form
        self.body = body
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.followRedirects = followRedirects
        self.cancellation = cancellation
    }

    /// `url` with `query` appended, as actually requested.
    public var fullURL: String {
        guard !query.isEmpty else { return url }
        let encoded = FormEncoding.encode(query)
        // Keep a fragment out of the way: it is not sent, and the query must come before it.
        var base = url
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = String(base[..<hash])
        }
        let separator =
            base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        return base + separator + encoded + fragment
    }

    /// `url` without query and fragment, and with the password of its user part hidden
    /// (`URLRedaction`): what logs and error messages show, because SUSI queries carry access
    /// tokens and passwords, and a server URL may carry a user and password.
    public var redactedURL: String {
        URLRedaction.redacted(String(url.prefix { $0 != "?" && $0 != "#" }))
    }
}
