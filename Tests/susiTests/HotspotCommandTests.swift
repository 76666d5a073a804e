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

        // What a running speaker records; status reads it with the configured name.
        XCTAssertEqual(try cli.run(["config", "set", "setup.hotspot.open", "true"]).status, 0)
        let state = cli.directory + "/susi/setup-state.json"
        try #"{"setup_mode": true, "hotspot": "hotspot"}"#.write(toFile: state, atomically: true, encoding: .utf8)
        let up = try cli.run(["setup", "hotspot", "status"])
        XCTAssertEqual(
            up.stdout, "hotspot \"SUSI.AI\" (open) on wlan0 at 10.0.0.1\nWi-Fi \"SUSI.AI\": open, no password\n", up.stderr)
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
