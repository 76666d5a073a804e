import Foundation
import Synchronization
import XCTest

@testable import SusiServer

/// After setup only the owner controls the speaker: bearer token or the web page's session
/// cookie; everyone else gets 401, and `/status` says only `{"ok": true}`.
final class OwnerAccessTests: XCTestCase {
    private var fixture: SetupFixture!

    override func setUpWithError() throws {
        fixture = try SetupFixture { $0.room = "Kitchen" }
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testControlNeedsTheOwnerTokenAfterSetup() throws {
        XCTAssertEqual(try fixture.post("/pause").status, 200, "setup mode with no token yet: open, as the apps need")
        let token = try fixture.finishSetup()
        XCTAssertEqual(token.count, 43)
        XCTAssertEqual(try String(contentsOfFile: fixture.directory + "/owner-token", encoding: .utf8), token + "\n")
        XCTAssertEqual(try fixture.mode(fixture.directory + "/owner-token"), 0o600)
        let before = fixture.control.commands

        for path in ["/pause", "/play?ytb=abc", "/volume/33", "/say?text=hello", "/stop", "/shuffle", "/mac"] {
            for credential in [nil, "wrong-token-0123456789abcdefgh", token + "x", ""] {
                let reply = try fixture.post(path, token: credential)
                XCTAssertEqual(reply.status, 401, "\(path) with \(credential ?? "nothing")")
                XCTAssertEqual(reply.json["code"] as? String, "server-unauthorized", path)
            }
        }
        XCTAssertEqual(fixture.control.commands, before, "nothing ran without the token")
        let settings = try fixture.send(
            "POST", "/settings", headers: ["Content-Type": "application/json"], body: #"{"key":"brain.mode","value":"remote"}"#)
        XCTAssertEqual(settings.status, 401)
        XCTAssertEqual(try fixture.config.brain.mode, "hybrid", "not switched to the cloud")
        XCTAssertEqual(try fixture.get("/settings").status, 401, "no room or voice for strangers")

        let bare = try fixture.get("/status")
        XCTAssertEqual(bare.status, 200)
        XCTAssertEqual(bare.json as NSDictionary, ["ok": true], "nothing personal: \(bare.body)")

        XCTAssertEqual(try fixture.post("/pause", token: token).status, 200)
        XCTAssertEqual(try fixture.post("/volume/33", token: token).json["volume"] as? Int, 33)
        XCTAssertEqual(Array(fixture.control.commands.dropFirst(before.count)), ["pause", "volume 33"])
        let full = try fixture.send("GET", "/status", headers: ["Authorization": "bearer \(token)"])
        XCTAssertEqual(full.json["room"] as? String, "Kitchen")
        XCTAssertNotNil(full.json["last_interaction"], "the owner sees it")
        let owned = try fixture.send(
            "POST", "/settings",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: #"{"key":"tts.rate","value":200}"#)
        XCTAssertEqual(owned.status, 200, owned.body)
        XCTAssertEqual(try fixture.config.tts.rate, 200)
    }

    func testTheWebPageTradesTheTokenForAStrictHttpOnlyCookie() throws {
        let token = try fixture.finishSetup()
        let wrong = try fixture.send(
            "POST", "/session", headers: ["Content-Type": "application/json"], body: #"{"token":"not-it-0123456789abcdef"}"#)
        XCTAssertEqual(wrong.status, 401)
        XCTAssertNil(wrong.headers["set-cookie"])

        let right = try fixture.send(
            "POST", "/session", headers: ["Content-Type": "application/json"], body: #"{"token":"\#(token)"}"#)
        XCTAssertEqual(right.status, 200, right.body)
        let cookie = try XCTUnwrap(right.headers["set-cookie"])
        XCTAssertTrue(cookie.contains("HttpOnly"), cookie)
        XCTAssertTrue(cookie.contains("SameSite=Strict"), cookie)
        XCTAssertFalse(cookie.contains(token), "the cookie is not the token itself")
        let session = try XCTUnwrap(cookie.split(separator: ";").first).trimmingCharacters(in: .whitespaces)

        XCTAssertEqual(try fixture.send("POST", "/pause", headers: ["Cookie": session]).status, 200)
        XCTAssertEqual(try fixture.send("GET", "/settings", headers: ["Cookie": "other=1; " + session]).status, 200)
        XCTAssertEqual(try fixture.send("POST", "/pause", headers: ["Cookie": "susi_session=made-up"]).status, 401)

        // Rotating the token (susi setup token --rotate) ends the old token and its sessions.
        let rotated = try fixture.service.access.tokenFile.rotate()
        XCTAssertNotEqual(rotated, token)
        XCTAssertEqual(try fixture.send("POST", "/pause", headers: ["Cookie": session]).status, 401)
        XCTAssertEqual(try fixture.post("/pause", token: token).status, 401)
        XCTAssertEqual(try fixture.post("/pause", token: rotated).status, 200)
    }

    func testASpeakerSetUpBeforeTokensGetsOneOnItsNextStart() throws {
        try fixture.service.setupState.finish()
        let directory = fixture.directory
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/owner-token"))
        let restarted = SetupService(
            store: fixture.store, control: fixture.control, account: fixture.account, voices: { [] }, version: "t")
        let token = try XCTUnwrap(restarted.access.tokenFile.token, "made on start")
        let router = restarted.makeRouter()
        XCTAssertEqual(router.handle(ServerRequest(method: "POST", path: "/stop")).status, 401)
        XCTAssertEqual(
            router.handle(ServerRequest(method: "POST", path: "/stop", headers: ["authorization": "Bearer \(token)"])).status,
            200)
    }

    /// Issue 50: a reset replaces the token and ends its sessions; finishing setup again gives
    /// a new token, once, and never the old owner's.
    func testResetRotatesTheTokenAndSetupHandsANewOneOutOnce() throws {
        let token = try fixture.finishSetup()
        let login = try fixture.send(
            "POST", "/session", headers: ["Content-Type": "application/json"], body: #"{"token":"\#(token)"}"#)
        let session = try XCTUnwrap(login.headers["set-cookie"]?.split(separator: ";").first).trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(try fixture.send("POST", "/pause", headers: ["Cookie": session]).status, 200)

        try fixture.service.access.resetSetup()
        XCTAssertEqual(try fixture.get("/speaker_config?room_name=Garage").status, 200, "setup routes open again")
        XCTAssertEqual(try fixture.post("/stop").status, 401, "control still needs a token")
        XCTAssertEqual(try fixture.post("/stop", token: token).status, 401, "the old token is void")
        XCTAssertEqual(try fixture.send("POST", "/pause", headers: ["Cookie": session]).status, 401, "its session ended")

        let again = try fixture.get("/config?stt=google&tts=google&hotword=y&wake=n")
        let fresh = try XCTUnwrap(again.json["owner_token"] as? String)
        XCTAssertNotEqual(fresh, token, "setting up again never hands out the old owner's token")
        XCTAssertEqual(try fixture.post("/stop", token: fresh).status, 200)
        let twice = try fixture.get("/config?stt=google&tts=google&hotword=y&wake=n")
        XCTAssertEqual(twice.status, 403)
        XCTAssertNil(twice.json["owner_token"], "a token only once per setup")
        XCTAssertEqual(try fixture.post("/stop", token: fresh).status, 200, "and the given one stays good")
    }

    /// Issue 50: the speaker's own hotspot passphrase is the owner's to read, on the page.
    func testTheOwnerSeesTheHotspotPassphraseAndNobodyElse() throws {
        let token = try fixture.finishSetup()
        let stranger = try fixture.get("/settings")
        XCTAssertEqual(stranger.status, 401)
        let owner = try fixture.send("GET", "/settings", headers: ["Authorization": "Bearer \(token)"])
        let passphrase = try XCTUnwrap(owner.json["hotspot_passphrase"] as? String)
        XCTAssertEqual(passphrase, HotspotPassphraseFile(configStore: fixture.store).passphrase)
        XCTAssertEqual(passphrase.count, 19)
        XCTAssertFalse(stranger.body.contains(passphrase))
        XCTAssertEqual(owner.json["hotspot_ssid"] as? String, "SUSI.AI")
        _ = try fixture.store.set("setup.hotspot.open", to: "true")
        let open = try fixture.send("GET", "/settings", headers: ["Authorization": "Bearer \(token)"])
        XCTAssertNil(open.json["hotspot_passphrase"], "an open hotspot has none")
    }

    /// Clients finishing setup at the same moment: exactly one gets a token, the one in force.
    func testOfConcurrentSetupsOnlyOneGetsTheToken() throws {
        _ = try fixture.finishSetup()
        for _ in 0..<3 {
            try fixture.service.access.resetSetup()
            let tokens = Mutex<[String]>([])
            let statuses = Mutex<[Int]>([])
            let url = fixture.base + "/config?stt=google&tts=google&hotword=y&wake=n"
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                guard let reply = try? runCurl([url]) else { return }
                statuses.withLock { $0.append(reply.status) }
                let json = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
                if let token = json?["owner_token"] as? String { tokens.withLock { $0.append(token) } }
            }
            XCTAssertEqual(statuses.withLock { $0.sorted() }, [200, 403, 403, 403, 403, 403])
            let handed = tokens.withLock { $0 }
            XCTAssertEqual(handed.count, 1)
            XCTAssertEqual(handed.first, fixture.service.access.tokenFile.token, "the token handed out is the one in force")
        }
    }

    func testAnUnreadableTokenFileKeepsEverythingClosed() throws {
        try Data("not a token\n".utf8).write(to: URL(fileURLWithPath: fixture.directory + "/owner-token"))
        XCTAssertEqual(try fixture.post("/stop").status, 401, "even in setup mode")
        XCTAssertEqual(try fixture.post("/stop", token: "not a token").status, 401)
    }

    func testTokenFile() throws {
        let file = OwnerTokenFile(path: fixture.directory + "/t/owner-token")
        XCTAssertNil(file.token)
        XCTAssertFalse(file.matches(""))
        let first = try file.ensure()
        XCTAssertEqual(try file.ensure(), first, "ensure keeps an existing token")
        XCTAssertTrue(file.matches(first))
        XCTAssertFalse(file.matches(String(first.dropLast())))
        XCTAssertFalse(file.matches(first + "A"))
        let second = try file.rotate()
        XCTAssertNotEqual(second, first)
        XCTAssertFalse(file.matches(first))
        var seen = Set<String>()
        for _ in 0..<200 { seen.insert(OwnerTokenFile.generate()) }
        XCTAssertEqual(seen.count, 200)
        XCTAssertTrue(seen.allSatisfy { OwnerTokenFile.isWellFormed($0) && $0.count == 43 })
        XCTAssertTrue(OwnerTokenFile.constantTimeEqual("abc", "abc"))
        XCTAssertFalse(OwnerTokenFile.constantTimeEqual("abc", "abd"))
        XCTAssertFalse(OwnerTokenFile.constantTimeEqual("abc", "abcd"))
        XCTAssertFalse(OwnerTokenFile.constantTimeEqual("", "a"))
    }

    func testSessionsAreBoundedAndExpire() throws {
        let clock = TestClock()
        let tokenFile = OwnerTokenFile(path: fixture.directory + "/owner-token")
        let token = try tokenFile.ensure()
        let access = OwnerAccess(tokenFile: tokenFile, setupState: fixture.service.setupState, now: { clock.now })
        func request(_ cookie: String) -> ServerRequest {
            ServerRequest(method: "GET", path: "/", headers: ["cookie": cookie])
        }
        let cookies = (0..<(OwnerAccess.maxSessions + 1)).compactMap { _ -> String? in
            clock.advance(1)
            return access.startSession(token: token)?.split(separator: ";").first.map(String.init)
        }
        XCTAssertEqual(cookies.count, OwnerAccess.maxSessions + 1)
        XCTAssertFalse(access.isOwner(request(cookies[0])), "the oldest session made room")
        XCTAssertTrue(access.isOwner(request(cookies[1])))
        clock.advance(Double(OwnerAccess.sessionSeconds))
        XCTAssertFalse(access.isOwner(request(cookies[1])), "expired")
        XCTAssertNil(access.startSession(token: token + "x"))
    }
}

/// A settable clock for sessions and rate limits.
final class TestClock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: Double) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
