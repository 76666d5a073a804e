import Foundation

/// What a handler answers: status, content type, extra headers and body.
public struct ServerResponse: Sendable {
    /// HTTP status code.
    public var status: Int
    /// The `Content-Type` header value.
    public var contentType: String
    /// Extra headers, sent in order.
    public var headers: [(name: String, value: String)]
    /// The body; ignored for `HEAD` requests.
    public var body: Data
    /// When set, the reply is this stream of Server-Sent Events instead of `body`: sent as
    /// it is written, until it is closed, the client leaves or the server stops.
    public var stream: EventStream?

    /// Creates a response from its parts.
    public init(
        status: Int = 200, contentType: String = "application/octet-stream",
        headers: [(name: String, value: String)] = [], body: Data = Data()
    ) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A header value by case-insensitive name (content type included).
    public func header(_ name: String) -> String? {
        if name.lowercased() == "content-type" { return contentType }
        return headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The content type of every JSON reply.
    public static let jsonContentType = "application/json; charset=utf-8"

    /// An `Encodable` value as JSON (keys sorted, so replies are stable).
    /// A value that cannot be encoded becomes a 500 error reply instead.
    public static func json(_ value: some Encodable, status: Int = 200) -> ServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return ServerResponse(
                status: status, contentType: jsonContentType, body: try encoder.encode(value))
        } catch {
            return .error(
                status: 500, code: "server-encoding-failed", message: "reply could not be encoded as JSON")
        }
    }

    /// A `JSONSerialization` object (dictionaries, arrays, strings, numbers, booleans, `NSNull`)
    /// as JSON. An object JSONSerialization rejects becomes a 500 error reply instead.
    public static func json(object: Any, status: Int = 200) -> ServerResponse {
        // isValidJSONObject first: data(withJSONObject:) traps on invalid input on some platforms.
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else {
            return .error(
                status: 500, code: "server-encoding-failed", message: "reply could not be encoded as JSON")
        }
        return ServerResponse(status: status, contentType: jsonContentType, body: data)
    }

    /// A `text/event-stream` reply that sends `stream` as it is written (never cached).
    public static func eventStream(_ stream: EventStream) -> ServerResponse {
        var response = ServerResponse(
            contentType: "text/event-stream; charset=utf-8", headers: [(name: "Cache-Control", value: "no-store")])
        response.stream = stream
        return response
    }

    /// Plain UTF-8 text.
    public static func text(_ text: String, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data(text.utf8))
    }

    /// An HTML page.
    public static func html(_ html: String, status: Int = 200) -> ServerResponse {
        ServerResponse(status: status, contentType: "text/html; charset=utf-8", body: Data(html.utf8))
    }

    /// The JSON error shape every route uses: `{"error": message, "code": code}`.
    public static func error(status: Int, code: String, message: String) -> ServerResponse {
        let body = ["error": message, "code": code]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a [String: String] cannot fail; the fallback only keeps the compiler honest.
        let data = (try? encoder.encode(body)) ?? Data("{\"code\":\"\(code)\"}".utf8)
        return ServerResponse(status: status, contentType: jsonContentType, body: data)
    }

    /// 400 with a message naming what is wrong with the request.
    public static func badRequest(_ message: String, code: String = "server-bad-request")
        -> ServerResponse
    {
        .error(status: 400, code: code, message: message)
    }

    /// 404 for a path no route serves.
    public static func notFound(_ path: String = "") -> ServerResponse {
        .error(
            status: 404, code: "server-not-found",
            message: path.isEmpty ? "not found" : "no such path: \(path)")
    }

    /// 405 with an `Allow` header listing the methods the path accepts.
    public static func methodNotAllowed(_ method: String, allowed: [String]) -> ServerResponse {
        var response = ServerResponse.error(
            status: 405, code: "server-method-not-allowed",
            message: "\(method) not allowed; use \(allowed.joined(separator: ", "))")
        response.headers.append((name: "Allow", value: allowed.joined(separator: ", ")))
        return response
    }

    /// 413 for a body over the server's limit.
    public static func payloadTooLarge(limit: Int) -> ServerResponse {
        .error(
            status: 413, code: "server-body-too-large",
            message: "request body is larger than \(limit) bytes")
    }

    /// 500 for a handler that failed; the message must not leak secrets.
    public static func internalError(_ message: String, code: String = "server-internal")
        -> ServerResponse
    {
        .error(status: 500, code: code, message: message)
    }
}
