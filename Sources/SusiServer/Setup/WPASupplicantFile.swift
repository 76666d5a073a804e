import Foundation
import SusiCore
import SusiModel

/// The wpa_supplicant configuration file the apps' Wi-Fi network is written to.
///
/// Quoting follows wpa_supplicant's reader (checked against wpa_supplicant 2.10 in the tests):
/// a line is one `name=value`; after the value's first `"` the next `"` closes the quoted part
/// and a `#` after it starts a comment, so a value holding `"` cannot be written quoted. So:
/// - `ssid` is written quoted when it has no `"` and no control characters, else as plain hex
///   of its bytes (`ssid=4d79...`), which the reader takes byte for byte;
/// - `psk` is written quoted when it has no `"` (control characters are refused on input, as
///   wpa_supplicant refuses them), else as the 64-hex-digit key derived from it
///   (`WPAPassphrase`), exactly what `wpa_passphrase` would give; a raw key sent as 64 hex
///   digits is written as it is, unquoted (wpa_supplicant reads an unquoted `psk` as the key);
/// - an open network gets `key_mgmt=NONE` and no `psk`.
///
/// Storing a network replaces any earlier block for the same SSID and keeps everything else
/// in the file (the `ctrl_interface` header, other networks). A new file starts with a header
/// that lets `wpa_cli` manage it. Writes are atomic with mode 0600 (the file holds passphrases).
public struct WPASupplicantFile: Sendable, Equatable {
    /// The file's path.
    public let path: String

    /// A file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The file `setup.wpa_supplicant_file` names, or `wpa_supplicant.conf` beside the config.
    public init(config: Config, store: ConfigStore) {
        let configured = config.setup.wpaSupplicantFile
        self.init(
            path: configured.isEmpty ? store.state.wpaSupplicant : configured)
    }

    /// The header of a new file; `country` (ISO 3166 alpha-2) is added when known, since
    /// many Wi-Fi chips only use the channels allowed in the country set there.
    public static func header(country: String = "") -> String {
        var lines = ["ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev", "update_config=1"]
        if country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            lines.append("country=\(country.uppercased())")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `network={...}` block for `network`.
    public static func block(for network: WiFiNetwork) -> String {
        var lines = ["network={", "\tssid=\(encodedSSID(network.ssid))", "\tscan_ssid=1"]
        if network.isOpen {
            lines.append("\tkey_mgmt=NONE")
        } else {
            let psk: String
            if network.isRawKey {
                psk = network.passphrase
            } else if !network.passphrase.contains("\"") {
                psk = "\"\(network.passphrase)\""
            } else {
                psk = WPAPassphrase.hexKey(passphrase: network.passphrase, ssid: network.ssid)
            }
            lines.append("\tpsk=" + psk)
            lines.append("\tkey_mgmt=WPA-PSK")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The value of an `ssid=` line for `ssid`: quoted, or hex when quoting is not safe.
    public static func encodedSSID(_ ssid: String) -> String {
        let quotable = !ssid.unicodeScalars.contains { $0 == "\"" || WiFiNetwork.isControl($0) }
        return quotable ? "\"\(ssid)\"" : hex(ssid)
    }

    /// `existing` with every block for `network`'s SSID replaced by one new block at the end;
    /// a header is added when `existing` is empty.
    public static func merged(_ existing: String, with network: WiFiNetwork, country: String = "") -> String {
        let lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let wanted = ["\"\(network.ssid)\"", encodedSSID(network.ssid), hex(network.ssid)]
        var kept: [String] = []
        var openBlock: [String]?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = openBlock {
                current.append(line)
                if trimmed == "}" {
                    let ssid = current.lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                        .first { $0.hasPrefix("ssid=") }.map { String($0.dropFirst(5)) }
                    if !(ssid.map(wanted.contains) ?? false) { kept += current }
                    openBlock = nil
                } else {
                    openBlock = current
                }
            } else if trimmed.hasPrefix("network={") {
                openBlock = [line]
            } else {
                kept.append(line)
            }
        }
        // An unterminated block is kept as it was: it is not ours to repair.
        kept += openBlock ?? []
        var text = kept.joined(separator: "\n")
        while text.hasSuffix("\n\n") { text.removeLast() }
        if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            text = header(country: country)
        } else if !text.hasSuffix("\n") {
            text += "\n"
        }
        return text + "\n" + block(for: network)
    }

    /// Adds or replaces `network` in the file (created when missing), atomically, mode 0600.
    ///
    /// The read, merge and write happen under the file's lock (`AtomicFile.update`), so
    /// parallel calls, from this process or another, each keep the others' networks.
    public func store(_ network: WiFiNetwork, country: String = "") throws(SetupError) {
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                let existing = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return .replace(Data(Self.merged(existing, with: network, country: country).utf8))
            }
        } catch {
            throw SetupError(.storeFailed, "cannot store the Wi-Fi network: \(error.message)")
        }
    }

    private static func hex(_ text: String) -> String {
        text.utf8.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
