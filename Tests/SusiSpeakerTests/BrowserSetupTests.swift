import Foundation
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// First setup from a browser (issue 51): headless Chromium fills the setup form on the
/// speaker's page as a person would, against the setup service's routes on the real HTTP server
/// (127.0.0.1), with the speaker's own account link logging in to a fake SUSI server on
/// loopback; then the files say what the apps' setup would have left.
final class BrowserSetupTests: XCTestCase {
    private var scratch: ScratchConfig!
    private var susi: HTTPServer!
    private var service: SetupService!
    private var server: HTTPServer!
    private var base = ""
    private let logins = Logins()

    /// The queries the fake SUSI server's login saw.
    final class Logins: Sendable {
        private let entries = Mutex<[[String: String]]>([])
        func add(_ query: [String: String]) { entries.withLock { $0.append(query) } }
        var all: [[String: String]] { entries.withLock { $0 } }
    }

    /// What the fake scan lists: a secured home network (seen twice) and an open one.
    private static let scan = WiFiScan(seen: [
        ScannedNetwork(ssid: "Home", signal: -48, secure: true), ScannedNetwork(ssid: "Cafe", signal: -71, secure: false),
        ScannedNetwork(ssid: "Home", signal: -60, secure: true),
    ])

    private struct FixedScanner: WiFiScanning {
        let answer: WiFiScan
        func scan(interface: String) -> WiFiScan { answer }
    }

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
        let logins = self.logins
        let (susi, susiBase) = try startServer { router in
            router.get("/aaa/login.json") { request in
                logins.add(request.query)
                guard request.query["login"] == "mario@example.com", request.query["password"] == "secret" else {
                    return .json(object: ["accepted": false, "message": "wrong password"], status: 401)
                }
                return .json(object: ["accepted": true, "access_token": "tok-abc", "valid_seconds": 604_800])
            }
        }
        self.susi = susi
        _ = try scratch.store.set("brain.server", to: susiBase)
    }

    override func tearDown() {
        server?.stop()
        susi?.stop()
        scratch.remove()
    }

    /// The setup service as `SetupServer` makes it (the speaker's account link over curl),
    /// on 127.0.0.1 with the harness page beside it.
    private func startSetup(scanner: any WiFiScanning = FixedScanner(answer: scan)) throws {
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: { _ in })
        var account = SetupAccountLink(store: scratch.store, logger: .silent)
        account.http = { CurlHTTPClient() }
        service = SetupService(
            store: scratch.store, live: live, control: control, account: account,
            voices: {
                [VoiceChoice(id: "en-us", name: "English (America)"), VoiceChoice(id: "en-gb", name: "English (Great Britain)")]
            },
            version: "test", scanner: scanner)
        var router = service.makeRouter()
        router.get("/test-harness") { _ in .html(PageScript.harness) }
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: SetupService.limits, router: router)
        try server.start()
        base = "http://127.0.0.1:\(try XCTUnwrap(server.port))"
    }

    /// What the harness reports after doing `steps` on the page.
    private func browse(_ steps: [PageStep]) throws -> String {
        let dom = try HeadlessChromium.dumpDOM(
            base + "/test-harness#" + PageScript.fragment(steps), directory: scratch.directory, budgetMilliseconds: 40_000)
        return PageScript.result(in: dom)
    }

    /// One field of the harness's report (`id=text`), without the others after it.
    private func field(_ id: String, in result: String) -> String? {
        result.components(separatedBy: "; ").first { $0.hasPrefix(id + "=") }.map { String($0.dropFirst(id.count + 1)) }
    }

    private var config: Config {
        get throws { try scratch.store.load() }
    }

    private var wifiText: String {
        (try? String(contentsOfFile: scratch.directory + "/wpa_supplicant.conf", encoding: .utf8)) ?? ""
    }

    private var ownerToken: String? { OwnerTokenFile(configStore: scratch.store).token }

    /// The apps' `/config` once more: setup is over, so it is refused.
    private func assertSetupIsFinished(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertFalse(SetupStateFile(configStore: scratch.store).isInSetupMode, file: file, line: line)
        let again = try CurlHTTPClient().send(HTTPRequest(url: base + "/config", query: [("hotword", "y")]))
        XCTAssertEqual(again.status, 403, "a second client gets no token", file: file, line: line)
    }

    /// The steps for the form's last part and its end: room, voice, wake word, finish, and the
    /// owner's page loading after it.
    private func finishing(room: String, wake: String?) -> [PageStep] {
        [.set("setup-room", room), .wait("setup-voice", "Great Britain"), .set("setup-voice", "en-gb")]
            + (wake.map { [.set("setup-wake", $0)] } ?? [])
            + [
                .click("setup-finish"), .waitForBody("data-setup", "done|failed"), .report("setup-progress"),
                .report("setup-details"), .report("setup-token"), .wait("state", "^idle$"), .report("state"),
                .report("setup-form"),
            ]
    }

    /// A new speaker (setup mode, no owner yet): a network from the scan with its password, no
    /// account, room, voice and wake word. The page needs no token, ends setup as the apps do,
    /// keeps the token it was given for its session and shows it once.
    func testFirstSetupWithoutAnAccount() throws {
        try startSetup()
        XCTAssertNil(ownerToken, "no owner yet")
        let result = try browse(
            [
                .wait("setup-network", "Home, strong signal.*Cafe \\(open\\), fair signal"), .report("setup-scan"),
                .set("setup-network", "Home"), .report("setup-password-box"),
                .set("setup-wifi-password", "correct horse battery"),
                .click("setup-auth-n"),
            ] + finishing(room: "Kitchen", wake: "hey computer"))
        XCTAssertTrue(result.hasPrefix("done; "), result)
        XCTAssertEqual(field("setup-scan", in: result), "Networks the speaker sees, strongest first.", result)
        XCTAssertEqual(field("setup-password-box", in: result)?.hasPrefix("Wi-Fi password"), true, result)
        let details = try XCTUnwrap(field("setup-details", in: result), result)
        XCTAssertTrue(details.contains("The speaker is joining “Home”. Reconnect this phone or laptop to “Home”"), details)
        XCTAssertTrue(details.contains("No SUSI.AI account"), details)
        XCTAssertTrue(details.contains("Room “Kitchen”."), details)
        XCTAssertTrue(details.contains("Voice: English (Great Britain) (en-gb)."), details)
        XCTAssertTrue(details.contains("Wake word: “hey computer”."), details)
        let token = try XCTUnwrap(ownerToken, "setup made the owner token")
        XCTAssertEqual(field("setup-token", in: result), token, "the page shows the token /config gave it")
        XCTAssertEqual(field("state", in: result), "idle", "signed in as the owner, out of setup mode")
        XCTAssertEqual(field("setup-form", in: result)?.hasPrefix("(hidden)"), true, result)

        XCTAssertTrue(wifiText.contains("\tssid=\"Home\"\n"), wifiText)
        XCTAssertTrue(wifiText.contains("\tpsk=\"correct horse battery\"\n"), wifiText)
        let saved = try config
        XCTAssertEqual(saved.room, "Kitchen")
        XCTAssertEqual(saved.tts.voice, "en-gb")
        XCTAssertEqual(saved.hotword.phrase, "hey computer")
        XCTAssertEqual(saved.stt.engine, "whisper", "what the apps' stt=google sets")
        XCTAssertTrue(saved.hotword.enabled)
        XCTAssertFalse(saved.hotword.wakeButton)
        XCTAssertTrue(logins.all.isEmpty, "no account: no login")
        XCTAssertNil(PendingLoginFile(configStore: scratch.store).load())
        try assertSetupIsFinished()
    }

    /// After `susi setup --reset` (an owner token exists, so the page asks for it) the setup form
    /// is there too and works without it: an open network from the scan, a refused SUSI.AI sign-in
    /// shown beside the account fields, then the right password; the fake SUSI server's token is
    /// stored, and the old owner's token is out.
    func testSetupAfterAResetSigningInToSUSI() throws {
        try startSetup()
        for call in ["/speaker_config?room_name=Hall", "/wifi_credentials?wifissid=Old", "/auth?auth=n", "/config"] {
            XCTAssertEqual(try CurlHTTPClient().send(HTTPRequest(url: base + call)).status, 200, call)
        }
        let oldToken = try XCTUnwrap(ownerToken)
        try service.access.resetSetup()

        let result = try browse(
            [
                .waitForBody("data-ready", "signin"), .wait("setup-network", "Cafe"), .report("signin"),
                .set("setup-network", "Cafe"), .report("setup-password-box"), .click("setup-auth-y"),
                .set("setup-email", "mario@example.com"), .set("setup-password", "wrong"), .set("setup-room", "Living Room"),
                .wait("setup-voice", "Great Britain"), .set("setup-voice", "en-gb"), .click("setup-finish"),
                .waitForBody("data-setup", "failed"), .report("setup-msg-auth"), .set("setup-password", "secret"),
            ] + finishing(room: "Living Room", wake: nil))
        XCTAssertTrue(result.hasPrefix("done; "), result)
        XCTAssertEqual(field("signin", in: result)?.hasPrefix("Owner token"), true, "the sign-in form is offered too: \(result)")
        XCTAssertEqual(field("setup-password-box", in: result)?.hasPrefix("(hidden)"), true, "an open network needs none")
        XCTAssertEqual(field("setup-msg-auth", in: result)?.contains("refused the login"), true, result)
        let details = try XCTUnwrap(field("setup-details", in: result), result)
        XCTAssertTrue(details.contains("The speaker is joining “Cafe”"), details)
        XCTAssertTrue(details.contains("Signed in to SUSI.AI as mario@example.com."), details)
        XCTAssertTrue(details.contains("Wake word: “susi”."), details)
        let token = try XCTUnwrap(ownerToken)
        XCTAssertNotEqual(token, oldToken, "the old owner is out")
        XCTAssertEqual(field("setup-token", in: result), token)
        XCTAssertEqual(field("state", in: result), "idle")

        XCTAssertEqual(
            logins.all.map { [$0["login"] ?? "", $0["password"] ?? ""] },
            [["mario@example.com", "wrong"], ["mario@example.com", "secret"]], "the speaker logged in, as the apps make it")
        let server = try config.brain.server
        XCTAssertEqual(AccountStore(configStore: scratch.store).token(for: server)?.accessToken, "tok-abc")
        XCTAssertTrue(wifiText.contains("\tssid=\"Cafe\"\n\tscan_ssid=1\n\tkey_mgmt=NONE\n"), wifiText)
        let saved = try config
        XCTAssertEqual(saved.room, "Living Room")
        XCTAssertEqual(saved.tts.voice, "en-gb")
        XCTAssertEqual(saved.hotword.phrase, "susi")
        try assertSetupIsFinished()
    }

    /// Where the speaker cannot scan (the real wpa_cli, no wpa_supplicant on the interface),
    /// the page says why and takes the network's name typed in.
    func testTypingTheNetworkWhereTheSpeakerCannotScan() throws {
        _ = try scratch.store.set("setup.hotspot.interface", to: "susinone0")
        try startSetup(scanner: WPAScanner(clientDirectory: scratch.directory))
        let result = try browse(
            [
                .wait("setup-scan", "cannot list networks"), .report("setup-scan"), .report("setup-ssid-box"),
                .set("setup-ssid", "Upstairs 5G"), .set("setup-wifi-password", "12345678"),
            ] + finishing(room: "Garage", wake: nil))
        XCTAssertTrue(result.hasPrefix("done; "), result)
        XCTAssertEqual(
            field("setup-scan", in: result),
            "No networks listed: wpa_supplicant is not running on susinone0 (while the setup hotspot is open it is not), "
                + "so the speaker cannot list networks. Type the network's name.")
        XCTAssertEqual(field("setup-ssid-box", in: result)?.hasPrefix("Network name (SSID)"), true, "shown: \(result)")
        XCTAssertTrue(wifiText.contains("\tssid=\"Upstairs 5G\"\n"), wifiText)
        XCTAssertTrue(wifiText.contains("\tpsk=\"12345678\"\n"), wifiText)
        XCTAssertEqual(try config.room, "Garage")
        try assertSetupIsFinished()
    }

    /// A laptop on a speaker that already has its network: setup without `/wifi_credentials`,
    /// and the Wi-Fi file stays untouched.
    func testKeepingTheCurrentConnection() throws {
        try startSetup()
        let result = try browse(
            [.wait("setup-network", "Keep the speaker's current connection"), .set("setup-network", "\u{0}keep")]
                + finishing(room: "Hallway", wake: nil))
        XCTAssertTrue(result.hasPrefix("done; "), result)
        XCTAssertTrue(
            field("setup-details", in: result)?.contains("The speaker keeps its current network connection.") == true, result)
        XCTAssertFalse(FileManager.default.fileExists(atPath: scratch.directory + "/wpa_supplicant.conf"))
        XCTAssertEqual(try config.room, "Hallway")
        try assertSetupIsFinished()
    }
}
