import Foundation
import SusiTestSupport
import XCTest

@testable import SusiServer

/// The wpa_supplicant file: quoting and hex encoding, checked against the real wpa_supplicant
/// reader when it is installed.
final class SetupWiFiTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-wifi")
    }

    override func tearDown() {
        scratch.remove()
    }

    func testPlainNetworkBlock() throws {
        let block = WPASupplicantFile.block(for: try WiFiNetwork(ssid: "Home #1", passphrase: "pass#word 1"))
        XCTAssertEqual(block, "network={\n\tssid=\"Home #1\"\n\tscan_ssid=1\n\tpsk=\"pass#word 1\"\n\tkey_mgmt=WPA-PSK\n}\n")
    }

    func testQuotesAndControlCharactersAreNeverWrittenQuoted() throws {
        let quoted = WPASupplicantFile.block(for: try WiFiNetwork(ssid: "Bob's \"Net\"", passphrase: "a\"b#c\"d1234"))
        XCTAssertTrue(quoted.contains("\tssid=426f62277320224e657422\n"), quoted)
        XCTAssertFalse(quoted.contains("a\"b"), "a passphrase with a quote is written as its key")
        let psk = try XCTUnwrap(quoted.split(separator: "\n").first { $0.hasPrefix("\tpsk=") })
        XCTAssertEqual(psk.count, "\tpsk=".count + 64)
        XCTAssertEqual(WPASupplicantFile.encodedSSID("two\nlines"), "74776f0a6c696e6573")
        XCTAssertThrowsError(try WiFiNetwork(ssid: "two\nlines", passphrase: ""), "control characters are refused")
    }

    func testWPAKeyMatchesTheIEEETestVectors() {
        // IEEE 802.11i-2004, H.4.1.
        XCTAssertEqual(
            WPAPassphrase.hexKey(passphrase: "password", ssid: "IEEE"),
            "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e")
        XCTAssertEqual(
            WPAPassphrase.hexKey(passphrase: "ThisIsAPassword", ssid: "ThisIsASSID"),
            "0dc0d6eb90555ed6419756b9a15ec3e3209b63df707dd508d14581f8982721af")
    }

    func testStoringReplacesTheSameNetworkAndKeepsTheRest() throws {
        let path = directory + "/wpa.conf"
        let existing = """
            ctrl_interface=/run/wpa_supplicant
            country=DE

            network={
            \tssid="Other"
            \tpsk="other-pass"
            }

            network={
            \tssid="Home"
            \tpsk="old-password"
            }

            """
        try existing.write(toFile: path, atomically: true, encoding: .utf8)
        let file = WPASupplicantFile(path: path)
        try file.store(try WiFiNetwork(ssid: "Home", passphrase: "new-password"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("ctrl_interface=/run/wpa_supplicant\ncountry=DE\n"), text)
        XCTAssertTrue(text.contains("ssid=\"Other\""))
        XCTAssertFalse(text.contains("old-password"))
        XCTAssertEqual(text.components(separatedBy: "ssid=\"Home\"").count, 2, "one block for Home: \(text)")
        XCTAssertTrue(text.contains("psk=\"new-password\""))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
    }

    func testNewFileGetsAHeaderWithTheCountry() throws {
        let path = directory + "/new.conf"
        try WPASupplicantFile(path: path).store(try WiFiNetwork(ssid: "Cafe", passphrase: ""), country: "gb")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(
            text.hasPrefix("ctrl_interface=DIR=/var/run/wpa_supplicant GROUP=netdev\nupdate_config=1\ncountry=GB\n"), text)
    }

    /// wpa_supplicant reads the file back to exactly the SSIDs and keys that were sent.
    func testRealWPASupplicantReadsWhatWasSent() throws {
        let binary = "/usr/sbin/wpa_supplicant"
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw XCTSkip("wpa_supplicant is not installed (apt-get install wpasupplicant)")
        }
        let networks = [
            try WiFiNetwork(ssid: "Home Net", passphrase: "correct horse"),
            try WiFiNetwork(ssid: "Bob's \"Net\" #2", passphrase: "pa\"ss#wo\"rd 12"),
            try WiFiNetwork(ssid: "Café ☕", passphrase: "ünïcödé-pass"),
            try WiFiNetwork(ssid: "open #3", passphrase: ""),
            try WiFiNetwork(ssid: " spaced ", passphrase: " 8 chars "),
            try WiFiNetwork(ssid: "Raw Key", passphrase: String(repeating: "0123456789ABCDEF", count: 4)),
        ]
        let path = directory + "/wpa.conf"
        let file = WPASupplicantFile(path: path)
        for network in networks { try file.store(network) }
        // Point the control socket into the scratch directory.
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "DIR=/var/run/wpa_supplicant GROUP=netdev", with: directory + "/ctrl")
        try text.write(toFile: path, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-dd", "-K", "-c", path, "-i", "susitest0", "-D", "wired"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = String(decoding: data, as: UTF8.self)
        XCTAssertFalse(log.contains("failed to parse"), log)
        XCTAssertFalse(log.contains("Invalid"), log)
        for (index, network) in networks.enumerated() {
            XCTAssertTrue(log.contains("id=\(index) ssid='\(Self.printfEncoded(network.ssid))'"), "\(network): \(log)")
        }
        // The keys wpa_supplicant derived, in file order (only the protected networks).
        let keys = log.split(separator: "\n").compactMap { line -> String? in
            guard
                let range = line.range(of: "PSK (from passphrase) - hexdump(len=32): ")
                    ?? line.range(of: "PSK - hexdump(len=32): ")
            else { return nil }
            return line[range.upperBound...].replacingOccurrences(of: " ", with: "")
        }
        let expected = networks.filter { !$0.isOpen }.map {
            $0.isRawKey ? $0.passphrase.lowercased() : WPAPassphrase.hexKey(passphrase: $0.passphrase, ssid: $0.ssid)
        }
        XCTAssertEqual(keys, expected, log)
    }

    /// wpa_supplicant's `printf_encode`, used in its debug output.
    private static func printfEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): result += "\\\""
            case UInt8(ascii: "\\"): result += "\\\\"
            case 0x1b: result += "\\e"
            case 0x0a: result += "\\n"
            case 0x0d: result += "\\r"
            case 0x09: result += "\\t"
            case 32...126: result.append(Character(Unicode.Scalar(byte)))
            default: result += String(format: "\\x%02x", byte)
            }
        }
        return result
    }
}
