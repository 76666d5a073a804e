import Foundation

/// Refuses what a web page in the owner's browser could forge, before any route runs.
///
/// - `Host` must name this machine: an IP literal, `localhost`, the machine's hostname, or a
///   `.local` name (mDNS). Any other name means DNS rebinding: a page whose domain was
///   pointed at the speaker's address. 403 `server-bad-host`. Only `GET`/`HEAD` of
///   `openPaths` (the static page `/`, which holds nothing personal) answer under any name,
///   so a phone that a captive portal sends to some other name still finds the page. While
///   `landing` names a page (the first-setup hotspot is open), every `GET`/`HEAD` under another
///   name is redirected there instead (302), the captive-portal answer phones expect.
/// - A foreign `Origin` (another site's page, or `null` from a sandbox or file) is refused:
///   403 `server-foreign-origin`. The apps and command-line clients send none.
/// - `Sec-Fetch-Site: cross-site` is refused except for following a link to the page itself
///   (`GET /`): 403 `server-cross-site`. It stops `<img src=...>` on a setup route.
/// - A body must be `application/json` or `application/x-www-form-urlencoded`, the two kinds
///   the routes read; a `text/plain` or multipart body is 415 `server-unsupported-media-type`.
///
/// A request without `Host` (HTTP/1.0) is judged by the rest; libmicrohttpd refuses an
/// HTTP/1.1 request without one.
public struct RequestPolicy: Sendable {
    /// The machine's names, lower-case, that `Host` may carry besides IP literals, `localhost`
    /// and `*.local`.
    public let hostnames: Set<String>
    /// Paths whose `GET` and `HEAD` answer under any `Host`: static, public content only.
    public let openPaths: Set<String>
    /// The captive-portal landing page (`http://10.0.0.1:5000/`) while there is one, else nil.
    ///
    /// While it names a page, a `GET` or `HEAD` under a name that is not the speaker's (a
    /// phone's captive-portal check such as `captive.apple.com/hotspot-detect.html` or
    /// `connectivitycheck.gstatic.com/generate_204`, or any page it opens) is answered with a
    /// redirect there, so the phone shows the setup page under the speaker's own address, where
    /// the page's own requests pass the `Host` check. DNS rebinding gains nothing from it: no
    /// route runs under the foreign name, the reply holds no data, and it leads to another
    /// origin, which the rebinding page cannot read. Anything but `GET`/`HEAD` is still 403.
    /// Called only for requests under a foreign name.
    public let landing: @Sendable () -> String?

    /// A policy accepting `hostnames` (default: this machine's hostname) as the speaker's names;
    /// `openPaths` may be read under any name; foreign names are sent to `landing` while it
    /// returns a page (default: never).
    public init(
        hostnames: [String] = [ProcessInfo.processInfo.hostName], openPaths: Set<String> = ["/"],
        landing: @escaping @Sendable () -> String? = { nil }
    ) {
        self.hostnames = Set(hostnames.map { $0.lowercased() }.filter { !$0.isEmpty })
        self.openPaths = openPaths
        self.landing = landing
    }

    /// The reply refusing `request`, or nil when it may go on.
    public func refusal(for request: ServerRequest) -> ServerResponse? {
        let host = request.header("host")
        let isRead = ["GET", "HEAD"].contains(request.method)
        let isForeign = host.map { !isAllowedHost($0) } ?? false
        if isForeign, isRead, let page = landing() {
            return Self.redirect(to: page)
        }
        let isOpenRead = isRead && openPaths.contains(request.path)
        if isForeign, !isOpenRead {
            return .error(
                status: 403, code: "server-bad-host",
                message: "this speaker answers only to its IP address, localhost, its hostname or a .local name")
        }
        if let origin = request.header("origin"), !isSameOrigin(origin, host: host) {
            return .error(
                status: 403, code: "server-foreign-origin", message: "requests from other web pages are refused")
        }
        if request.header("sec-fetch-site")?.lowercased() == "cross-site",
            !(["GET", "HEAD"].contains(request.method) && request.path == "/")
        {
            return .error(
                status: 403, code: "server-cross-site", message: "requests from other web pages are refused")
        }
        if !request.body.isEmpty {
            let type = (request.header("content-type") ?? "").lowercased()
            let essence = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard ["application/json", "application/x-www-form-urlencoded"].contains(essence) else {
                return .error(
                    status: 415, code: "server-unsupported-media-type",
                    message: "send the body as application/json (or a form as application/x-www-form-urlencoded)")
            }
        }
        return nil
    }

    /// `302 Found` to `page`, never cached (the same name answers differently once the hotspot
    /// closes), with a link for clients that do not follow redirects.
    static func redirect(to page: String) -> ServerResponse {
        let shown = page.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;")
        return ServerResponse(
            status: 302, contentType: "text/html; charset=utf-8",
            headers: [(name: "Location", value: page), (name: "Cache-Control", value: "no-store")],
            body: Data("<!doctype html><title>SUSI.AI setup</title><a href=\"\(shown)\">SUSI.AI setup</a>\n".utf8))
    }

    /// Whether `host` (a `Host` header: name or address, optional port) names this machine.
    public func isAllowedHost(_ host: String) -> Bool {
        guard let name = Self.hostName(host) else { return false }
        if name == "localhost" || hostnames.contains(name) { return true }
        if name.hasSuffix(".local"), name.count > ".local".count { return true }
        return Self.isIPLiteral(name)
    }

    /// `Origin` is `http(s)://` plus exactly the request's `Host`.
    private func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        let lowered = origin.lowercased()
        return lowered == "http://" + host.lowercased() || lowered == "https://" + host.lowercased()
    }

    /// The name or address of a `Host` value, lower-case, without port, brackets or a final
    /// dot; nil when it is malformed.
    static func hostName(_ host: String) -> String? {
        var text = host.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber)) else { return nil }
            return String(text[text.index(after: text.startIndex)..<close])
        }
        if let colon = text.lastIndex(of: ":") {
            guard text[text.index(after: colon)...].allSatisfy(\.isNumber) else { return nil }
            text = String(text[..<colon])
        }
        if text.hasSuffix(".") { text.removeLast() }
        guard !text.isEmpty,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
                || isIPLiteral(text)
        else { return nil }
        return text
    }

    /// An IPv4 dotted quad or an IPv6 address.
    static func isIPLiteral(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
