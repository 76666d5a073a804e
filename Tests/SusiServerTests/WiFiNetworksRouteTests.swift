import Foundation
import SusiServer
import XCTest

/// `GET /wifi_networks`: the networks the speaker sees, for the setup page, only in setup mode.
final class WiFiNetworksRouteTests: XCTestCase {
    private var fixture: SetupFixture!

    override func tearDown() {
        fixture?.tearDown()
    }

    func testEachNameOnceStrongestFirstWithoutNamesTheRoutesWouldRefuse() {
        let scan = WiFiScan(seen: [
            ScannedNetwork(ssid: "Cafe", signal: -71, secure: false),
            ScannedNetwork(ssid: "Home", signal: -60, secure: true),
            ScannedNetwork(ssid: "Home", signal: -42, secure: true),
            ScannedNetwork(ssid: "", signal: -30, secure: true),
            ScannedNetwork(ssid: "two\nlines", signal: -30, secure: false),
            ScannedNetwork(ssid: String(repeating: "x", count: 33), signal: -30, secure: false),
            ScannedNetwork(ssid: "Attic", signal: -71, secure: false),
        ])
        XCTAssertEqual(scan.networks.map(\.ssid), ["Home", "Attic", "Cafe"])
        XCTAssertEqual(scan.networks.first?.signal, -42, "the strongest access point of a name")
        XCTAssertNil(scan.reason)
        XCTAssertEqual(WiFiScan(seen: []).reason, "no Wi-Fi network was seen", "an empty list always says why")
        XCTAssertEqual(NoWiFiScanner().scan(interface: "wlan0").networks, [])
    }

    func testTheListInSetupModeAndNothingAfter() throws {
        let scanner = FakeWiFiScanner(
            WiFiScan(seen: [
                ScannedNetwork(ssid: "Home", signal: -42, secure: true), ScannedNetwork(ssid: "Cafe", signal: -71, secure: false),
            ]))
        fixture = try SetupFixture(configure: { $0.setup.hotspot.interface = "wlp2s0" }, scanner: scanner)
        let reply = try fixture.get("/wifi_networks")
        XCTAssertEqual(reply.status, 200, reply.body)
        XCTAssertEqual(
            reply.body, #"{"networks":[{"secure":true,"signal":-42,"ssid":"Home"},{"secure":false,"signal":-71,"ssid":"Cafe"}]}"#)
        XCTAssertEqual(scanner.interfaces, ["wlp2s0"], "the hotspot's interface, the one the speaker joins with")
        XCTAssertEqual(try fixture.send("HEAD", "/wifi_networks").status, 405, "HEAD runs no scan")
        XCTAssertEqual(scanner.interfaces.count, 1)

        _ = try fixture.finishSetup()
        let after = try fixture.get("/wifi_networks")
        XCTAssertEqual(after.status, 403)
        XCTAssertEqual(after.json["code"] as? String, "setup-not-in-setup-mode")
        XCTAssertEqual(scanner.interfaces.count, 1, "no scan once setup is finished")
    }

    func testNoScannerSaysWhy() throws {
        fixture = try SetupFixture()
        let reply = try fixture.get("/wifi_networks")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual((reply.json["networks"] as? [Any])?.count, 0)
        XCTAssertEqual(reply.json["reason"] as? String, "this setup server cannot scan for Wi-Fi networks")
    }
}
