import Foundation
import SusiNet
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// Adding the speaker to the owner's SUSI device list after `/auth`, against a loopback SUSI
/// server (login and addNewDevice).
final class DeviceRegistrationTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    /// Queries the fake SUSI server saw, by path.
    final class Seen: Sendable {
        private let entries = Mutex<[(path: String, query: [String: String])]>([])
        func add(_ path: String, _ query: [String: String]) { entries.withLock { $0.append((path, query)) } }
        func queries(_ path: String) -> [[String: String]] { entries.withLock { $0.filter { $0.path == path }.map(\.query) } }
    }

    private func susiServer(_ seen: Seen) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/aaa/login.json") { request in
                seen.add("login", request.query)
                return .json(object: ["accepted": true, "access_token": "tok-abc", "valid_seconds": 604_800])
            }
            router.get("/aaa/addNewDevice.json") { request in
                seen.add("device", request.query)
                guard request.query["access_token"] == "tok-abc" else { return .text("no", status: 401) }
                return .json(object: ["accepted": true, "message": "You have successfully added the device!"])
            }
            router.get("/aaa/removeUserDevices.json") { request in
                seen.add("remove", request.query)
                guard request.query["access_token"] == "tok-abc" else { return .text("no", status: 401) }
                return .json(object: ["accepted": true, "message": "Device removed"])
            }
            router.get("/susi/chat.json") { request in
                seen.add("chat", request.query)
                return .json(object: ["query": request.query["q"] ?? "", "answers": []])
            }
        }
    }

    /// A setup server over this scratch config, talking to the SUSI server at `base`.
    private func setupServer() throws -> SetupServer {
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: { _ in })
        return SetupServer(
            store: scratch.store, control: control, port: 0, host: "127.0.0.1", http: { CurlHTTPClient() }, logger: .silent)
    }

    /// Links the account through the apps' `/auth` and waits for the registration.
    private func linkThroughTheApps(_ setup: SetupServer, _ seen: Seen) throws {
        let url = "http://127.0.0.1:\(try XCTUnwrap(setup.server.port))/auth"
        let reply = try CurlHTTPClient().send(
            HTTPRequest(url: url, query: [("auth", "y"), ("email", "mario@example.com"), ("password", "secret")]))
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: self.registration().recordPath) }, "registered")
        XCTAssertEqual(seen.queries("device").count, 1)
    }

    /// After "no account": no token on chat requests, no registration to the old account.
    private func assertSignedOut(_ seen: Seen, _ base: String, line: UInt = #line) throws {
        XCTAssertEqual(AccountStore(configStore: scratch.store).state(), .loggedOut, "the login is gone", line: line)
        let removed = try XCTUnwrap(seen.queries("remove").last, "taken off the account's devices", line: line)
        XCTAssertEqual(removed["access_token"], "tok-abc", line: line)
        XCTAssertTrue(DeviceEntry.isMAC(removed["macid"] ?? ""), "\(removed)", line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: registration().recordPath), line: line)
        XCTAssertEqual(registration().registerIfNeeded(), .notLoggedIn, line: line)
        let chat = SusiChatClient(
            config: try scratch.store.load(), http: CurlHTTPClient(), account: AccountStore(configStore: scratch.store))
        _ = try? chat.answer("hello")
        let asked = try XCTUnwrap(seen.queries("chat").last, line: line)
        XCTAssertNil(asked["access_token"], "no token on chat requests", line: line)
        XCTAssertEqual(seen.queries("device").count, 1, "not registered again", line: line)
    }

    /// Links the account through the apps, then signs out with `signOut` (given the setup
    /// server's port) and checks the speaker is signed out; what the SUSI server saw.
    private func signOutAfterLinking(_ signOut: (UInt16) throws -> Void) throws -> Seen {
        let seen = Seen()
        let (susi, base) = try susiServer(seen)
        defer { susi.stop() }
        _ = try scratch.store.set([("brain.server", base), ("room", "Hall")])
        let setup = try setupServer()
        try setup.start()
        defer { setup.stop() }
        try linkThroughTheApps(setup, seen)
        try signOut(try XCTUnwrap(setup.server.port))
        try assertSignedOut(seen, base)
        return seen
    }

    /// Issue 51: setup again with "no account" (`/auth?auth=n`) signs the speaker out of the
    /// account it had.
    func testNoAccountThroughAuthSignsOut() throws {
        let seen = try signOutAfterLinking { port in
            let reply = try CurlHTTPClient().send(HTTPRequest(url: "http://127.0.0.1:\(port)/auth", query: [("auth", "n")]))
            XCTAssertEqual(reply.status, 200, reply.text)
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(seen.queries("device").count, 1, "the background retry does not register it again")
    }

    /// The same through the old all-in-one `POST /reboot` with `auth=n`.
    func testNoAccountThroughRebootSignsOut() throws {
        _ = try signOutAfterLinking { port in
            let reply = try CurlHTTPClient().send(
                HTTPRequest(
                    method: .post, url: "http://127.0.0.1:\(port)/reboot",
                    form: [("room_name", "Hall"), ("auth", "n"), ("hotword", "y")]))
            XCTAssertEqual(reply.status, 200, reply.text)
        }
    }

    private func registration() -> DeviceRegistration {
        var registration = DeviceRegistration(store: scratch.store, logger: .silent)
        registration.http = { CurlHTTPClient() }
        registration.mac = { "b8:27:eb:00:00:01" }
        registration.timeout = 3
        return registration
    }

    private func logIn(_ base: String) throws {
        var link = SetupAccountLink(store: scratch.store, logger: .silent)
        link.http = { CurlHTTPClient() }
        XCTAssertEqual(try link.link(email: "mario@example.com", password: "secret"), .loggedIn)
    }

    func testRegistersOnceLoggedInAgainOnlyWhenSomethingChangedAndOfflineIsNoError() throws {
        let seen = Seen()
        let (server, base) = try susiServer(seen)
        defer { server.stop() }
        _ = try scratch.store.set([("brain.server", base), ("room", "Kitchen")])
        XCTAssertEqual(registration().registerIfNeeded(), .notLoggedIn)
        XCTAssertTrue(seen.queries("device").isEmpty)

        try logIn(base)
        XCTAssertEqual(registration().registerIfNeeded(), .registered)
        XCTAssertEqual(
            seen.queries("device"),
            [["macid": "b8:27:eb:00:00:01", "name": "SUSI.AI Speaker", "room": "Kitchen", "access_token": "tok-abc"]])
        XCTAssertEqual(registration().registerIfNeeded(), .upToDate)
        XCTAssertEqual(seen.queries("device").count, 1, "nothing changed, nothing sent")
        let record = try String(contentsOfFile: registration().recordPath, encoding: .utf8)
        XCTAssertFalse(record.contains("tok-abc"), "the record never holds the token")

        _ = try scratch.store.set("room", to: "Bedroom")
        XCTAssertEqual(registration().registerIfNeeded(), .registered)
        XCTAssertEqual(seen.queries("device").last?["room"], "Bedroom")

        // Offline: an error code to retry on, nothing recorded.
        _ = try scratch.store.set("location.latitude", to: "52.5")
        _ = try scratch.store.set("location.longitude", to: "13.4")
        server.stop()
        guard case .failed(let code) = registration().registerIfNeeded() else { return XCTFail("offline must fail") }
        XCTAssertEqual(code, "account-connection-refused")
        XCTAssertTrue(try String(contentsOfFile: registration().recordPath, encoding: .utf8).contains("Bedroom"))
        var noMAC = registration()
        noMAC.mac = { nil }
        XCTAssertEqual(noMAC.registerIfNeeded(), .noMAC)
    }

    /// The apps' `/auth` on the setup server links the account; the device appears in the
    /// account's list within a couple of seconds, in the background.
    func testTheAppsAuthCallRegistersTheSpeakerInTheBackground() throws {
        let seen = Seen()
        let (susi, base) = try susiServer(seen)
        defer { susi.stop() }
        _ = try scratch.store.set([("brain.server", base), ("room", "Hall")])
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: { _ in })
        let setup = SetupServer(
            store: scratch.store, control: control, port: 0, host: "127.0.0.1", http: { CurlHTTPClient() }, logger: .silent)
        try setup.start()
        defer { setup.stop() }
        let url = "http://127.0.0.1:\(try XCTUnwrap(setup.server.port))/auth"
        let reply = try CurlHTTPClient().send(
            HTTPRequest(url: url, query: [("auth", "y"), ("email", "mario@example.com"), ("password", "secret")]))
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertTrue(eventually(timeout: 5) { !seen.queries("device").isEmpty }, "registered after /auth")
        let device = try XCTUnwrap(seen.queries("device").first)
        XCTAssertEqual(device["room"], "Hall")
        XCTAssertEqual(device["access_token"], "tok-abc")
        XCTAssertTrue(DeviceEntry.isMAC(device["macid"] ?? ""), "this machine's primary MAC: \(device)")
        // The retry thread saves the registration after the server saw it; wait for that, or it
        // would make the scratch directory again after tearDown removed it.
        XCTAssertTrue(eventually { FileManager.default.fileExists(atPath: scratch.directory + "/device-registration.json") })
    }
}
