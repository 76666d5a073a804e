import Foundation
import SusiCore
import SusiModel
import SusiServer

/// Lists the networks wpa_supplicant has seen on the Wi-Fi interface (`wpa_cli scan_results`),
/// for the setup page's network list.
///
/// It needs wpa_supplicant running on the interface and its control socket open to the
/// speaker's user (the `netdev` group, which `make install` gives `susi`). While the first-setup
/// hotspot is up, hostapd has the interface and there is no wpa_supplicant to ask: the scan
/// then says so, and the page asks for the network's name. With no results yet it asks
/// wpa_supplicant for a fresh scan, which a second look a few seconds later shows.
///
/// wpa_cli binds its reply socket in `clientDirectory` when one is given: the service's
/// private `/tmp` is not the `/tmp` wpa_supplicant would answer into.
public struct WPAScanner: WiFiScanning {
    /// Runs `wpa_cli`.
    public let runner: any CommandRunner
    /// Where wpa_cli binds its reply socket (`-s`); nil for wpa_cli's default (`/tmp`).
    public let clientDirectory: String?

    /// A scanner running `wpa_cli` through `runner`; `clientDirectory` defaults to
    /// `$XDG_RUNTIME_DIR` (the service's `/run/susi`) when that exists.
    public init(
        runner: any CommandRunner = ProcessCommandRunner(timeout: 5),
        clientDirectory: String? = WPAScanner.runtimeDirectory()
    ) {
        self.runner = runner
        self.clientDirectory = clientDirectory
    }

    /// `$XDG_RUNTIME_DIR` when it names a directory, else nil.
    public static func runtimeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let directory = environment["XDG_RUNTIME_DIR"], !directory.isEmpty else { return nil }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue
            ? directory : nil
    }

    public func scan(interface: String) -> WiFiScan {
        guard ConfigSchema.isInterfaceName(interface) else {
            return .unavailable("\(interface) is not a network interface name")
        }
        let results = runner.run(command(interface, "scan_results"))
        guard results.succeeded, let seen = Self.parse(results.output) else {
            return .unavailable(Self.reason(results, interface: interface))
        }
        if seen.isEmpty {
            // Nothing seen yet (wpa_supplicant only just started): a fresh scan for the next look.
            _ = runner.run(command(interface, "scan"))
            return .unavailable("no network seen yet on \(interface); the speaker is scanning, look again in a few seconds")
        }
        return WiFiScan(seen: seen)
    }

    private func command(_ interface: String, _ action: String) -> [String] {
        ["wpa_cli"] + (clientDirectory.map { ["-s", $0] } ?? []) + ["-i", interface, action]
    }

    /// Why the scan failed, for a person.
    static func reason(_ result: CommandResult, interface: String) -> String {
        let firstLine = result.output.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        if result.status == 127 {
            return "wpa_cli is not installed, so the speaker cannot list networks"
        }
        if firstLine.hasPrefix("Failed to connect") {
            return "wpa_supplicant is not running on \(interface) (while the setup hotspot is open it is not), "
                + "so the speaker cannot list networks"
        }
        let detail = firstLine.isEmpty ? "exit status \(result.status)" : ControlCharacters.escapedForLog(firstLine)
        return "the speaker cannot list networks (wpa_cli: \(detail))"
    }

    /// The networks in `wpa_cli scan_results` output: a header line, then one tab-separated
    /// line per access point (`bssid`, `frequency`, `signal level`, `flags`, `ssid`). Nil when
    /// the header is missing (not scan results). The SSID comes escaped as wpa_supplicant's
    /// `printf_encode` writes it (`\xNN` for bytes outside printable ASCII, `\\`, `\"`, `\n`,
    /// ...); one that is not UTF-8 is left out.
    static func parse(_ text: String) -> [ScannedNetwork]? {
        let lines = text.split(whereSeparator: \.isNewline)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("bssid / frequency") }) else { return nil }
        return lines[(header + 1)...].compactMap { line in
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            guard fields.count == 5, let signal = Int(fields[2]), let ssid = unescaped(fields[4]), !ssid.isEmpty
            else { return nil }
            let flags = fields[3]
            let secure = ["WPA", "RSN", "WEP", "SAE"].contains { flags.contains($0) }
            return ScannedNetwork(ssid: ssid, signal: signal, secure: secure)
        }
    }

    /// The text `printf_encode` escaped, or nil when its bytes are not UTF-8.
    static func unescaped(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = text.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "\\"), let code = rest.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch code {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "e"): bytes.append(0x1B)
            case UInt8(ascii: "x"):
                let digits = rest.prefix(2)
                guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                    return nil
                }
                bytes.append(value)
                rest = rest.dropFirst(2)
            default: bytes.append(code)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
