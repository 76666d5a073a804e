import Foundation
import SusiCore
import XCTest

@testable import SusiServer

/// The exact shape of the Codable replies: every key the apps read, `null` where nothing is.
final class SetupRepliesTests: XCTestCase {
    private var fixture: SetupFixture!

    override func setUpWithError() throws {
        fixture = try SetupFixture { $0.room = "Kitchen" }
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testStatusWritesEveryKeyWithNullsForNothing() throws {
        let reply = try fixture.get("/status")
        XCTAssertEqual(
            Set(reply.json.keys),
            [
                "state", "setup_mode", "setup_mode_reason", "room", "voice", "rate", "brain_mode", "volume", "playing",
                "playback", "media", "last_interaction", "version", "uptime_seconds",
            ])
        XCTAssertTrue(reply.json["setup_mode_reason"] is NSNull, reply.body)
        XCTAssertTrue(reply.json["media"] is NSNull, reply.body)
        XCTAssertTrue(reply.json["last_interaction"] is NSNull, reply.body)
        XCTAssertEqual(reply.json["rate"] as? Int, 175)
    }

    func testSettingsAndChangeReplies() throws {
        let settings = try fixture.get("/settings")
        XCTAssertEqual(
            Set(settings.json.keys),
            ["room", "tts.voice", "tts.rate", "brain.mode", "rooms", "brain_modes", "hotspot_ssid", "hotspot_passphrase"])
        XCTAssertEqual(settings.json["brain_modes"] as? [String], ["local", "remote", "hybrid"])
        let changed = try fixture.postJSON("/settings", #"{"key":"tts.rate","value":210.0}"#)
        XCTAssertEqual(changed.status, 200)
        XCTAssertEqual(changed.json["value"] as? String, "210")
        let refused = try fixture.postJSON("/settings", #"{"key":"tts.rate","value":"fast"}"#)
        XCTAssertEqual(refused.status, 400)
        XCTAssertEqual(refused.json["parameter"] as? String, "value")
        XCTAssertEqual(try fixture.config.tts.rate, 210)
    }

    func testConfigErrorsMapToStatusesInOnePlace() {
        XCTAssertEqual(ConfigError(.unwritable, "disk full").httpStatus, 500)
        XCTAssertEqual(ConfigError(.badValue, "no").httpStatus, 400)
    }
}
