import Foundation
import SusiServer
import XCTest

@testable import SusiSpeaker

/// The setup server's captive landing follows the hotspot's phase in the setup state file
/// (which another process may drive) and the port the server really listens on.
final class CaptiveLandingTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    func testTheLandingIsTheSetupPageOnlyWhileTheHotspotIsOpenAndTheServerListens() throws {
        let stateFile = SetupStateFile(configStore: scratch.store)
        let listening = ListeningPort()
        let policy = SetupServer.policy(setupState: stateFile, listening: listening)
        let probe = ServerRequest(method: "GET", path: "/generate_204", headers: ["host": "connectivitycheck.gstatic.com"])

        XCTAssertNil(policy.landing(), "a fresh speaker has no hotspot")
        try stateFile.recordHotspot(phase: "hotspot", deadline: nil)
        XCTAssertNil(policy.landing(), "nothing listens yet")
        listening.port.withLock { $0 = 5080 }
        XCTAssertEqual(policy.landing(), "http://10.0.0.1:5080/")
        let redirect = try XCTUnwrap(policy.refusal(for: probe))
        XCTAssertEqual(redirect.status, 302)
        XCTAssertEqual(redirect.header("location"), "http://10.0.0.1:5080/")

        for phase in ["joining", "off", "searching"] {
            try stateFile.recordHotspot(phase: phase, deadline: 1_800_000_000)
            XCTAssertNil(policy.landing(), phase)
            XCTAssertEqual(policy.refusal(for: probe)?.status, 403, phase)
        }
    }
}
