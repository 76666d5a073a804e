/// A Wi-Fi network the apps sent: its SSID and passphrase (empty for an open network).
///
/// The passphrase may also be the raw pre-shared key itself, 64 hex digits (`isRawKey`), as
/// routers print it and WPA allows. `description` never shows the passphrase.
public struct WiFiNetwork: Sendable, Equatable, CustomStringConvertible {
    /// The network name, 1-32 bytes of UTF-8.
    public let ssid: String
    /// The WPA passphrase (or raw key, `isRawKey`), or empty for an open network.
    public let passphrase: String

    /// Validates and creates a network.
    ///
    /// - Throws: `setup-bad-parameter` naming `wifissid` (empty, over 32 bytes, holding a NUL or
    ///   another control character, or U+FFFD from bytes that were not UTF-8) or `wifipassd` (not
    ///   empty, not 64 hex digits and not 8-63 characters of at most 63 bytes, or holding control
    ///   characters, which wpa_supplicant refuses in a passphrase).
    public init(ssid: String, passphrase: String) throws(SetupError) {
        try SetupParameters.requireUTF8(ssid, parameter: "wifissid")
        try SetupParameters.requireUTF8(passphrase, parameter: "wifipassd")
        let ssidBytes = ssid.utf8.count
        guard (1...32).contains(ssidBytes) else {
            throw .bad("wifissid", "wifissid must be 1 to 32 bytes long, not \(ssidBytes)")
        }
        guard !ssid.unicodeScalars.contains("\0") else {
            throw .bad("wifissid", "wifissid must not contain a NUL character")
        }
        // A name no phone can show; refused so it cannot break a log line or the file either.
        guard !ssid.unicodeScalars.contains(where: Self.isControl) else {
            throw .bad("wifissid", "wifissid must not contain control characters")
        }
        if !passphrase.isEmpty, !Self.isRawKey(passphrase) {
            guard (8...63).contains(passphrase.count), passphrase.utf8.count <= 63 else {
                throw .bad(
                    "wifipassd",
                    "wifipassd must be empty (open network) or 8 to 63 characters (at most 63 bytes)")
            }
            guard !passphrase.unicodeScalars.contains(where: Self.isControl) else {
                throw .bad("wifipassd", "wifipassd must not contain control characters")
            }
        }
        self.ssid = ssid
        self.passphrase = passphrase
    }

    /// Whether the network needs no passphrase.
    public var isOpen: Bool { passphrase.isEmpty }

    /// Whether the passphrase is the 256-bit pre-shared key itself: exactly 64 hex digits
    /// (a passphrase is at most 63 characters, so the two never overlap).
    public var isRawKey: Bool { Self.isRawKey(passphrase) }

    static func isRawKey(_ text: String) -> Bool {
        text.utf8.count == 64 && text.allSatisfy { $0.isASCII && $0.isHexDigit }
    }

    /// Names the network, never the passphrase.
    public var description: String { "Wi-Fi network \"\(ssid)\"\(isOpen ? " (open)" : "")" }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
