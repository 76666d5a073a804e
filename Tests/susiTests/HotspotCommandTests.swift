import Foundation
import XCTest

/// `susi setup hotspot ...` on the command line: status on a fresh speaker, and refusals. (The
/// steps themselves are tested with a fake system in SusiSpeakerTests and over namespaces in
/// HotspotNamespaceTests; `start` here would touch this machine's network.)
final class HotspotCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli.cleanUp()
    }

    func testStatusOfAFreshSpeakerAndARecordedHotspot() throws {
        let fresh = try cli.run(["setup", "hotspot", "status"])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        let lines = fresh.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "hotspot off")
        // Issue 50: this speaker's own passphrase, made once and kept, printed for the label.
        let label = try XCTUnwrap(lines.last)
        XCTAssertTrue(label.hasPrefix("Wi-Fi \"SUSI.AI\" password: "), label)
        let passphrase = String(label.dropFirst("Wi-Fi \"SUSI.AI\" password: ".count))
        XCTAssertNotNil(passphrase.wholeMatch(of: /[a-hj-km-np-z2-9]{4}(-[a-hj-km-np-z2-9]{4}){3}/), passphrase)
        let file = cli.directory + "/susi/hotspot-passphrase"
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), passphrase + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        XCTAssertEqual(try cli.run(["setup", "hotspot", "status"]).stdout, fresh.stdout, "kept, not made again")
        let other = try CLIRunner()
        defer { other.cleanUp() }
        XCTAssertNotEqual(try other.run(["setup", "hotspot", "status"]).stdout, fresh.stdout, "another speaker, another one")

        // The apps' guides' shared "password" is a choice, and says so.
        XCTAssertEqual(try cli.run(["config", "set", "setup.hotspot.passphrase", "password"]).status, 0)
        XCTAssertTrue(
            try cli.run(["setup", "hotspot", "status"]).stdout.contains("password: password (the SUSI apps' shared default"))

        // Issue 51: what a speaker records is only what it wants; status says what runs, and
        // here there is no such interface.
        XCTAssertEqual(try cli.run(["config", "set", "setup.hotspot.open", "true"]).status, 0)
        XCTAssertEqual(try cli.run(["config", "set", "setup.hotspot.interface", "susinone0"]).status, 0)
        let state = cli.directory + "/susi/setup-state.json"
        try #"{"setup_mode": true, "hotspot": "hotspot"}"#.write(toFile: state, atomically: true, encoding: .utf8)
        let wanted = try cli.run(["setup", "hotspot", "status"])
        XCTAssertEqual(wanted.status, 3, "not running, as systemctl is-active says")
        XCTAssertEqual(
            wanted.stdout,
            "off: susinone0 does not exist (hotspot mode wants it on)\nWi-Fi \"SUSI.AI\": open, no password\n", wanted.stderr)
        XCTAssertEqual(wanted.stderr, "susi setup: the hotspot is not running\n")

        // A start that failed is recorded as failed, and status says so.
        try #"{"setup_mode": false, "hotspot": "off", "hotspot_failure": "ip link set dev susinone0 up exited with 1"}"#.write(
            toFile: state, atomically: true, encoding: .utf8)
        let failed = try cli.run(["setup", "hotspot", "status"])
        XCTAssertEqual(failed.status, 3)
        XCTAssertTrue(
            failed.stdout.hasPrefix(
                "off: susinone0 does not exist (start failed: ip link set dev susinone0 up exited with 1)\n"), failed.stdout)
        XCTAssertEqual(try cli.run(["setup", "status"]).stdout, "set up: the setup routes are closed\n")
        XCTAssertEqual(try cli.run(["setup", "hotspot", "stop"]).status, 0)
        let stopped = try cli.run(["setup", "hotspot", "status"])
        XCTAssertEqual(stopped.status, 0, "off, as wanted after stop: \(stopped.stdout)")
        XCTAssertTrue(stopped.stdout.hasPrefix("hotspot off\n"), stopped.stdout)
    }

    /// Setup mode that came back by itself (a failed Wi-Fi join) says why.
    func testSetupStatusSaysWhySetupModeCameBack() throws {
        let state = cli.directory + "/susi/setup-state.json"
        try FileManager.default.createDirectory(atPath: cli.directory + "/susi", withIntermediateDirectories: true)
        try
            #"{"setup_mode": true, "setup_mode_reason": "the home network did not connect on wlan0 within 90 s (a failed Wi-Fi join)"}"#
            .write(toFile: state, atomically: true, encoding: .utf8)
        let status = try cli.run(["setup", "status"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertEqual(
            status.stdout,
            "setup mode: the setup routes are open again since the home network did not connect on wlan0 within 90 s (a failed Wi-Fi join)\n"
        )
        try #"{"setup_mode": true}"#.write(toFile: state, atomically: true, encoding: .utf8)
        XCTAssertEqual(try cli.run(["setup", "status"]).stdout, "setup mode: the setup routes are open\n")
    }

    func testUnknownActionsAndBadSettingsAreRefused() throws {
        let missing = try cli.run(["setup", "hotspot"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("hotspot action"), missing.stderr)
        let unknown = try cli.run(["setup", "hotspot", "reboot"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("'reboot'"), unknown.stderr)
        let helper = try cli.run(["setup", "hotspot", "helper-reboot"])
        XCTAssertEqual(helper.status, 2, "the helper does only up, down and join: \(helper.stderr)")
        let ssid = try cli.run(["config", "set", "setup.hotspot.ssid", String(repeating: "x", count: 33)])
        XCTAssertNotEqual(ssid.status, 0)
        XCTAssertTrue(ssid.stderr.contains("setup.hotspot.ssid"), ssid.stderr)
    }
}
