/// A Wi-Fi network a scan saw: what the setup page lists for the person to pick.
public struct ScannedNetwork: Sendable, Equatable, Encodable {
    /// The network's name.
    public var ssid: String
    /// The signal as received, in dBm (about -30 is strong, -90 barely there).
    public var signal: Int
    /// Whether joining needs a passphrase (WPA, WPA2, WPA3 or WEP).
    public var secure: Bool

    /// A network as seen.
    public init(ssid: String, signal: Int, secure: Bool) {
        self.ssid = ssid
        self.signal = signal
        self.secure = secure
    }
}

/// What `GET /wifi_networks` answers: the networks around the speaker, strongest first, or
/// none with the reason the speaker cannot list them (the page then asks for the name).
public struct WiFiScan: Sendable, Equatable, Encodable {
    /// One entry per network name, strongest first.
    public let networks: [ScannedNetwork]
    /// Why `networks` is empty; nil when the scan worked.
    public let reason: String?

    /// The networks of `seen`, one per name (its strongest access point; secure when any of
    /// them is), strongest first. Hidden networks (no name) and names `WiFiNetwork` would
    /// refuse are left out: they could not be sent back to `/wifi_credentials`.
    public init(seen: [ScannedNetwork], reason: String? = nil) {
        var best: [String: ScannedNetwork] = [:]
        for network in seen where (try? WiFiNetwork(ssid: network.ssid, passphrase: "")) != nil {
            if var kept = best[network.ssid] {
                kept.signal = max(kept.signal, network.signal)
                kept.secure = kept.secure || network.secure
                best[network.ssid] = kept
            } else {
                best[network.ssid] = network
            }
        }
        networks = best.values.sorted { ($0.signal, $1.ssid) > ($1.signal, $0.ssid) }
        self.reason = networks.isEmpty ? reason ?? "no Wi-Fi network was seen" : reason
    }

    /// No networks, because of `reason`.
    public static func unavailable(_ reason: String) -> WiFiScan {
        WiFiScan(seen: [], reason: reason)
    }
}

/// Lists the Wi-Fi networks the speaker can see, for the setup page's network list.
///
/// The apps scan on the phone; a browser cannot, so the speaker does. Called from a server
/// thread, once per request; it may block for a few seconds.
public protocol WiFiScanning: Sendable {
    /// The networks seen on `interface` (`setup.hotspot.interface`), or none with a reason.
    func scan(interface: String) -> WiFiScan
}

/// A scanner for a server that has none (tests, or a machine without Wi-Fi tools).
public struct NoWiFiScanner: WiFiScanning {
    /// A scanner that never finds a network.
    public init() {}

    public func scan(interface: String) -> WiFiScan {
        .unavailable("this setup server cannot scan for Wi-Fi networks")
    }
}
