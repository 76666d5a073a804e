import Foundation
import SusiCore
import SusiModel

/// The SUSI.AI account's endpoints: logging in (`/aaa/login.json` with `type=access-token`),
/// and adding the speaker to the account's device list and taking it off again.
///
/// Adding is `/aaa/addNewDevice.json` with `macid`, `name`, `room`, optional
/// `latitude`/`longitude`, and the account's `access_token` (the parameters of SUSI server's
/// AddNewDevice servlet, as susi_linux sent them). Adding the same `macid` again replaces the
/// entry, so it is safe to repeat.
///
/// Blocking (up to `timeout` seconds); call it off Swift's cooperative pool. The password
/// only travels in the request; errors and logs never contain it or the token.
public struct SusiAccountClient: Sendable {
    /// The server base URL (`brain.server`).
    public let server: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient
    private let logger: Logger

    /// The login endpoint's path.
    public static let loginPath = "/aaa/login.json"
    /// The path that adds a device to the account's list.
    public static let addDevicePath = "/aaa/addNewDevice.json"
    /// The path that takes a device off the account's list (`macid`, `access_token`), as
    /// SUSI's web client calls it.
    public static let removeDevicePath = "/aaa/removeUserDevices.json"

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
            url: SusiReply.url(server, Self.loginPath),
            query: [("login", email), ("password", password), ("type", "access-token")],
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: 256 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object: [String: JSONValue]
        do throws(SusiAPIError) {
            object = try SusiReply.object(response, service: .account, path: Self.loginPath)
        } catch  where error.kind == .unauthorized || error.status == 422 {
            // SUSI answers wrong credentials with 401 or 422 and an HTML page.
            throw SusiAPIError(
                .account, .unauthorized,
                message:
                    "the server refused the login for \(SkillReview.anonymized(email)): "
                    + Self.cause(status: error.status, reason: error.reason),
                status: error.status, reason: error.reason)
        }
        try SusiReply.requireAccepted(object, service: .account, path: Self.loginPath)
        guard let token = object["access_token"]?.stringValue, !token.isEmpty else {
            throw SusiAPIError(.account, .badJSON, message: "\(Self.loginPath) answered without an access_token")
        }
        // A reply without a lifetime gets SUSI's usual one (seven days) rather than none.
        let seconds = object["valid_seconds"]?.doubleValue ?? 604_800
        logger.info("logged in as \(SkillReview.anonymized(email)) on \(URLRedaction.redacted(server))")
        return AccountToken(
            accessToken: token, expiresAt: now.addingTimeInterval(max(seconds, 0)), email: email, server: server)
    }

    /// Registers `device` with the account of `token`.
    ///
    /// Throws `account-bad-input` for a MAC the server would refuse, `account-unauthorized`
    /// when the token is not accepted (401/403), `account-rejected` for `"accepted": false`,
    /// and the transport codes (`account-connection-refused`, `account-timeout`, ...) offline.
    public func add(_ device: DeviceEntry, token: AccountToken) throws(SusiAPIError) {
        guard DeviceEntry.isMAC(device.macid) else {
            throw SusiAPIError(.account, .badInput, message: "not a MAC address: \(device.macid)")
        }
        var query = [("macid", device.macid), ("name", device.name), ("room", device.room)]
        if let latitude = device.latitude, let longitude = device.longitude {
            query += [("latitude", String(latitude)), ("longitude", String(longitude))]
        }
        query.append(("access_token", token.accessToken))
        let request = HTTPRequest(
            url: SusiReply.url(server, Self.addDevicePath), query: query, connectTimeout: min(timeout, 5), totalTimeout: timeout,
            maxResponseBytes: 64 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object = try SusiReply.object(response, service: .account, path: Self.addDevicePath)
        try SusiReply.requireAccepted(object, service: .account, path: Self.addDevicePath)
        logger.info(
            "registered \(device.macid) as \"\(device.name)\" in \(device.room.isEmpty ? "no room" : device.room) on \(URLRedaction.redacted(server))"
        )
    }

    /// Takes the device `macid` off the account of `token`'s device list.
    ///
    /// Throws as `add` does: `account-bad-input` for a MAC the server would refuse (nothing
    /// is sent), `account-unauthorized`, `account-rejected`, and the transport codes offline.
    public func remove(macid: String, token: AccountToken) throws(SusiAPIError) {
        guard DeviceEntry.isMAC(macid) else {
            throw SusiAPIError(.account, .badInput, message: "not a MAC address: \(macid)")
        }
        let request = HTTPRequest(
            url: SusiReply.url(server, Self.removeDevicePath), query: [("macid", macid), ("access_token", token.accessToken)],
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: 64 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object = try SusiReply.object(response, service: .account, path: Self.removeDevicePath)
        try SusiReply.requireAccepted(object, service: .account, path: Self.removeDevicePath)
        logger.info("removed \(macid) from the account's devices on \(URLRedaction.redacted(server))")
    }
}
