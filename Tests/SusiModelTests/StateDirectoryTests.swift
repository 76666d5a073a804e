import XCTest

@testable import SusiModel

final class StateDirectoryTests: XCTestCase {
    func testEveryStateFileIsBesideTheConfigFile() {
        let state = ConfigStore(path: "/etc/susi/config.json").state
        XCTAssertEqual(state, StateDirectory(configPath: "/etc/susi/config.json"))
        XCTAssertEqual(state.timers, "/etc/susi/timers.json")
        XCTAssertEqual(state.multiroomPipe, "/etc/susi/multiroom.pipe")
        let files = [
            state.history, state.timers, state.lists, state.musicLibrary, state.playerState, state.multiroomPipe,
            state.languageVoices, state.deviceRegistration, state.setupState, state.pendingLogin, state.account,
            state.ownerToken, state.hotspotPassphrase, state.wpaSupplicant,
        ]
        XCTAssertEqual(Set(files).count, files.count, "no two files share a name")
        XCTAssertTrue(files.allSatisfy { ($0 as NSString).deletingLastPathComponent == "/etc/susi" })
    }

    func testAConfigFileNamedWithoutADirectoryKeepsItsStateInTheWorkingDirectory() {
        XCTAssertEqual(StateDirectory(configPath: "config.json").timers, "./timers.json")
        XCTAssertEqual(ConfigStore(path: "config.json").state.account, "./account.json")
    }
}
