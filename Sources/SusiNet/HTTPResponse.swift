import Foundation

/// A complete HTTP response, whatever its status.
///
/// A non-2xx status is not an error at this level: the SUSI server's hard failures carry an
/// HTML body that callers may want to log.
public struct HTTPResponse: Sendable {
    /// The status code of the final response (after redirects).
    public var status: Int
    /// The reason phrase of the status line (`"Not Found"`); empty when the server sent none
    /// (HTTP/2 never does).
    public var reason: String
    /// Response headers of the final response, names lower-cased; repeated headers are joined
    /// with `", "`.
    public var headers: [String: String]
    /// The body, decompressed if the server used a content encoding.
    public var body: Data

    /// Creates a response; used by the client and by fakes in tests.
    public init(
        status: Int, reason: String = "", headers: [String: String] = [:], body: Data = Data()
    ) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The body decoded as UTF-8, with invalid sequences replaced (never fails).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// A header by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
