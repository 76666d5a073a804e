import Foundation
import SusiModel

/// A SUSI.AI access token with its expiry, as stored in `account.json`.
///
/// The token is a secret: `description` hides it, and nothing in this module logs it.
public struct AccountToken: Sendable, Equatable, CustomStringConvertible {
    /// The `access_token` the server issued.
    public var accessToken: String
    /// When the token stops being valid (issue time + `valid_seconds`).
    public var expiresAt: Date
    /// The account's email address, kept to show who is logged in.
    public var email: String
    /// The server that issued the token; it is only ever sent back to that server.
    public var server: String

    /// Creates a token record.
    public init(accessToken: String, expiresAt: Date, email: String, server: String) {
        self.accessToken = accessToken
        self.expiresAt = expiresAt
        self.email = email
        self.server = server
    }

    /// Whether the token is past its expiry at `now`.
    public func isExpired(at now: Date = Date()) -> Bool { now >= expiresAt }

    /// Whether the token was issued by `server` (trailing slashes and case of the host ignored).
    public func belongs(to server: String) -> Bool {
        Self.normalized(self.server) == Self.normalized(server)
    }

    /// Never shows the token itself.
    public var description: String { "token for \(email) on \(server), expires \(expiresAt)" }

    static func normalized(_ server: String) -> String {
        var text = server.trimmingCharacters(in: .whitespaces).lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The JSON object written to the account file.
    var jsonObject: JSONValue {
        [
            "access_token": .string(accessToken),
            "expires_at": .number(expiresAt.timeIntervalSince1970.rounded()),
            "email": .string(email),
            "server": .string(server),
        ]
    }

    /// Reads the account file's object; nil when a member is missing or of the wrong type.
    init?(json: JSONValue) {
        guard let token = json["access_token"]?.stringValue, !token.isEmpty,
            let expires = json["expires_at"]?.doubleValue
        else { return nil }
        accessToken = token
        expiresAt = Date(timeIntervalSince1970: expires)
        email = json["email"]?.stringValue ?? ""
        server = json["server"]?.stringValue ?? ""
    }
}
