import Foundation
import SusiCore

/// What the SUSI account's device list shows for this speaker.
public struct DeviceEntry: Sendable, Equatable {
    /// The MAC address the server keys the device by (`aa:bb:cc:dd:ee:ff`).
    public var macid: String
    /// The device's name.
    public var name: String
    /// The room the apps set.
    public var room: String
    /// Where the speaker is, when known.
    public var latitude: Double?
    /// Where the speaker is, when known.
    public var longitude: Double?

    /// An entry.
    public init(macid: String, name: String, room: String, latitude: Double? = nil, longitude: Double? = nil) {
        self.macid = macid
        self.name = name
        self.room = room
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether `text` is a MAC address as the server accepts it: six pairs of hex digits
    /// separated by `:` or `-`.
    public static func isMAC(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        let dashed = text.split(separator: "-", omittingEmptySubsequences: false)
        let parts = pairs.count == 6 ? pairs : dashed
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

/// Adds the speaker to the SUSI account's device list: `/aaa/addNewDevice.json` with `macid`,
/// `name`, `room`, optional `latitude`/`longitude`, and the account's `access_token` (the
/// parameters of SUSI server's AddNewDevice servlet, as susi_linux sent them). Adding the same
/// `macid` again replaces the entry, so it is safe to repeat.
///
/// Blocking (up to `timeout` seconds); call it off Swift's cooperative pool. The token never
/// appears in errors or logs.
public struct SusiDeviceClient: Sendable {
    /// The server base URL (`brain.server`).
    public let server: String
    /// Whole-request limit in seconds.
    public let timeout: Double
    private let http: any HTTPClient
    private let logger: Logger

    /// The endpoint's path.
    public static let path = "/aaa/addNewDevice.json"
    /// The path that takes a device off the account's list (`macid`, `access_token`), as
    /// SUSI's web client calls it.
    public static let removePath = "/aaa/removeUserDevices.json"

    /// A client for `server`.
    public init(server: String, http: any HTTPClient, timeout: Double = 10, logger: Logger = .silent) {
        self.server = server
        self.http = http
        self.timeout = timeout
        self.logger = logger
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
            url: SusiReply.url(server, Self.path), query: query, connectTimeout: min(timeout, 5), totalTimeout: timeout,
            maxResponseBytes: 64 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object = try SusiReply.object(response, service: .account, path: Self.path)
        try SusiReply.requireAccepted(object, service: .account, path: Self.path)
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
            url: SusiReply.url(server, Self.removePath), query: [("macid", macid), ("access_token", token.accessToken)],
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: 64 * 1024)
        let response = try SusiReply.send(request, with: http, service: .account)
        let object = try SusiReply.object(response, service: .account, path: Self.removePath)
        try SusiReply.requireAccepted(object, service: .account, path: Self.removePath)
        logger.info("removed \(macid) from the account's devices on \(URLRedaction.redacted(server))")
    }
}
