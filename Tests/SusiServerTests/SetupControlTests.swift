import Foundation
import SusiCore
import SusiServer
import XCTest

/// `/status`, the control routes, and the setup hooks.
final class SetupControlTests: XCTestCase {
    private var fixture: SetupFixture!

    override func setUpWithError() throws {
        fixture = try SetupFixture { $0.room = "Kitchen" }
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testStatusReportsTheSpeaker() throws {
        let reply = try fixture.get("/status")
        XCTAssertEqual(reply.status, 200)
        for key in [
            "state", "room", "voice", "brain_mode", "volume", "playing", "last_interaction", "version", "uptime_seconds",
            "setup_mode",
        ] {
            XCTAssertNotNil(reply.json[key], key)
        }
        XCTAssertEqual(reply.json["room"] as? String, "Kitchen")
        XCTAssertEqual(reply.json["voice"] as? String, "en-us")
        XCTAssertEqual(reply.json["brain_mode"] as? String, "hybrid")
        XCTAssertEqual(reply.json["version"] as? String, "test-1")
        XCTAssertEqual(reply.json["playing"] as? Bool, false)
        XCTAssertEqual(reply.json["setup_mode"] as? Bool, true)
    }

    func testControlRoutesDriveThePlayer() throws {
        XCTAssertEqual(try fixture.get("/play?ytb=dQw4w9WgXcQ").json["playback"] as? String, "playing")
        XCTAssertEqual(try fixture.get("/play?url=https%3A%2F%2Fexample.org%2Fradio.mp3").status, 200)
        XCTAssertEqual(try fixture.get("/pause").json["playback"] as? String, "paused")
        XCTAssertEqual(try fixture.postForm("/resume", []).status, 200)
        XCTAssertEqual(try fixture.get("/next").status, 200)
        XCTAssertEqual(try fixture.get("/previous").status, 200)
        XCTAssertEqual(try fixture.get("/volume/35").json["volume"] as? Int, 35)
        XCTAssertEqual(try fixture.get("/volume/up").json["volume"] as? Int, 45, "player.volume_step is 10")
        XCTAssertEqual(try fixture.get("/volume/down").json["volume"] as? Int, 35)
        XCTAssertEqual(try fixture.get("/say?text=Hello%20there").json["command"] as? String, "say")
        XCTAssertEqual(try fixture.get("/stop").json["playback"] as? String, "idle")
        XCTAssertEqual(
            fixture.control.commands,
            [
                "play youtube dQw4w9WgXcQ", "play url https://example.org/radio.mp3", "pause", "resume", "next", "previous",
                "volume 35", "volume +10", "volume -10", "say Hello there", "stop",
            ])
        XCTAssertEqual(try fixture.get("/status").json["volume"] as? Int, 35)
    }

    func testBadControlParametersAre400() throws {
        for (path, parameter) in [
            ("/play", "ytb"), ("/play?ytb=a%20b", "ytb"), ("/play?url=file%3A%2F%2F%2Fetc%2Fpasswd", "url"),
            ("/volume/101", "level"), ("/volume/-1", "level"), ("/volume/loud", "level"), ("/say", "text"),
            ("/say?text=%20%20", "text"),
        ] {
            let reply = try fixture.get(path)
            XCTAssertEqual(reply.status, 400, path)
            XCTAssertEqual(reply.json["parameter"] as? String, parameter, path)
        }
        XCTAssertEqual(fixture.control.commands, [])
    }

    func testAFailingPlayerIsAJSONErrorWithItsCode() throws {
        fixture.control.failEverything()
        for path in ["/play?ytb=abc", "/pause", "/volume/up", "/say?text=hi"] {
            let reply = try fixture.get(path)
            XCTAssertEqual(reply.status, 503, path)
            XCTAssertEqual(reply.json["code"] as? String, "player-missing", path)
        }
        XCTAssertEqual(try fixture.get("/status").status, 200, "the server keeps answering")
    }

    func testHooksGetValuesInTheEnvironmentNeverInTheCommand() throws {
        let directory = fixture.directory
        try fixture.store.set(
            "setup.on_wifi", to: "printf '%s' \"$SUSI_WIFI_SSID\" > '\(directory)/ssid.txt'; env > '\(directory)/env.txt'")
        try fixture.store.set("setup.on_complete", to: "printf '%s' \"$SUSI_ROOM\" > '\(directory)/room.txt'")
        // Would print uid=... or fail to parse if it ever reached the shell as code.
        let ssid = "it's $(id) `id`;|& \"x\""
        let encodedSSID = try XCTUnwrap(ssid.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        XCTAssertEqual(try fixture.get("/wifi_credentials?wifissid=\(encodedSSID)&wifipassd=hook-secret-1").status, 200)
        XCTAssertEqual(try fixture.get("/config?stt=google&tts=google&hotword=y&wake=n").status, 200)
        XCTAssertTrue(fixture.service.hooks.waitForAll(seconds: 10))
        XCTAssertEqual(try String(contentsOfFile: directory + "/ssid.txt", encoding: .utf8), ssid)
        XCTAssertEqual(try String(contentsOfFile: directory + "/room.txt", encoding: .utf8), "Kitchen")
        let environment = try String(contentsOfFile: directory + "/env.txt", encoding: .utf8)
        XCTAssertTrue(environment.contains("SUSI_WIFI_OPEN=0"))
        XCTAssertFalse(environment.contains("hook-secret-1"), "the passphrase is not passed to hooks")
    }
}
