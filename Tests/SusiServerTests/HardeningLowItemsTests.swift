import Foundation
import SusiCore
import SusiModel
import Synchronization
import XCTest

@testable import SusiServer

/// Issue 50's low items, each over a real loopback server: wrong sign-ins flooding the log,
/// raw NUL bytes and bare LF line ends on the wire, malformed header names, libmicrohttpd's own
/// error replies sent once, an event stream's slot freed soon after its client leaves, and a
/// 64-hex-digit WPA key.
final class HardeningLowItemsTests: XCTestCase {
    // MARK: Raw sockets

    /// Sends `text` on a new connection and reads until the server closes (or 3 s pass).
    private func exchange(_ port: UInt16, _ text: String) -> String {
        SetupFuzzTests.exchange(port: port, Array(text.utf8)) ?? ""
    }

    /// How many status lines a reply holds.
    private func statusLines(_ reply: String) -> Int {
        reply.components(separatedBy: "HTTP/1.1 ").count - 1
    }

    /// A connection that has sent `request`; nil when it could not connect.
    private func held(_ port: UInt16, _ request: String) -> RawConnection? {
        let connection = try? RawConnection(port: port)
        connection?.send(request)
        return connection
    }

    // MARK: Item 1: wrong sign-ins

    func testAThousandWrongSignInsLogAtMostACoupleOfWarnings() throws {
        let directory = NSTemporaryDirectory() + "susi-signin-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ConfigStore(path: directory + "/config.json")
        try store.save(Config())
        _ = try OwnerTokenFile(configStore: store).rotate()
        let lines = CapturedLines()
        let service = SetupService(
            store: store, control: RecordingSpeakerControl(), account: RecordingAccountLinking(), voices: { [] },
            version: "test-1", hooks: HookRunner(timeout: 10),
            logger: Logger(label: "t", level: .info, handler: lines))
        let server = HTTPServer(host: "127.0.0.1", port: 0, limits: SetupService.limits, router: service.makeRouter())
        try server.start()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let body = "token=not-the-owner-token"
        let request =
            "POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        var refused = 0
        for _ in 0..<20 {
            let reply = exchange(port, String(repeating: request, count: 50))
            refused += reply.components(separatedBy: "HTTP/1.1 401").count - 1
        }
        XCTAssertEqual(refused, 1000, "every sign-in was tried and refused")
        let warnings = lines.all.filter { $0.contains("wrong owner token") }
        XCTAssertGreaterThanOrEqual(warnings.count, 1, "a wrong sign-in is still logged")
        XCTAssertLessThanOrEqual(warnings.count, 2, "\(warnings.count) warnings: \(warnings.prefix(3))")
    }

    // MARK: Item 2: NUL and control characters

    func testARawNULInTheRequestLineOrAHeaderIsRefused() throws {
        let fixture = try SetupFixture()
        defer { fixture.tearDown() }
        let port = try XCTUnwrap(fixture.server.port)
        let inTarget = exchange(
            port,
            "GET /wifi_credentials?wifissid=rawnul\0tail&wifipassd=secret123 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n")
        XCTAssertTrue(inTarget.hasPrefix("HTTP/1.1 400"), inTarget)
        XCTAssertNil(fixture.wifiText, "no network was stored, open or not")
        let inPath = exchange(port, "GET /sta\0tus HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(inPath.hasPrefix("HTTP/1.1 400"), inPath)
        let inHeader = exchange(
            port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: before\0after\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(inHeader.hasPrefix("HTTP/1.1 400"), inHeader)
        let inName = exchange(
            port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-No\0te: value\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(inName.hasPrefix("HTTP/1.1 400"), inName)
        let controlInTarget = exchange(
            port, "GET /status?x=a\u{1}b HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(controlInTarget.hasPrefix("HTTP/1.1 400"), controlInTarget)
        let fine = exchange(port, "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(fine.hasPrefix("HTTP/1.1 200"), fine)
    }

    func testDecodedControlCharactersInAnSSIDOrPassphraseAreRefused() throws {
        let fixture = try SetupFixture()
        defer { fixture.tearDown() }
        for (path, parameter) in [
            ("/wifi_credentials?wifissid=a%01b&wifipassd=secret123", "wifissid"),
            ("/wifi_credentials?wifissid=two%0Alines&wifipassd=", "wifissid"),
            ("/wifi_credentials?wifissid=a%7Fb", "wifissid"),
            ("/wifi_credentials?wifissid=Home&wifipassd=secret%1B123", "wifipassd"),
        ] {
            let reply = try fixture.get(path)
            XCTAssertEqual(reply.status, 400, "\(path): \(reply.body)")
            XCTAssertEqual(reply.json["parameter"] as? String, parameter, "\(path): \(reply.body)")
        }
        let encodedNUL = try fixture.get("/wifi_credentials?wifissid=rawnul%00tail&wifipassd=secret123")
        XCTAssertEqual(encodedNUL.status, 400, encodedNUL.body)
        let form = try fixture.postForm("/wifi_credentials", ["wifissid=a\u{2}b", "wifipassd=secret123"])
        XCTAssertEqual(form.status, 400, form.body)
        XCTAssertNil(fixture.wifiText, "nothing was stored")
        XCTAssertThrowsError(try WiFiNetwork(ssid: "tab\there", passphrase: ""))
    }

    // MARK: Item 3: event stream slots

    func testAClosedEventStreamFreesItsSlotWithinAboutASecond() throws {
        let (server, _) = try startServer(
            limits: ServerLimits(maxConnections: 8, maxConnectionsPerIP: 8, maxEventStreams: 1)
        ) {
            $0.get("/events") { _ in .eventStream(EventStream()) }
        }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        var first = held(port, request)
        let firstHead = first?.head() ?? ""
        XCTAssertTrue(firstHead.hasPrefix("HTTP/1.1 200"), firstHead)
        let busy = held(port, request)?.head() ?? ""
        XCTAssertTrue(busy.hasPrefix("HTTP/1.1 503"), "the one slot is taken: \(busy)")

        first = nil  // the client leaves
        let left = Date()
        var admitted: RawConnection?
        while admitted == nil, Date().timeIntervalSince(left) < 2.5 {
            let next = held(port, request)
            if next?.head().hasPrefix("HTTP/1.1 200") == true {
                admitted = next
            } else {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        XCTAssertNotNil(admitted, "a new stream got the slot within 2.5 s of the client leaving")
        XCTAssertNil(first)
    }

    // MARK: Item 4: strict framing

    private func startPlainServer(ran: @escaping @Sendable (String) -> Void = { _ in }) throws -> HTTPServer {
        let (server, _) = try startServer {
            $0.get("/ok") { _ in
                ran("ok")
                return .text("ok")
            }
            $0.post("/ok") { request in
                ran("post")
                return .text("ok \(request.form["a"] ?? "")")
            }
        }
        return server
    }

    func testBareLineFeedsAndMalformedHeaderNamesAreRefused() throws {
        let ran = RanRoutes()
        let server = try startPlainServer { name in ran.add(name) }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let malformed = [
            "GET /ok HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n",
            "GET /ok HTTP/1.1\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\nConnection: close\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\n",
            "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding : chunked\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n\r\n3\r\na=1\r\n0\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nBad[Name]: x\r\nConnection: close\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Folded: one\r\n two\r\nConnection: close\r\n\r\n",
            "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Return: a\rb\r\nConnection: close\r\n\r\n",
        ]
        for request in malformed {
            let reply = exchange(port, request)
            XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(reply)")
            XCTAssertEqual(statusLines(reply), 1, "\(request.debugDescription): \(reply)")
        }
        XCTAssertEqual(ran.all, [], "no handler ran")
    }

    func testLibmicrohttpdsOwnRefusalsSendOneStatusLine() throws {
        let server = try startPlainServer()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        for request in [
            "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n",
            "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
            "GET /ok HTTP/1.1\r\nConnection: close\r\n\r\n",
        ] {
            let reply = exchange(port, request)
            XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(reply)")
            XCTAssertEqual(statusLines(reply), 1, "\(request.debugDescription): \(reply)")
        }
        let tooLong = exchange(
            port, "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n")
        XCTAssertEqual(statusLines(tooLong), 1, tooLong)
        let fine = exchange(port, "GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(fine.hasPrefix("HTTP/1.1 200"), "the server still answers: \(fine)")
    }

    /// What real clients send still passes the stricter checks.
    func testWellFormedRequestsStillPass() throws {
        let server = try startPlainServer()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let body = "a=x+y%21"
        let pipelined =
            "GET /o%6B?a=1&b=x+y&c=%41%42&d HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: a=b; c=\"d\"\r\nX-Empty:\r\n"
            + "X-Spaces:   v  w  \r\nX-Tab:\tt\r\nUser-Agent: Mozilla/5.0 (X11; Linux) caf\u{e9}\r\n\r\n"
            + "POST /ok HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            + "HEAD /ok HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n"
            + "GET /ok HTTP/1.0\r\n\r\n"
        let reply = exchange(port, pipelined)
        XCTAssertEqual(statusLines(reply) + reply.components(separatedBy: "HTTP/1.0 ").count - 1, 4, reply)
        XCTAssertEqual(reply.components(separatedBy: " 200 OK").count - 1, 4, reply)
        XCTAssertTrue(reply.contains("ok x y!"), reply)
        XCTAssertFalse(reply.contains(" 400 "), reply)
    }

    // MARK: Item 5: raw WPA keys

    func testA64HexDigitKeyIsAcceptedAndWrittenUnquoted() throws {
        let key = "0123456789abcdef0123456789ABCDEF0123456789abcdef0123456789abcdef"
        let network = try WiFiNetwork(ssid: "Home", passphrase: key)
        XCTAssertEqual(
            WPASupplicantFile.block(for: network),
            "network={\n\tssid=\"Home\"\n\tscan_ssid=1\n\tpsk=\(key)\n\tkey_mgmt=WPA-PSK\n}\n")
        let passphrase = String(repeating: "a", count: 63)
        XCTAssertTrue(
            WPASupplicantFile.block(for: try WiFiNetwork(ssid: "Home", passphrase: passphrase))
                .contains("\tpsk=\"\(passphrase)\"\n"), "63 characters stay a quoted passphrase")
        XCTAssertThrowsError(
            try WiFiNetwork(ssid: "Home", passphrase: String(repeating: "g", count: 64)), "64 characters, not hex")

        let fixture = try SetupFixture()
        defer { fixture.tearDown() }
        let reply = try fixture.get("/wifi_credentials?wifissid=Home&wifipassd=\(key)")
        XCTAssertEqual(reply.status, 200, reply.body)
        let text = try XCTUnwrap(fixture.wifiText)
        XCTAssertTrue(text.contains("\tpsk=\(key)\n"), text)
        XCTAssertFalse(text.contains("\"\(key)\""), text)
    }
}

/// The routes that ran, in order; shared with the server's threads.
private final class RanRoutes: Sendable {
    private let names = Mutex<[String]>([])
    var all: [String] { names.withLock { $0 } }
    func add(_ name: String) { names.withLock { $0.append(name) } }
}
