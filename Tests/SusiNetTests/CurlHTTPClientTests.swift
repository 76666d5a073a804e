import Foundation
import SusiNet
import SusiServer
import XCTest

/// The libcurl client against real servers on 127.0.0.1.
final class CurlHTTPClientTests: XCTestCase {
    private let client = CurlHTTPClient()

    private func routes(_ router: inout Router) {
        router.add(["GET", "POST"], "/echo") { request in
            var response = ServerResponse.json(
                object: [
                    "method": request.method, "query": request.query, "form": request.form,
                    "accept": request.header("accept") ?? "", "agent": request.header("user-agent") ?? "",
                ] as [String: Any])
            response.headers.append((name: "X-Reply", value: "ok"))
            return response
        }
        router.get("/fail") { _ in .html("<html><body>Internal failure</body></html>", status: 500) }
        router.get("/big/:bytes") { request in
            let count = Int(request.pathParameters["bytes"] ?? "") ?? 0
            return ServerResponse(
                contentType: "text/plain", body: Data(repeating: UInt8(ascii: "b"), count: count))
        }
        router.get("/sleep/:ms") { request in
            let milliseconds = Int(request.pathParameters["ms"] ?? "") ?? 0
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
            return .text("slept")
        }
        router.get("/redirect") { _ in
            ServerResponse(status: 302, headers: [(name: "Location", value: "/echo?from=redirect")])
        }
    }

    private func assertFails(
        _ request: HTTPRequest, code: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try client.send(request), file: file, line: line) { error in
            XCTAssertEqual((error as? HTTPError)?.code, code, "\(error)", file: file, line: line)
        }
    }

    func testGetWithQueryAndHeaders() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let response = try client.send(
            HTTPRequest(
                url: base + "/echo?fixed=1", query: [("q", "what time is it? & more=+")],
                headers: [("Accept", "application/json")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.reason, "OK")
        XCTAssertTrue(response.isSuccess)
        XCTAssertEqual(response.headers["x-reply"], "ok", "header names are lower-cased")
        XCTAssertEqual(response.header("Content-Type"), ServerResponse.jsonContentType)
        let object = try jsonObject(response.body)
        let query = try XCTUnwrap(object["query"] as? [String: String])
        XCTAssertEqual(query["q"], "what time is it? & more=+")
        XCTAssertEqual(query["fixed"], "1")
        XCTAssertEqual(object["accept"] as? String, "application/json")
        XCTAssertEqual(object["agent"] as? String, client.userAgent)
    }

    func testPostForm() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let response = try client.send(
            HTTPRequest(
                method: .post, url: base + "/echo",
                form: [("feedback", "Great skill! 5/5 🎉"), ("stars", "5")]))
        XCTAssertEqual(response.status, 200)
        let object = try jsonObject(response.body)
        XCTAssertEqual(object["method"] as? String, "POST")
        XCTAssertEqual(
            object["form"] as? [String: String], ["feedback": "Great skill! 5/5 🎉", "stars": "5"])
    }

    func testErrorStatusKeepsStatusAndHTMLBody() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let response = try client.send(HTTPRequest(url: base + "/fail"))
        XCTAssertEqual(response.status, 500)
        XCTAssertFalse(response.isSuccess)
        XCTAssertEqual(response.reason, "Internal Server Error")
        XCTAssertEqual(response.text, "<html><body>Internal failure</body></html>")
        XCTAssertEqual(try client.send(HTTPRequest(url: base + "/missing")).status, 404)
    }

    func testRedirectsAreFollowedOrNot() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let followed = try client.send(HTTPRequest(url: base + "/redirect"))
        XCTAssertEqual(followed.status, 200)
        XCTAssertEqual(followed.headers["x-reply"], "ok", "headers are those of the final response")
        XCTAssertEqual(
            (try jsonObject(followed.body)["query"] as? [String: String])?["from"], "redirect")
        let kept = try client.send(HTTPRequest(url: base + "/redirect", followRedirects: false))
        XCTAssertEqual(kept.status, 302)
        XCTAssertEqual(kept.header("location"), "/echo?from=redirect")
    }

    func testBodyOverTheCapIsTooLarge() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let atLimit = try client.send(HTTPRequest(url: base + "/big/100000", maxResponseBytes: 100_000))
        XCTAssertEqual(atLimit.body.count, 100_000)
        assertFails(
            HTTPRequest(url: base + "/big/3000000", maxResponseBytes: 1_000_000), code: "http-too-large")
        // The default cap (2 MiB) applies too.
        assertFails(HTTPRequest(url: base + "/big/\(3 * 1024 * 1024)"), code: "http-too-large")
    }

    func testBodyWithoutLengthIsAbortedOnceOverTheCap() throws {
        // HTTP/1.0 without Content-Length: only the write callback can notice the size.
        let stream = try StreamingServer(
            head: "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n", maxBytes: 256 * 1024 * 1024)
        assertFails(
            HTTPRequest(url: "http://127.0.0.1:\(stream.port)/", maxResponseBytes: 100_000),
            code: "http-too-large")
        let sent = try XCTUnwrap(stream.bytesSent(), "the streaming server finished")
        XCTAssertLessThan(sent, 256 * 1024 * 1024, "the client hung up instead of reading everything")
    }

    func testTotalTimeoutReturnsPromptly() throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let started = Date()
        assertFails(HTTPRequest(url: base + "/sleep/2500", totalTimeout: 0.5), code: "http-timeout")
        // A correctness bound (the call must not wait for the reply), not a performance check.
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5 + 2)
    }

    func testConnectionRefused() throws {
        let closed = try RawSocket()  // bound, not listening: connections are refused
        let request = HTTPRequest(
            url: "http://127.0.0.1:\(closed.port)/chat.json", query: [("access_token", "secret123")])
        assertFails(request, code: "http-connection-refused")
        XCTAssertThrowsError(try client.send(request)) { error in
            let message = (error as? HTTPError)?.message ?? ""
            XCTAssertTrue(message.contains("/chat.json"), message)
            XCTAssertFalse(message.contains("secret123"), "messages never show the query: \(message)")
        }
    }

    func testConnectTimeoutWhenTheBacklogIsFull() throws {
        // Linux drops SYNs to a listener whose accept queue is full, so the connect hangs.
        let listener = try RawSocket(listenBacklog: 0)
        let fillers = (0..<3).map { _ in RawSocket.startConnect(to: listener.port) }
        defer {
            for filler in fillers { close(filler) }
        }
        Thread.sleep(forTimeInterval: 0.2)
        let started = Date()
        assertFails(
            HTTPRequest(url: "http://127.0.0.1:\(listener.port)/", connectTimeout: 0.5, totalTimeout: 5),
            code: "http-connect-timeout")
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5 + 2)
    }

    func testBadURLsAndHeaders() {
        for url in [
            "", "not a url", "ftp://example.com/", "file:///etc/passwd", "http://",
            "http://exa mple.com/", "http:///path",
        ] {
            assertFails(HTTPRequest(url: url), code: "http-bad-url")
        }
        assertFails(
            HTTPRequest(url: "http://127.0.0.1:1/", headers: [("X-Evil\r\nHost", "x")]),
            code: "http-bad-header")
        assertFails(
            HTTPRequest(url: "http://127.0.0.1:1/", headers: [("X-Ok", "a\r\nInjected: 1")]),
            code: "http-bad-header")
    }

    func testErrorsCarryTheChosenStage() throws {
        let closed = try RawSocket()
        let skills = CurlHTTPClient(stage: .server)
        XCTAssertThrowsError(try skills.send(HTTPRequest(url: "http://127.0.0.1:\(closed.port)/"))) {
            error in
            XCTAssertEqual((error as? HTTPError)?.stage, .server)
        }
        XCTAssertThrowsError(try client.send(HTTPRequest(url: "http://127.0.0.1:\(closed.port)/"))) {
            error in
            XCTAssertEqual((error as? HTTPError)?.stage, .brain)
        }
    }

    func testAsyncFetch() async throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let response = try await client.fetch(HTTPRequest(url: base + "/echo", query: [("q", "async")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual((try jsonObject(response.body)["query"] as? [String: String])?["q"], "async")
        // Several at once: each runs on its own thread, none blocks the cooperative pool.
        let client = self.client
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<4 {
                group.addTask {
                    try await client.fetch(HTTPRequest(url: base + "/sleep/\(200 + index)")).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, [200, 200, 200, 200])
    }

    func testCancellingTheTaskAbortsTheTransfer() async throws {
        let (server, base) = try startServer(routes)
        defer { server.stop() }
        let started = Date()
        let client = self.client
        let task = Task {
            try await client.fetch(HTTPRequest(url: base + "/sleep/3000", totalTimeout: 10))
        }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled fetch must not return a response")
        } catch {
            XCTAssertEqual((error as? HTTPError)?.code, "http-cancelled")
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 2.8, "aborted before the server answered")
    }
}
