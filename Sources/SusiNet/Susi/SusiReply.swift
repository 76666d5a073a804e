import Foundation
import SusiModel

/// Turns raw HTTP replies of SUSI.AI endpoints into JSON objects or typed errors, the same way
/// for chat, account and CMS calls: hard failures are non-2xx with an HTML page, soft ones
/// are 200 with `"accepted": false`.
enum SusiReply {
    /// `server` + `path` with exactly one slash between them.
    static func url(_ server: String, _ path: String) -> String {
        var base = server.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        return base + path
    }

    /// Sends `request`, mapping transport failures to `service` codes.
    static func send(_ request: HTTPRequest, with client: any HTTPClient, service: SusiAPIError.Service)
        throws(SusiAPIError) -> HTTPResponse
    {
        do throws(HTTPError) {
            return try client.send(request)
        } catch {
            throw SusiAPIError.transport(error, service: service)
        }
    }

    /// The reply's JSON object; throws for a non-2xx status or a body that is not an object.
    ///
    /// 401 and 404 get their own kinds (the CLI words them differently); other statuses are
    /// `http-status` with the reason text of the page.
    static func object(_ response: HTTPResponse, service: SusiAPIError.Service, path: String)
        throws(SusiAPIError) -> [String: JSONValue]
    {
        guard response.isSuccess else { throw statusError(response, service: service, path: path) }
        guard let value = try? JSONValue.parse(response.body), let object = value.objectValue else {
            let kind = response.body.isEmpty ? "an empty body" : "a body that is not a JSON object"
            throw SusiAPIError(service, .badJSON, message: "\(path) answered \(kind)")
        }
        return object
    }

    /// The error for a non-2xx reply, keeping the status and the reason text.
    static func statusError(_ response: HTTPResponse, service: SusiAPIError.Service, path: String)
        -> SusiAPIError
    {
        let reason = reasonText(response)
        let shown = reason.isEmpty ? "HTTP \(response.status)" : "HTTP \(response.status) \(reason)"
        let kind: SusiAPIError.Kind
        switch response.status {
        case 401, 403: kind = .unauthorized
        case 404: kind = .notFound
        default: kind = .httpStatus
        }
        return SusiAPIError(
            service, kind, message: "\(path) answered \(shown)", status: response.status, reason: reason)
    }

    /// Why a non-2xx reply failed, in a few words: the HTML `<title>`, else a JSON `message`,
    /// else the status line's reason phrase.
    static func reasonText(_ response: HTTPResponse) -> String {
        let text = response.text
        if let title = element("title", in: text) ?? element("h1", in: text), !title.isEmpty {
            return title
        }
        if let object = (try? JSONValue.parse(response.body))?.objectValue,
            let message = object["message"]?.stringValue ?? object["error"]?.stringValue,
            !message.isEmpty
        {
            return String(message.prefix(200))
        }
        return response.reason
    }

    /// The text inside the first `<name>...</name>`, tags stripped, blanks collapsed, basic
    /// entities decoded; at most 200 characters so a hostile page cannot flood a log line.
    static func element(_ name: String, in html: String) -> String? {
        guard let open = html.range(of: "<\(name)", options: .caseInsensitive),
            let openEnd = html.range(of: ">", range: open.upperBound..<html.endIndex),
            let close = html.range(
                of: "</\(name)", options: .caseInsensitive, range: openEnd.upperBound..<html.endIndex)
        else { return nil }
        var inner = String(html[openEnd.upperBound..<close.lowerBound])
        while let tag = inner.range(of: "<[^>]*>", options: .regularExpression) {
            inner.replaceSubrange(tag, with: " ")
        }
        for (entity, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", " "), ("&ndash;", "–"),
            ("&mdash;", "—"), ("&amp;", "&"),
        ] {
            inner = inner.replacingOccurrences(of: entity, with: character)
        }
        let words = inner.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return String(words.prefix(200))
    }

    /// Throws `rejected` when the object says `"accepted": false`, with the server's message.
    static func requireAccepted(_ object: [String: JSONValue], service: SusiAPIError.Service, path: String)
        throws(SusiAPIError)
    {
        guard object["accepted"]?.boolValue == false else { return }
        let text = object["message"]?.stringValue ?? ""
        throw SusiAPIError(
            service, .rejected,
            message: text.isEmpty
                ? "\(path) did not accept the request" : "\(path) did not accept the request: \(text)",
            reason: text.isEmpty ? nil : text)
    }
}
