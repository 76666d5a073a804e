import Foundation
import SusiServer
import XCTest

/// The apps' setup calls end to end over HTTP (curl), checking the config and Wi-Fi file after
/// every step.
final class SetupFlowTests: XCTestCase {
    private var fixture: SetupFixture!

    override func setUpWithError() throws {
        fixture = try SetupFixture()
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testTheIOSCallSequenceStoresEverythingAndEndsSetup() throws {
        XCTAssertTrue(fixture.service.setupState.isInSetupMode, "first start is setup mode")

        let room = try fixture.get("/speaker_config?room_name=Living%20Room")
        XCTAssertEqual(room.status, 200)
        XCTAssertEqual(room.json as NSDictionary, ["room_name": "Living Room"])
        XCTAssertEqual(try fixture.config.room, "Living Room")
        XCTAssertNil(fixture.wifiText)

        let wifi = try fixture.get("/wifi_credentials?wifissid=Home%20Net&wifipassd=correct%20horse")
        XCTAssertEqual(wifi.status, 200)
        XCTAssertEqual(wifi.json as NSDictionary, ["wifi": "configured", "wifi_ssid": "Home Net"])
        XCTAssertFalse(wifi.body.contains("correct horse"), "the passphrase is never echoed")
        let text = try XCTUnwrap(fixture.wifiText)
        XCTAssertTrue(text.contains("\tssid=\"Home Net\"\n"), text)
        XCTAssertTrue(text.contains("\tpsk=\"correct horse\"\n"), text)
        XCTAssertTrue(text.contains("key_mgmt=WPA-PSK"), text)
        XCTAssertEqual(try fixture.mode(fixture.wifiPath), 0o600)
        XCTAssertEqual(try fixture.config.room, "Living Room", "earlier steps stay")

        let auth = try fixture.get("/auth?auth=y&email=person%40example.org&password=s3cret-Pa55")
        XCTAssertEqual(auth.status, 200)
        XCTAssertEqual(auth.json["authentication"] as? String, "successful")
        XCTAssertEqual(auth.json["auth"] as? String, "y")
        XCTAssertEqual(auth.json["email"] as? String, "person@example.org")
        XCTAssertNotNil(auth.json["note"], "an offline login says it is pending")
        XCTAssertFalse(auth.body.contains("s3cret"), "the password is never echoed")
        XCTAssertEqual(fixture.account.links, ["person@example.org"])
        XCTAssertTrue(fixture.service.setupState.isInSetupMode, "setup is not finished before /config")

        let config = try fixture.get("/config?stt=google&tts=google&hotword=y&wake=n")
        XCTAssertEqual(config.status, 200)
        XCTAssertEqual(config.json["configuration"] as? String, "successful")
        XCTAssertEqual(config.json["stt"] as? String, "whisper", "a cloud engine becomes the offline default")
        XCTAssertEqual(config.json["tts"] as? String, "espeak-ng")
        XCTAssertEqual(config.json["hotword"] as? String, "y")
        XCTAssertEqual(config.json["wake"] as? String, "n")
        let note = try XCTUnwrap(config.json["note"] as? String)
        XCTAssertTrue(note.contains("google"), note)
        let saved = try fixture.config
        XCTAssertEqual(saved.stt.engine, "whisper")
        XCTAssertTrue(saved.hotword.enabled)
        XCTAssertFalse(saved.hotword.wakeButton)
        XCTAssertEqual(saved.room, "Living Room")
        XCTAssertFalse(fixture.service.setupState.isInSetupMode, "/config finishes setup")
        XCTAssertEqual(try fixture.mode(fixture.store.path), 0o600)
        let token = try XCTUnwrap(config.json["owner_token"] as? String, "the app gets the owner token")

        // After setup: 403 with a JSON message, nothing changes; status and control still work.
        let before = fixture.configBytes
        for path in [
            "/speaker_config?room_name=Garage", "/wifi_credentials?wifissid=x&wifipassd=", "/auth?auth=n",
            "/config?stt=a&tts=b&hotword=y&wake=y",
        ] {
            let refused = try fixture.get(path)
            XCTAssertEqual(refused.status, 403, path)
            XCTAssertEqual(refused.json["code"] as? String, "setup-not-in-setup-mode", path)
        }
        XCTAssertEqual(fixture.configBytes, before)
        XCTAssertEqual(try fixture.get("/status").status, 200)
        XCTAssertEqual(try fixture.post("/pause").status, 401, "control is the owner's now")
        XCTAssertEqual(try fixture.post("/pause", token: token).status, 200)

        // `susi setup --reset` does this: the routes open again.
        try fixture.service.setupState.reset()
        XCTAssertEqual(try fixture.get("/speaker_config?room_name=Garage").status, 200)
        XCTAssertEqual(try fixture.config.room, "Garage")
    }

    func testFormPostsWorkLikeQueries() throws {
        let room = try fixture.postForm("/speaker_config", ["room_name=Front Porch"])
        XCTAssertEqual(room.status, 200)
        XCTAssertEqual(try fixture.config.room, "Front Porch")
        let wifi = try fixture.postForm("/wifi_credentials", ["wifissid=Cafe", "wifipassd="])
        XCTAssertEqual(wifi.status, 200)
        let text = try XCTUnwrap(fixture.wifiText)
        XCTAssertTrue(text.contains("\tssid=\"Cafe\"\n\tscan_ssid=1\n\tkey_mgmt=NONE\n}"), "open network: \(text)")
        XCTAssertFalse(text.contains("psk="))
    }

    func testRebootFormDoesEverythingAtOnceWithoutEchoingSecrets() throws {
        let reply = try fixture.postForm(
            "/reboot",
            [
                "room_name=Kitchen", "wifissid=Home", "wifipassd=wifi-pass-1", "auth=y", "email=a@b.org",
                "password=account-pass", "stt=watson", "tts=flite", "hotword=n", "wake=y",
            ])
        XCTAssertEqual(reply.status, 200, reply.body)
        XCTAssertEqual(reply.json["wifi"] as? String, "configured")
        XCTAssertEqual(reply.json["room_name"] as? String, "Kitchen")
        XCTAssertEqual(reply.json["wifi_ssid"] as? String, "Home")
        XCTAssertEqual(reply.json["message"] as? String, "SUSI is rebooting")
        XCTAssertEqual(reply.json["hotword"] as? String, "n")
        XCTAssertFalse(reply.body.contains("wifi-pass-1"))
        XCTAssertFalse(reply.body.contains("account-pass"))
        let saved = try fixture.config
        XCTAssertEqual(saved.room, "Kitchen")
        XCTAssertFalse(saved.hotword.enabled, "hotword=n with a wake button turns the wake word off")
        XCTAssertTrue(saved.hotword.wakeButton)
        XCTAssertTrue(try XCTUnwrap(fixture.wifiText).contains("psk=\"wifi-pass-1\""))
        XCTAssertFalse(fixture.service.setupState.isInSetupMode)
    }

    func testNoWakeWordAndNoButtonKeepsTheWakeWordWithANote() throws {
        let reply = try fixture.get("/config?stt=pocketsphinx&tts=espeak&hotword=n&wake=n")
        XCTAssertEqual(reply.status, 200)
        XCTAssertTrue(try fixture.config.hotword.enabled)
        XCTAssertTrue((reply.json["note"] as? String ?? "").contains("wake word stays on"))
    }

    func testInvalidParametersAnswer400NamingTheParameterAndSaveNothing() throws {
        let cases: [(String, String)] = [
            ("/speaker_config", "room_name"),
            ("/speaker_config?room_name=", "room_name"),
            ("/speaker_config?room_name=" + String(repeating: "a", count: 65), "room_name"),
            ("/speaker_config?room_name=Bed%0Aroom", "room_name"),
            ("/wifi_credentials?wifipassd=12345678", "wifissid"),
            ("/wifi_credentials?wifissid=" + String(repeating: "x", count: 33) + "&wifipassd=", "wifissid"),
            ("/wifi_credentials?wifissid=Home&wifipassd=short", "wifipassd"),
            ("/wifi_credentials?wifissid=Home&wifipassd=" + String(repeating: "p", count: 64), "wifipassd"),
            ("/wifi_credentials?wifissid=Home&wifipassd=tab%09inside", "wifipassd"),
            ("/auth?email=a@b.c&password=x&auth=yes", "auth"),
            ("/auth?auth=maybe", "auth"),
            ("/auth?auth=y&password=x", "email"),
            ("/auth?auth=y&email=nobody", "email"),
            ("/auth?auth=y&email=a@b.c", "password"),
            ("/config?tts=go%20ogle&hotword=y&wake=n", "tts"),
            ("/config?sst=go%20ogle", "sst"),
            ("/config?stt=go%20ogle&tts=google&hotword=y&wake=n", "stt"),
            ("/config?stt=google&tts=google&hotword=yes&wake=n", "hotword"),
            ("/config?stt=google&tts=google&hotword=y&wake=", "wake"),
            ("/auth", "email"),
        ]
        let config = fixture.configBytes
        for (path, parameter) in cases {
            let reply = try fixture.get(path)
            XCTAssertEqual(reply.status, 400, path)
            XCTAssertEqual(reply.json["code"] as? String, "setup-bad-parameter", path)
            XCTAssertEqual(reply.json["parameter"] as? String, parameter, path)
            XCTAssertTrue((reply.json["error"] as? String ?? "").contains(parameter), path)
        }
        XCTAssertEqual(fixture.configBytes, config, "nothing saved")
        XCTAssertNil(fixture.wifiText, "no Wi-Fi file written")
        XCTAssertEqual(fixture.account.links, [])
        XCTAssertTrue(fixture.service.setupState.isInSetupMode)
    }

    func testABadRebootFieldSavesNothingAtAll() throws {
        let config = fixture.configBytes
        let reply = try fixture.postForm(
            "/reboot",
            [
                "room_name=Kitchen", "wifissid=Home", "wifipassd=wifi-pass-1", "auth=y", "email=a@b.org", "password=pw",
                "stt=google", "tts=google",
                "hotword=sometimes", "wake=n",
            ])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.json["parameter"] as? String, "hotword")
        XCTAssertEqual(fixture.configBytes, config)
        XCTAssertNil(fixture.wifiText)
        XCTAssertEqual(fixture.account.links, [], "no login attempted")
        let badAccount = try fixture.postForm("/reboot", ["room_name=Kitchen", "email=a@b.org"])
        XCTAssertEqual(badAccount.status, 400, "an email without a password is truly invalid")
        XCTAssertEqual(badAccount.json["parameter"] as? String, "password")
        XCTAssertEqual(fixture.configBytes, config)
    }

    /// The parameter lists of the seeds and susi_linux's clients: what they leave out keeps
    /// its value, and the spellings they used are understood.
    func testTheSeedsParameterVariantsAreAccepted() throws {
        let auth = try fixture.get("/auth?email=person%40example.org&password=pw-only-1")
        XCTAssertEqual(auth.status, 200, auth.body)
        XCTAssertEqual(auth.json["auth"] as? String, "y", "email and password alone mean an account")
        XCTAssertEqual(fixture.account.links, ["person@example.org"])
        let anonymous = try fixture.get("/auth?auth=n&email=ignored%40example.org&password=x")
        XCTAssertEqual(anonymous.json as NSDictionary, ["authentication": "successful", "auth": "n", "email": ""])
        XCTAssertEqual(fixture.account.signOuts, 1)

        let open = try fixture.get("/wifi_credentials?wifissid=Cafe")
        XCTAssertEqual(open.status, 200, open.body)
        XCTAssertEqual(open.json as NSDictionary, ["wifi": "configured", "wifi_ssid": "Cafe"])
        XCTAssertTrue(try XCTUnwrap(fixture.wifiText).contains("\tssid=\"Cafe\"\n\tscan_ssid=1\n\tkey_mgmt=NONE\n}"))

        try fixture.store.set("hotword.wake_button", to: "true")
        let sst = try fixture.get("/config?sst=pocketsphinx")
        XCTAssertEqual(sst.status, 200, sst.body)
        XCTAssertEqual(sst.json["stt"] as? String, "pocketsphinx")
        XCTAssertEqual(try fixture.config.stt.engine, "pocketsphinx", "an engine this speaker runs is kept as asked")
        XCTAssertEqual(sst.json["tts"] as? String, "espeak-ng")
        XCTAssertEqual(sst.json["hotword"] as? String, "y", "kept")
        XCTAssertEqual(sst.json["wake"] as? String, "y", "kept")
        XCTAssertNil(sst.json["note"], "nothing asked for that this speaker lacks")
        XCTAssertNotNil(sst.json["owner_token"])
        let saved = try fixture.config
        XCTAssertTrue(saved.hotword.enabled)
        XCTAssertTrue(saved.hotword.wakeButton, "kept, not reset to a default")
        XCTAssertFalse(fixture.service.setupState.isInSetupMode)

        try fixture.service.setupState.reset()
        let reboot = try fixture.postForm("/reboot", ["hotword=n"])
        XCTAssertEqual(reboot.status, 200, reboot.body)
        XCTAssertEqual(reboot.json["wifi"] as? String, "unchanged")
        XCTAssertEqual(reboot.json["auth"] as? String, "unchanged")
        XCTAssertEqual(reboot.json["message"] as? String, "SUSI is rebooting")
        let rebootToken = try XCTUnwrap(reboot.json["owner_token"] as? String)
        XCTAssertNotEqual(rebootToken, sst.json["owner_token"] as? String, "each setup hands out a new token")
        XCTAssertEqual(rebootToken, fixture.service.access.tokenFile.token)
        XCTAssertEqual(fixture.account.links, ["person@example.org"], "no login without account fields")
        XCTAssertFalse(try fixture.config.hotword.enabled, "hotword=n with the wake button kept")
        XCTAssertTrue(try XCTUnwrap(fixture.wifiText).contains("Cafe"), "the network kept")
    }

    func testARefusedLoginIs401AndNotStored() throws {
        fixture.tearDown()
        fixture = try SetupFixture(account: RecordingAccountLinking(.refusing))
        let reply = try fixture.get("/auth?auth=y&email=a@b.c&password=wrong-one")
        XCTAssertEqual(reply.status, 401)
        XCTAssertEqual(reply.json["code"] as? String, "setup-login-refused")
        XCTAssertFalse(reply.body.contains("wrong-one"))
    }

    /// "No account" signs out, through `/auth` and through the all-in-one `/reboot`.
    func testAnonymousUseSignsOut() throws {
        let reply = try fixture.get("/auth?auth=n")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.json as NSDictionary, ["authentication": "successful", "auth": "n", "email": ""])
        XCTAssertEqual(fixture.account.signOuts, 1)
        let reboot = try fixture.postForm("/reboot", ["auth=n"])
        XCTAssertEqual(reboot.status, 200, reboot.body)
        XCTAssertEqual(reboot.json["auth"] as? String, "n")
        XCTAssertEqual(fixture.account.signOuts, 2)
    }

    func testRoomsFromTheAppsPickerAndOtherNamesAreAccepted() throws {
        for room in ["Bedroom", "Computer Room", "Driveway", "Kinderzimmer", "Salle à manger"] {
            let encoded = try XCTUnwrap(room.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            XCTAssertEqual(try fixture.get("/speaker_config?room_name=" + encoded).status, 200, room)
            XCTAssertEqual(try fixture.config.room, room)
        }
    }
}
