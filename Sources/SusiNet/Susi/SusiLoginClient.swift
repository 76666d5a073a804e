import Foundation
import SusiCore
import SusiModel

/// Logs in to a SUSI.AI server: `/aaa/login.json` with `type=access-token`.
///
/// Blocking (up to `timeout` seconds); call it off Swift's cooperative pool. The password
/// only travels in the request; errors and logs never contain it or the token.
public struct SusiLoginClient: Sendable {
    /// The server base URL (`brain.server`).
    public let server: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient
    private let logger: Logger

    /// The login endpoint's path.
    public static let path = "/aaa/login.json"

    /// A client for `server`; `timeout` is the whole-request limit (`brain.timeout_seconds`).
    public init(server: String, http: any HTTPClient, timeout: Double = 10, logger: Logger = .silent) {
        self.server = server
        self.http = http
        self.timeout = timeout
        self.logger = logger
    }

    /// Why a login was refused, for people: SUSI answers wrong credentials with 401 or 422 and
    /// a page whose title is often just the status phrase ("Unprocessable Entity"), which says
    /// nothing to an owner. A reason that says more (not activated, blocked) is kept.
    public static func cause(status: Int?, reason: String?) -> String {
        let text = (reason ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = text.lowercased()
        if lower.contains("not verified") || lower.contains("not activated") || lower.contains("activate") {
            return "the account is not activated yet; follow the link in the email SUSI.AI sent (\(text))"
        }
        if lower.contains("too many") || lower.contains("blocked") || lower.contains("locked") {
            return "too many failed logins; wait a while and try again (\(text))"
        }
        let generic = [
            "", "unprocessable entity", "unauthorized", "forbidden", "invalid credentials", "invalid login",
            "authentication failed",
        ]
        let bare = lower.replacingOccurrences(of: "error \(status ?? 0)", with: "").trimmingCharacters(in: .whitespaces)
        if generic.contains(bare) || bare.hasPrefix("http ") {
            return "wrong email or password"
        }
        return "wrong email or password, or the account cannot log in (\(text))"
    }

    /// Asks for an access token; returns it with its expiry (now + `valid_seconds`).
    ///
    /// Throws `account-unauthorized` for refused credentials (HTTP 401/403), `account-rejected`
    /// for `"accepted": false`, `account-bad-json` when no token came back, and the transport
    /// codes (`account-connection-refused`, `account-timeout`, ...).
    public func logIn(email: String, password: String, now: Date = Date()) throws(SusiAPIError) -> AccountToken {
        let email = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !email.isEmpty else { throw SusiAPIError(.account, .badInput, message: "the email address is empty") }
        guard !password.isEmpty else { throw SusiAPIError(.account, .badInput, message: "the password is empty") }
        let request = HTTPRequest(
            url: SusiReply.url(server, Self.path),
            query: [("login", email), ("password", password), ("type", "access-token")],
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: 256 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object: [String: JSONValue]
        do throws(SusiAPIError) {
            object = try SusiReply.object(response, service: .account, path: Self.path)
        } catch  where error.kind == .unauthorized || error.status == 422 {
            // SUSI answers wrong credentials with 401 or 422 and an HTML page.
            throw SusiAPIError(
                .account, .unauthorized,
                message:
                    "the server refused the login for \(SkillReview.anonymized(email)): "
                    + Self.cause(status: error.status, reason: error.reason),
                status: error.status, reason: error.reason)
        }
        try SusiReply.requireAccepted(object, service: .account, path: Self.path)
        guard let token = object["access_token"]?.stringValue, !token.isEmpty else {
            throw SusiAPIError(.account, .badJSON, message: "\(Self.path) answered without an access_token")
        }
        // A reply without a lifetime gets SUSI's usual one (seven days) rather than none.
        let seconds = object["valid_seconds"]?.doubleValue ?? 604_800
        logger.info("logged in as \(SkillReview.anonymized(email)) on \(URLRedaction.redacted(server))")
        return AccountToken(
            accessToken: token, expiresAt: now.addingTimeInterval(max(seconds, 0)), email: email, server: server)
    }
}
