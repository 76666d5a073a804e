import Foundation
import SusiNet
import SusiServer
import XCTest

/// End-to-end: a real libmicrohttpd server on 127.0.0.1, called by libcurl and by the curl tool.
final class HTTPServerTests: XCTestCase {
    private let client = CurlHTTPClient(stage: .server)

    /// Echoes what the server decoded, so tests can check it from the outside.
    private func echoRoutes(_ router: inout Router) {
        router.add(["GET", "POST"], "/echo") { request in
            .json(
                object: [
                    "method": request.method, "path": request.path, "query": request.query,
                    "form": request.form,
                    "room": request.parameter("room_name") ?? "", "agent": request.header("User-Agent") ?? "",
                    "test_header": request.header("x-test") ?? "", "remote": request.remoteAddress,
                    "body_bytes": request.body.count,
                ] as [String: Any])
        }
        router.get("/speaker_config") { request in
            guard let room = request.parameter("room_name") else {
                return .badRequest("room_name is missing")
            }
            return .json(["room_name": room])
        }
        router.get("/volume/:level") { request in
            .json(["level": request.pathParameters["level"] ?? ""])
        }
    }

    func testQueryParametersWithSpecialCharactersViaClient() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        let room = "Küche & Bad = 1+1 🎵 100%"
        let response = try client.send(
            HTTPRequest(
                url: base + "/echo", query: [("room_name", room), ("empty", "")],
                headers: [("X-Test", "yes")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("content-type"), ServerResponse.jsonContentType)
        let object = try jsonObject(response.body)
        XCTAssertEqual(object["method"] as? String, "GET")
        XCTAssertEqual(object["path"] as? String, "/echo")
        XCTAssertEqual(object["room"] as? String, room)
        XCTAssertEqual((object["query"] as? [String: String])?["empty"], "")
        XCTAssertEqual(object["test_header"] as? String, "yes")
        XCTAssertEqual(object["remote"] as? String, "127.0.0.1")
    }

    func testFormPostViaClient() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        let password = "p@ss word&=+ä"
        let response = try client.send(
            HTTPRequest(
                method: .post, url: base + "/echo", query: [("q", "1")],
                form: [("room_name", "Hall"), ("wifipassd", password)]))
        XCTAssertEqual(response.status, 200)
        let object = try jsonObject(response.body)
        XCTAssertEqual(object["method"] as? String, "POST")
        let form = try XCTUnwrap(object["form"] as? [String: String])
        XCTAssertEqual(form["wifipassd"], password)
        XCTAssertEqual(form["room_name"], "Hall")
        XCTAssertEqual((object["query"] as? [String: String])?["q"], "1")
        XCTAssertEqual(object["room"] as? String, "Hall", "parameter() falls back to the form")
    }

    func testAppStyleCallsWithCurlTool() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        // As the apps build it: GET with url-encoded query parameters.
        let encoded = try runCurl([
            "-G", "--data-urlencode", "room_name=Wohnzimmer & Küche", base + "/speaker_config",
        ])
        XCTAssertEqual(encoded.status, 200)
        XCTAssertEqual(
            try jsonObject(Data(encoded.body.utf8))["room_name"] as? String, "Wohnzimmer & Küche")
        // A `+` in a query is a space, as in HTML forms.
        let plus = try runCurl([base + "/speaker_config?room_name=Living+Room"])
        XCTAssertEqual(try jsonObject(Data(plus.body.utf8))["room_name"] as? String, "Living Room")
        // The old Python server's form POST.
        let posted = try runCurl([
            "--data-urlencode", "room_name=Büro 2", "--data-urlencode", "x=a&b", base + "/echo",
        ])
        XCTAssertEqual(posted.status, 200)
        let form = try XCTUnwrap(try jsonObject(Data(posted.body.utf8))["form"] as? [String: String])
        XCTAssertEqual(form["room_name"], "Büro 2")
        XCTAssertEqual(form["x"], "a&b")
        let level = try runCurl([base + "/volume/35"])
        XCTAssertEqual(try jsonObject(Data(level.body.utf8))["level"] as? String, "35")
        let missing = try runCurl([base + "/speaker_config"])
        XCTAssertEqual(missing.status, 400)
        XCTAssertEqual(try jsonObject(Data(missing.body.utf8))["code"] as? String, "server-bad-request")
    }

    func testUnknownPathAndWrongMethod() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        let missing = try client.send(HTTPRequest(url: base + "/nothing/here"))
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try jsonObject(missing.body)["code"] as? String, "server-not-found")
        let wrong = try client.send(
            HTTPRequest(method: .post, url: base + "/speaker_config", form: [("a", "b")]))
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("allow"), "GET, HEAD")
        XCTAssertEqual(try jsonObject(wrong.body)["code"] as? String, "server-method-not-allowed")
        let deleted = try runCurl(["-X", "DELETE", base + "/echo"])
        XCTAssertEqual(deleted.status, 405)
        let head = try runCurl(["-I", base + "/speaker_config?room_name=x"])
        XCTAssertEqual(head.status, 200)
    }

    func testBodyOverTheCapIs413AndTheServerKeepsServing() throws {
        let (server, base) = try startServer(limits: ServerLimits(maxBodyBytes: 1000)) {
            echoRoutes(&$0)
        }
        defer { server.stop() }
        let small = try client.send(
            HTTPRequest(
                method: .post, url: base + "/echo", form: [("a", String(repeating: "x", count: 900))]))
        XCTAssertEqual(small.status, 200)
        XCTAssertEqual(try jsonObject(small.body)["body_bytes"] as? Int, 902)

        let big = try client.send(
            HTTPRequest(
                method: .post, url: base + "/echo", form: [("a", String(repeating: "x", count: 5000))]))
        XCTAssertEqual(big.status, 413)
        XCTAssertEqual(try jsonObject(big.body)["code"] as? String, "server-body-too-large")

        // Chunked uploads declare no length; the cap must hold while reading.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "susi-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.txt")
        try Data(("a=" + String(repeating: "y", count: 20_000)).utf8).write(to: file)
        let chunked = try runCurl([
            "-H", "Transfer-Encoding: chunked", "-H", "Content-Type: application/x-www-form-urlencoded",
            "--data-binary", "@" + file.path, base + "/echo",
        ])
        XCTAssertEqual(chunked.status, 413)

        XCTAssertEqual(try client.send(HTTPRequest(url: base + "/echo")).status, 200)
    }

    func testMalformedFormIs400() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        let bad = try runCurl([
            "-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary", "a=%zz",
            base + "/echo",
        ])
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(try jsonObject(Data(bad.body.utf8))["code"] as? String, "server-bad-form")
    }

    func testConnectionLimitTurnsExtraClientsAwayUntilOneLeaves() throws {
        let limits = ServerLimits(
            maxConnections: 2, maxConnectionsPerIP: 0, connectionTimeoutSeconds: 10)
        let (server, base) = try startServer(limits: limits) { echoRoutes(&$0) }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        var holders = [try RawConnection(port: port), try RawConnection(port: port)]
        holders[0].send("GET /echo HTTP/1.1\r\n")  // half a request keeps the connection busy
        Thread.sleep(forTimeInterval: 0.3)  // let the server accept both before the next arrives
        XCTAssertThrowsError(try client.send(HTTPRequest(url: base + "/echo", totalTimeout: 2))) {
            error in
            // libmicrohttpd accepts and immediately resets connections over the limit.
            XCTAssertEqual((error as? HTTPError)?.code, "http-transport", "\(error)")
        }
        holders.removeAll()
        XCTAssertTrue(try eventuallySucceeds(base + "/echo"), "a slot frees up once a client leaves")
    }

    func testPerAddressConnectionLimit() throws {
        let limits = ServerLimits(
            maxConnections: 10, maxConnectionsPerIP: 1, connectionTimeoutSeconds: 10)
        let (server, base) = try startServer(limits: limits) { echoRoutes(&$0) }
        defer { server.stop() }
        var holder: RawConnection? = try RawConnection(port: try XCTUnwrap(server.port))
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertThrowsError(try client.send(HTTPRequest(url: base + "/echo", totalTimeout: 2))) {
            error in
            XCTAssertEqual((error as? HTTPError)?.code, "http-transport", "\(error)")
        }
        XCTAssertNotNil(holder)
        holder = nil
        XCTAssertTrue(try eventuallySucceeds(base + "/echo"))
    }

    /// Retries for up to about three seconds: the server notices a closed client asynchronously.
    private func eventuallySucceeds(_ url: String) throws -> Bool {
        for _ in 0..<30 {
            if let response = try? client.send(HTTPRequest(url: url, totalTimeout: 2)),
                response.status == 200
            {
                return true
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    func testSecondServerOnTheSamePortFailsWithPortInUse() throws {
        let (server, _) = try startServer { echoRoutes(&$0) }
        defer { server.stop() }
        let second = HTTPServer(port: try XCTUnwrap(server.port), router: Router())
        XCTAssertThrowsError(try second.start()) { error in
            XCTAssertEqual((error as? ServerError)?.code, "server-port-in-use")
            XCTAssertEqual((error as? ServerError)?.stage, .server)
        }
        XCTAssertFalse(second.isRunning)
        XCTAssertTrue(server.isRunning)
    }

    func testBadHostIsRejected() {
        let server = HTTPServer(host: "not-an-address", port: 0, router: Router())
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertEqual((error as? ServerError)?.code, "server-bad-address")
        }
    }

    func testStopClosesThePortAndIsIdempotent() throws {
        let (server, base) = try startServer { echoRoutes(&$0) }
        XCTAssertEqual(try client.send(HTTPRequest(url: base + "/echo")).status, 200)
        server.stop()
        XCTAssertFalse(server.isRunning)
        XCTAssertNil(server.port)
        XCTAssertThrowsError(try client.send(HTTPRequest(url: base + "/echo"))) { error in
            XCTAssertEqual((error as? HTTPError)?.code, "http-connection-refused")
        }
        server.stop()
        // A stopped server can start again (on a new free port, as it was created with port 0).
        try server.start()
        let port = try XCTUnwrap(server.port)
        XCTAssertEqual(try client.send(HTTPRequest(url: "http://127.0.0.1:\(port)/echo")).status, 200)
        server.stop()
    }

    func testDeinitStopsTheServer() throws {
        var server: HTTPServer? = HTTPServer(port: 0, router: Router())
        try server?.start()
        let port = try XCTUnwrap(server?.port)
        server = nil
        XCTAssertThrowsError(try client.send(HTTPRequest(url: "http://127.0.0.1:\(port)/"))) { error in
            XCTAssertEqual((error as? HTTPError)?.code, "http-connection-refused")
        }
    }
}
