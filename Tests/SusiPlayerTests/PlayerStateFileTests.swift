import Foundation
import SusiPlayer
import XCTest

final class PlayerStateFileTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-player-state-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testMissingFileHoldsNoVolume() throws {
        XCTAssertNil(try PlayerStateFile(path: directory + "/none.json").loadVolume())
    }

    func testRoundTripWithPrivateMode() throws {
        let file = PlayerStateFile(path: directory + "/sub/player-state.json")
        try file.save(volume: 42)
        XCTAssertEqual(try file.loadVolume(), 42)
        try file.save(volume: 0)
        XCTAssertEqual(try file.loadVolume(), 0)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory + "/sub").sorted()
        XCTAssertEqual(leftovers, [".player-state.json.lock", "player-state.json"], "no temporary file is left behind")
    }

    func testCorruptFileIsUnreadable() throws {
        let path = directory + "/player-state.json"
        for content in ["not json", "{\"volume\": 300}", "{\"level\": 3}"] {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            XCTAssertThrowsError(try PlayerStateFile(path: path).loadVolume(), content) { error in
                XCTAssertEqual((error as? PlayerError)?.code, "player-state-unreadable")
            }
        }
    }

    func testUnwritableDirectory() throws {
        let blocker = directory + "/file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        XCTAssertThrowsError(try PlayerStateFile(path: blocker + "/player-state.json").save(volume: 5)) { error in
            XCTAssertEqual((error as? PlayerError)?.code, "player-state-unwritable")
            XCTAssertEqual((error as? PlayerError)?.stage, .player)
        }
    }

    func testNextToConfig() {
        XCTAssertEqual(
            PlayerStateFile(nextToConfig: "/home/u/.config/susi/config.json").path,
            "/home/u/.config/susi/player-state.json")
        XCTAssertEqual(PlayerStateFile(nextToConfig: "config.json").path, "./player-state.json")
    }
}
