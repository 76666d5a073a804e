import Foundation

/// One request as a handler sees it: decoded, complete and detached from the connection.
public struct ServerRequest: Sendable {
    /// Upper-case method (`GET`, `POST`, ...).
    public var method: String
    /// The path without the query, percent-decoded (`/susi/chat.json`).
    public var path: String
    /// Query parameters, decoded; for a repeated name the first value wins.
    public var query: [String: String]
    /// Fields of an `application/x-www-form-urlencoded` body, decoded; empty for other bodies.
    public var form: [String: String]
    /// Values of `:name` segments of the matched route (`/volume/:level` -> `level`).
    public var pathParameters: [String: String]
    /// Request headers, names lower-cased; repeated headers joined with `", "`.
    public var headers: [String: String]
    /// The raw body (at most `ServerLimits.maxBodyBytes`).
    public var body: Data
    /// The peer's IP address (`127.0.0.1`), or empty when unknown.
    public var remoteAddress: String

    /// Creates a request; the server builds these, tests may too.
    public init(
        method: String,
        path: String,
        query: [String: String] = [:],
        form: [String: String] = [:],
        pathParameters: [String: String] = [:],
        headers: [String: String] = [:],
        body: Data = Data(),
        remoteAddress: String = ""
    ) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.form = form
        self.pathParameters = pathParameters
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
    }

    /// A parameter from the query, else from the form (the apps use either).
    public func parameter(_ name: String) -> String? {
        query[name] ?? form[name]
    }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
