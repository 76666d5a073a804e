import Foundation
import SusiServer
import Synchronization
import XCTest

@testable import SusiSpeaker

/// The setup page's network list from `wpa_cli scan_results`.
final class WPAScannerTests: XCTestCase {
    /// Answers `wpa_cli` as told and records the commands.
    final class FakeWPACLI: CommandRunner, Sendable {
        private let commands = Mutex<[[String]]>([])
        let answer: @Sendable ([String]) -> CommandResult

        init(_ answer: @escaping @Sendable ([String]) -> CommandResult) { self.answer = answer }

        var ran: [[String]] { commands.withLock { $0 } }

        func run(_ arguments: [String]) -> CommandResult {
            commands.withLock { $0.append(arguments) }
            return answer(arguments)
        }
    }

    private static let results = """
        bssid / frequency / signal level / flags / ssid
        aa:bb:cc:00:00:01\t2437\t-48\t[WPA2-PSK-CCMP][WPS][ESS]\tHome
        aa:bb:cc:00:00:02\t5180\t-39\t[RSN-SAE-CCMP][ESS]\tHome
        aa:bb:cc:00:00:03\t2412\t-70\t[ESS]\tCaf\\xc3\\xa9 \\"Bob\\"
        aa:bb:cc:00:00:04\t2462\t-81\t[WEP][ESS]\tOld\\\\Net
        aa:bb:cc:00:00:05\t2462\t-60\t[WPA2-PSK-CCMP][ESS]\t
        aa:bb:cc:00:00:06\t2462\t-60\t[ESS]\tbroken\\xff
        not a line
        """

    func testScanResultsAreParsedAndUnescaped() throws {
        let seen = try XCTUnwrap(WPAScanner.parse(Self.results))
        XCTAssertEqual(
            seen,
            [
                ScannedNetwork(ssid: "Home", signal: -48, secure: true), ScannedNetwork(ssid: "Home", signal: -39, secure: true),
                ScannedNetwork(ssid: "Café \"Bob\"", signal: -70, secure: false),
                ScannedNetwork(ssid: "Old\\Net", signal: -81, secure: true),
            ], "a hidden network and one whose name is not UTF-8 are left out")
        XCTAssertNil(WPAScanner.parse("FAIL\n"), "not scan results")
        XCTAssertEqual(WPAScanner.parse("bssid / frequency / signal level / flags / ssid\n"), [])
    }

    func testTheScanAsksWPACLIOnTheInterfaceWithItsReplySocketInTheRuntimeDirectory() {
        let cli = FakeWPACLI { _ in CommandResult(status: 0, output: Self.results) }
        let scan = WPAScanner(runner: cli, clientDirectory: "/run/susi").scan(interface: "wlan0")
        XCTAssertEqual(cli.ran, [["wpa_cli", "-s", "/run/susi", "-i", "wlan0", "scan_results"]])
        XCTAssertEqual(scan.networks.map(\.ssid), ["Home", "Café \"Bob\"", "Old\\Net"])
        XCTAssertNil(scan.reason)
        XCTAssertEqual(
            WPAScanner.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": NSTemporaryDirectory()]), NSTemporaryDirectory())
        XCTAssertNil(WPAScanner.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": "/nonexistent/susi"]))
    }

    func testNothingSeenYetStartsAScan() {
        let cli = FakeWPACLI { arguments in
            CommandResult(
                status: 0, output: arguments.last == "scan" ? "OK\n" : "bssid / frequency / signal level / flags / ssid\n")
        }
        let scan = WPAScanner(runner: cli, clientDirectory: nil).scan(interface: "wlan0")
        XCTAssertEqual(cli.ran.map { $0.last }, ["scan_results", "scan"])
        XCTAssertEqual(scan.networks, [])
        XCTAssertEqual(scan.reason, "no network seen yet on wlan0; the speaker is scanning, look again in a few seconds")
    }

    func testWhyItCannotScan() {
        let down = FakeWPACLI { _ in
            CommandResult(
                status: 255, output: "Failed to connect to non-global ctrl_ifname: wlan0  error: No such file or directory\n")
        }
        XCTAssertEqual(
            WPAScanner(runner: down, clientDirectory: nil).scan(interface: "wlan0").reason,
            "wpa_supplicant is not running on wlan0 (while the setup hotspot is open it is not), so the speaker cannot list networks"
        )
        let missing = FakeWPACLI { _ in CommandResult(status: 127, output: "wpa_cli: program not found") }
        XCTAssertEqual(
            WPAScanner(runner: missing, clientDirectory: nil).scan(interface: "wlan0").reason,
            "wpa_cli is not installed, so the speaker cannot list networks")
        let never = FakeWPACLI { _ in CommandResult(status: 0) }
        XCTAssertEqual(WPAScanner(runner: never, clientDirectory: nil).scan(interface: "wlan0; reboot").networks, [])
        XCTAssertTrue(never.ran.isEmpty, "a bad interface name is never passed on")
    }

    /// The real wpa_cli on this machine, which has no wpa_supplicant on the interface: no
    /// networks, and the reason.
    func testRealWPACLIWithoutASupplicant() throws {
        guard ProcessCommandRunner.locate("wpa_cli") != nil else { throw XCTSkip("wpa_cli is not installed") }
        let scan = WPAScanner(clientDirectory: NSTemporaryDirectory()).scan(interface: "susinone0")
        XCTAssertEqual(scan.networks, [])
        XCTAssertEqual(
            scan.reason,
            "wpa_supplicant is not running on susinone0 (while the setup hotspot is open it is not), so the speaker cannot list networks"
        )
    }
}
