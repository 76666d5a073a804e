import Foundation

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
