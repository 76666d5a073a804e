import Foundation
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The generated hotspot files, read by the real programs: `dnsmasq --test`, and hostapd up to
/// the point where it needs a Wi-Fi device (this machine has none).
final class HotspotFilesTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-hotspot-files")
    }

    override func tearDown() {
        scratch.remove()
    }

    private func settings(ssid: String = "SUSI.AI", passphrase: String = "password", country: String = "")
        throws -> HotspotSettings
    {
        // An interface name that exists nowhere, so hostapd stops at the driver.
        try HotspotSettings(
            ssid: ssid, passphrase: passphrase, interface: "susinope\(Int.random(in: 0..<9999))", country: country,
            runDirectory: directory,
            wifiFile: directory + "/wpa_supplicant.conf")
    }

    private func program(_ name: String) throws -> String {
        guard let path = ProcessCommandRunner.locate(name) else {
            throw XCTSkip(
                "\(name) is not installed (make deps installs it: Debian package \(Self.packages[name] ?? name))")
        }
        return path
    }

    private static let packages = ["dnsmasq": "dnsmasq-base", "nft": "nftables"]

    private func write(_ text: String, _ name: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func testDnsmasqAcceptsTheGeneratedFile() throws {
        let dnsmasq = try program("dnsmasq")
        let text = HotspotFiles.dnsmasq(try settings())
        XCTAssertTrue(text.contains("address=/#/10.0.0.1\n"), "every name answers with the speaker")
        XCTAssertTrue(text.contains("dhcp-range=10.0.0.2,10.0.0.20,255.255.255.0,1h\n"))
        let good = ProcessCommandRunner().run([dnsmasq, "--test", "--conf-file=" + (try write(text, "dnsmasq.conf"))])
        XCTAssertEqual(good.status, 0, good.output)
        XCTAssertTrue(good.output.contains("syntax check OK"), good.output)

        // The check can fail: one bad line is enough.
        let bad = ProcessCommandRunner().run([
            dnsmasq, "--test", "--conf-file=" + (try write(text + "dhcp-range=10.0.0.2\n", "bad.conf")),
        ])
        XCTAssertNotEqual(bad.status, 0, bad.output)
    }

    /// hostapd reads the whole file before it opens the device: a good file fails only at the
    /// driver, a bad one with "errors found in configuration file".
    private func hostapdVerdict(_ text: String) throws -> (parsed: Bool, output: String) {
        let hostapd = try program("hostapd")
        let result = ProcessCommandRunner(timeout: 10).run([
            hostapd, try write(text, "hostapd-\(UUID().uuidString.prefix(6)).conf"),
        ])
        XCTAssertNotEqual(result.status, 0, "no Wi-Fi device here, so hostapd cannot start: \(result.output)")
        let reachedDevice = result.output.contains("driver") || result.output.contains("UNINITIALIZED")
        return (!result.output.contains("errors found in configuration file") && reachedDevice, result.output)
    }

    func testHostapdParsesTheGeneratedFilesUpToTheDevice() throws {
        for (ssid, passphrase) in [("SUSI.AI", "password"), ("SUSI.AI", ""), (" Küche SUSI ", "a long passphrase with spaces")] {
            let text = HotspotFiles.hostapd(try settings(ssid: ssid, passphrase: passphrase))
            XCTAssertEqual(text.contains("wpa=2"), !passphrase.isEmpty)
            let verdict = try hostapdVerdict(text)
            XCTAssertTrue(verdict.parsed, "\(ssid)/\(passphrase.isEmpty ? "open" : "wpa2"): \(verdict.output)")
        }
        XCTAssertTrue(HotspotFiles.hostapd(try settings(ssid: " Küche SUSI ")).contains("ssid2=204bc3bc636865205355534920\n"))

        // The country's rules, when the config names one.
        let german = HotspotFiles.hostapd(try settings(country: "de"))
        XCTAssertTrue(german.contains("country_code=DE\nieee80211d=1\n"), german)
        XCTAssertTrue(try hostapdVerdict(german).parsed)
        XCTAssertFalse(HotspotFiles.hostapd(try settings(country: "d\n")).contains("country_code"))

        // The check can fail.
        let broken = HotspotFiles.hostapd(try settings()).replacingOccurrences(
            of: "wpa_passphrase=password", with: "wpa_passphrase=pass")
        XCTAssertFalse(try hostapdVerdict(broken).parsed)
    }

    /// nftables checks the generated redirect against the kernel (`nft -c`: parsed and
    /// validated, nothing applied), which needs root.
    func testNftablesAcceptsTheGeneratedRedirect() throws {
        let nft = try program("nft")
        guard getuid() == 0 else { throw XCTSkip("nft -c talks to the kernel, which needs root (CI runs as root)") }
        let hotspot = try HotspotSettings(
            interface: "wlan0", runDirectory: directory, wifiFile: directory + "/wpa_supplicant.conf", setupPort: 5080)
        let text = HotspotFiles.captiveRedirect(hotspot)
        XCTAssertTrue(text.contains("iifname \"wlan0\" tcp dport 80 redirect to :5080\n"), text)
        let good = ProcessCommandRunner().run([nft, "-c", "-f", try write(text, "captive.nft")])
        XCTAssertEqual(good.status, 0, good.output)

        // The check can fail: a redirect needs a port number.
        let bad = ProcessCommandRunner().run([
            nft, "-c", "-f", try write(text.replacingOccurrences(of: "to :5080", with: "to :setup"), "bad.nft"),
        ])
        XCTAssertNotEqual(bad.status, 0, bad.output)
    }
}
