import Foundation
import Synchronization
import XCTest

@testable import SusiServer

/// What a web page opened in the owner's browser could try: forms posted from another site,
/// `<img>` and `HEAD` requests, DNS rebinding, framing. All refused; nothing changes.
final class CrossSiteTests: XCTestCase {
    private var fixture: SetupFixture!
    private var token = ""

    override func setUpWithError() throws {
        fixture = try SetupFixture { $0.brain.mode = "local" }
        token = try fixture.finishSetup()
    }

    override func tearDown() {
        fixture.tearDown()
    }

    private var owner: [String: String] { ["Authorization": "Bearer \(token)"] }

    /// A `<form enctype="text/plain">` on another site posting JSON-looking text to switch a
    /// privacy-minded owner's speaker to the cloud; and its url-encoded twin to a control route.
    /// Refused even when the browser would add the owner's credentials.
    func testAFormPostedFromAnotherSiteIsRefused() throws {
        let before = fixture.configBytes
        let plain = try fixture.send(
            "POST", "/settings",
            headers: ["Origin": "http://evil.example", "Content-Type": "text/plain"].merging(owner) { a, _ in a },
            body: #"{"key":"brain.mode","value":"remote","x":"="}"#)
        XCTAssertEqual(plain.status, 403, plain.body)
        XCTAssertEqual(plain.json["code"] as? String, "server-foreign-origin")
        let form = try fixture.send(
            "POST", "/say",
            headers: ["Origin": "null", "Content-Type": "application/x-www-form-urlencoded"].merging(owner) { a, _ in a },
            body: "text=hello")
        XCTAssertEqual(form.status, 403, "a sandboxed page's Origin: null too")
        XCTAssertEqual(fixture.configBytes, before)
        XCTAssertEqual(try fixture.config.brain.mode, "local")
        XCTAssertFalse(fixture.control.commands.contains("say hello"))

        // JSON must say so; a text/plain body is refused even from the owner's own tools.
        let untyped = try fixture.send(
            "POST", "/settings", headers: ["Content-Type": "text/plain"].merging(owner) { a, _ in a },
            body: #"{"key":"brain.mode","value":"remote"}"#)
        XCTAssertEqual(untyped.status, 415, untyped.body)
        XCTAssertEqual(try fixture.config.brain.mode, "local")

        // The page's own same-origin request passes.
        let port = try XCTUnwrap(fixture.server.port)
        let own = try fixture.send(
            "POST", "/settings",
            headers: ["Origin": "http://127.0.0.1:\(port)", "Content-Type": "application/json"].merging(owner) { a, _ in a },
            body: #"{"key":"brain.mode","value":"hybrid"}"#)
        XCTAssertEqual(own.status, 200, own.body)
    }

    /// `<img src="http://speaker:5000/volume/33">` and `curl -I` change nothing.
    func testGetAndHeadChangeNothing() throws {
        for method in ["GET", "HEAD"] {
            for path in [
                "/volume/33", "/say?text=hi", "/play?ytb=abc", "/stop", "/pause", "/next", "/volume/up", "/restart",
                "/shuffle",
            ] {
                let reply = try fixture.send(method, path, headers: owner)
                XCTAssertEqual(reply.status, 405, "\(method) \(path)")
                XCTAssertEqual(reply.headers["allow"], "POST, PUT", "\(method) \(path)")
            }
        }
        XCTAssertEqual(fixture.control.commands, [])
        XCTAssertEqual(try fixture.post("/volume/33", token: token).status, 200, "POST does it")
    }

    /// In setup mode the apps' GET forms stay, but HEAD and an `<img>` from another site do not
    /// run them.
    func testSetupRoutesKeepGetForTheAppsOnly() throws {
        try fixture.service.setupState.reset()
        let head = try fixture.send("HEAD", "/speaker_config?room_name=Garage")
        XCTAssertEqual(head.status, 405)
        let image = try fixture.send(
            "GET", "/speaker_config?room_name=Garage", headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Dest": "image"])
        XCTAssertEqual(image.status, 403)
        XCTAssertEqual(image.json["code"] as? String, "server-cross-site")
        XCTAssertEqual(try fixture.config.room, "Kitchen")
        XCTAssertEqual(try fixture.get("/speaker_config?room_name=Garage").status, 200, "the app's GET works")
        XCTAssertEqual(try fixture.config.room, "Garage")
        let link = try fixture.send("GET", "/", headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"])
        XCTAssertEqual(link.status, 200, "a link to the page itself still opens it")
    }

    /// A page on attacker.example whose DNS now points at the speaker: its requests carry its
    /// own name in Host, and are refused, so it cannot read `/status` or `/settings`.
    func testDNSRebindingHostIsRefused() throws {
        let port = try XCTUnwrap(fixture.server.port)
        for host in ["attacker.example", "attacker.example:\(port)", "127.0.0.1.nip.io", "speaker.local.evil.com", "x y", ""] {
            for (method, path) in [("GET", "/status"), ("GET", "/settings"), ("POST", "/status"), ("POST", "/volume/up")] {
                let reply = try fixture.send(method, path, headers: ["Host": host].merging(owner) { a, _ in a })
                XCTAssertEqual(reply.status, 403, "\(host) \(method) \(path): \(reply.body)")
                XCTAssertFalse(reply.body.contains("Kitchen"), "\(host) \(path)")
            }
        }
        XCTAssertEqual(fixture.control.commands, [])
        // The static page, which holds nothing personal, opens under any name (captive portals).
        let page = try fixture.send("GET", "/", headers: ["Host": "connectivitycheck.example"])
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains("<select id=\"voice\""))
        let hostname = ProcessInfo.processInfo.hostName
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "susi.local", "Living-Room.local.", "[::1]:\(port)", hostname] {
            let reply = try fixture.send("GET", "/status", headers: ["Host": host].merging(owner) { a, _ in a })
            XCTAssertEqual(reply.status, 200, host)
        }
    }

    /// While the first-setup hotspot is open, a phone's captive-portal checks and any page it
    /// opens under another name are sent to the setup page at the speaker's address, and no
    /// route runs under that name: a rebinding page gets a redirect to another origin, no data,
    /// and still cannot POST. When the hotspot closes, the same requests are 403 again.
    func testForeignNamesLandOnTheSetupPageWhileTheHotspotIsOpen() throws {
        let open = Mutex(true)
        let landing = try SetupFixture(
            configure: { $0.brain.mode = "local" },
            policy: RequestPolicy(landing: { open.withLock { $0 } ? "http://10.0.0.1:5000/" : nil }))
        defer { landing.tearDown() }
        let token = try landing.finishSetup()
        let owner = ["Authorization": "Bearer \(token)"]
        for (host, path) in [
            ("captive.apple.com", "/hotspot-detect.html"), ("connectivitycheck.gstatic.com", "/generate_204"),
            ("example.com", "/"), ("attacker.example", "/status"), ("attacker.example", "/settings"),
            ("attacker.example", "/speaker_config?room_name=Garage"), ("www.msftconnecttest.com", "/connecttest.txt"),
        ] {
            for method in ["GET", "HEAD"] {
                let reply = try landing.send(method, path, headers: ["Host": host].merging(owner) { a, _ in a })
                XCTAssertEqual(reply.status, 302, "\(method) \(host)\(path): \(reply.body)")
                XCTAssertEqual(reply.headers["location"], "http://10.0.0.1:5000/", "\(host)\(path)")
                XCTAssertEqual(reply.headers["cache-control"], "no-store")
                XCTAssertFalse(reply.body.contains("Kitchen"), "\(host)\(path)")
            }
        }
        let post = try landing.send("POST", "/volume/up", headers: ["Host": "attacker.example"].merging(owner) { a, _ in a })
        XCTAssertEqual(post.status, 403, "only reads are redirected: \(post.body)")
        XCTAssertEqual(post.json["code"] as? String, "server-bad-host")
        XCTAssertEqual(landing.control.commands, [])
        XCTAssertEqual(try landing.config.room, "Kitchen", "no route ran under the foreign name")
        // The speaker's own names are served as always.
        let port = try XCTUnwrap(landing.server.port)
        let own = try landing.send("GET", "/status", headers: ["Host": "127.0.0.1:\(port)"].merging(owner) { a, _ in a })
        XCTAssertEqual(own.status, 200, own.body)
        XCTAssertEqual(try landing.get("/").status, 200)

        open.withLock { $0 = false }
        let closed = try landing.send("GET", "/generate_204", headers: ["Host": "connectivitycheck.gstatic.com"])
        XCTAssertEqual(closed.status, 403, closed.body)
        XCTAssertEqual(try landing.send("GET", "/", headers: ["Host": "example.com"]).status, 200, "the static page")
    }

    func testEveryReplyForbidsFramingAndSniffing() throws {
        for (method, path) in [("GET", "/"), ("GET", "/status"), ("POST", "/stop"), ("GET", "/nowhere"), ("GET", "/pause")] {
            let reply = try fixture.send(method, path)
            XCTAssertEqual(reply.headers["content-security-policy"], "frame-ancestors 'none'", "\(method) \(path)")
            XCTAssertEqual(reply.headers["x-content-type-options"], "nosniff", "\(method) \(path)")
        }
        let tooLarge = try fixture.send(
            "POST", "/settings", headers: ["Content-Type": "application/json"], body: String(repeating: "x", count: 70_000))
        XCTAssertEqual(tooLarge.status, 413)
        XCTAssertEqual(tooLarge.headers["content-security-policy"], "frame-ancestors 'none'")
    }

    func testHostNames() {
        let policy = RequestPolicy(hostnames: ["Speaker"])
        for host in [
            "speaker", "SPEAKER:5000", "10.0.0.1:5000", "192.168.1.20", "[fe80::1]:5000", "[::1]", "a.local", "localhost",
        ] {
            XCTAssertTrue(policy.isAllowedHost(host), host)
        }
        for host in ["speaker.example", "evil.com", ".local", "[::1", "10.0.0.1:50x0", "10.0.0", "local", "a..b", "x/y"] {
            XCTAssertFalse(policy.isAllowedHost(host), host)
        }
    }
}
