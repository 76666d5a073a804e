import Foundation
import SusiModel
import SusiServer

/// Everything the hotspot's commands and generated files need, checked once.
///
/// The address plan is fixed because the SUSI apps call `http://10.0.0.1:5000`: the speaker is
/// 10.0.0.1/24 and phones get 10.0.0.2-10.0.0.20. Every value that reaches a command line or a
/// generated file is validated here (`ConfigSchema`'s checks), so no setting can add a line to
/// hostapd's or dnsmasq's file or an option to a command.
public struct HotspotSettings: Sendable, Equatable {
    /// The network name.
    public var ssid: String
    /// WPA2 passphrase, or empty for an open network.
    public var passphrase: String
    /// The Wi-Fi interface.
    public var interface: String
    /// The 2.4 GHz channel.
    public var channel: Int
    /// ISO 3166 country (`location.country_code`, upper case) for the radio's rules, or empty.
    public var country: String
    /// Where the generated files and pid files go (root-owned on a speaker: `/run/susi-hotspot`).
    public var runDirectory: String
    /// The wpa_supplicant file with the home network the apps sent.
    public var wifiFile: String
    /// Seconds to wait for a known network before opening the hotspot.
    public var waitSeconds: Int
    /// Seconds the home network has to connect after the hotspot closes.
    public var joinTimeoutSeconds: Int
    /// Whether the hotspot opens by itself in setup mode.
    public var auto: Bool
    /// The setup server's port (`setup.port`): where the captive-portal redirect sends port 80
    /// and what DHCP names as the captive portal.
    public var setupPort: Int

    /// The speaker's address on the hotspot, which the apps call.
    public static let address = "10.0.0.1"
    /// The hotspot's prefix length.
    public static let prefixLength = 24
    /// The DHCP range handed to phones: small, one setup at a time.
    public static let dhcpRange = (first: "10.0.0.2", last: "10.0.0.20")
    /// The run directory of the privileged helper unit (`RuntimeDirectory=susi-hotspot`).
    public static let systemRunDirectory = "/run/susi-hotspot"

    /// Settings from `config`; the Wi-Fi file is the one `/wifi_credentials` writes, the
    /// passphrase `HotspotPassphraseFile.passphrase(for:store:)` (this speaker's own unless
    /// one is set or the hotspot is open).
    ///
    /// - Throws: `hotspot-bad-setting` naming the key whose value cannot be used, or when the
    ///   speaker's own passphrase cannot be made.
    public init(config: Config, store: ConfigStore, runDirectory: String = HotspotSettings.systemRunDirectory)
        throws(HotspotError)
    {
        let hotspot = config.setup.hotspot
        let passphrase: String?
        do throws(SetupError) {
            passphrase = try HotspotPassphraseFile.passphrase(for: config, store: store)
        } catch {
            throw HotspotError(.badSetting, "cannot make the hotspot's passphrase: \(error.message)")
        }
        try self.init(
            ssid: hotspot.ssid, passphrase: passphrase ?? "", interface: hotspot.interface, channel: hotspot.channel,
            country: config.location.countryCode, runDirectory: runDirectory,
            wifiFile: WPASupplicantFile(config: config, store: store).path,
            waitSeconds: hotspot.waitSeconds, joinTimeoutSeconds: hotspot.joinTimeoutSeconds, auto: hotspot.auto,
            setupPort: config.setup.port)
    }

    /// Settings from values; see `init(config:store:runDirectory:)`.
    public init(
        ssid: String = "SUSI.AI", passphrase: String = "password", interface: String = "wlan0", channel: Int = 6,
        country: String = "", runDirectory: String, wifiFile: String, waitSeconds: Int = 60, joinTimeoutSeconds: Int = 90,
        auto: Bool = true, setupPort: Int = 5000
    ) throws(HotspotError) {
        guard ConfigSchema.isSSID(ssid) else {
            throw HotspotError(.badSetting, "setup.hotspot.ssid must be 1 to 32 bytes without control characters")
        }
        guard ConfigSchema.isHotspotPassphrase(passphrase) else {
            throw HotspotError(.badSetting, "setup.hotspot.passphrase must be empty or 8 to 63 printable ASCII characters")
        }
        guard ConfigSchema.isInterfaceName(interface) else {
            throw HotspotError(.badSetting, "setup.hotspot.interface is not an interface name: \(interface)")
        }
        guard (1...13).contains(channel) else {
            throw HotspotError(.badSetting, "setup.hotspot.channel must be 1 to 13")
        }
        guard (1...65535).contains(setupPort) else {
            throw HotspotError(.badSetting, "setup.port must be 1 to 65535 for the hotspot's captive-portal redirect")
        }
        for (name, path) in [("run directory", runDirectory), ("Wi-Fi file", wifiFile)] {
            guard path.hasPrefix("/"), !path.contains("\n") else {
                throw HotspotError(.badSetting, "the \(name) must be an absolute path: \(path)")
            }
        }
        self.ssid = ssid
        self.passphrase = passphrase
        self.interface = interface
        self.channel = channel
        let isCountry = country.count == 2 && country.allSatisfy { $0.isASCII && $0.isLetter }
        self.country = isCountry ? country.uppercased() : ""
        self.runDirectory = runDirectory
        self.wifiFile = wifiFile
        self.waitSeconds = waitSeconds
        self.joinTimeoutSeconds = joinTimeoutSeconds
        self.auto = auto
        self.setupPort = setupPort
    }

    /// Whether the hotspot is open (no passphrase).
    public var isOpen: Bool { passphrase.isEmpty }

    /// The setup page on the hotspot for a setup server on `port` (`http://10.0.0.1:5000/`):
    /// where DHCP's captive-portal option and the setup server's captive redirect send phones.
    public static func landingPage(port: Int) -> String {
        "http://\(address):\(port)/"
    }

    /// A file in the run directory.
    public func runFile(_ name: String) -> String {
        (runDirectory as NSString).appendingPathComponent(name)
    }
}
