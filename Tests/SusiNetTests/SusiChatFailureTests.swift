import Foundation
import SusiNet
import SusiServer
import XCTest

/// Every failure of issue 4 point 2 becomes its own `brain-` code, within the timeout.
final class SusiChatFailureTests: XCTestCase {
    private let timeout = 1.0
    /// A correctness bound (the call must not wait past its timeout), not a performance check.
    private var bound: Double { timeout + 1.5 }

    private func assertFails(
        _ base: String, code: String, http: any HTTPClient = CurlHTTPClient(), file: StaticString = #filePath,
        line: UInt = #line, check: (SusiAPIError) -> Void = { _ in }
    ) {
        let client = SusiChatClient(server: base, timeout: timeout, http: http, maxResponseBytes: 64 * 1024)
        let started = Date()
        XCTAssertThrowsError(try client.answer("hello"), file: file, line: line) { error in
            guard let error = error as? SusiAPIError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(error.code, code, error.message, file: file, line: line)
            XCTAssertEqual(error.stage, .brain, file: file, line: line)
            XCTAssertFalse(error.message.contains("\n"), "one line", file: file, line: line)
            check(error)
        }
        XCTAssertLessThan(elapsed(since: started), bound, "returned within the timeout", file: file, line: line)
    }

    private func serve(_ handler: @escaping ServerHandler) throws -> (HTTPServer, String) {
        try startServer { $0.get("/susi/chat.json", handler) }
    }

    func testConnectionRefused() throws {
        let closed = try RawSocket()  // bound, not listening
        assertFails("http://127.0.0.1:\(closed.port)", code: "brain-connection-refused")
    }

    func testDNSFailure() {
        // Resolving a name needs a resolver, which a test must not depend on: the transport's
        // own DNS classification is the HTTP client's test; here its mapping.
        let failing = FailingHTTPClient(HTTPError(.dnsFailure, message: "no-such-host.invalid: could not resolve"))
        assertFails("http://no-such-host.invalid", code: "brain-dns-failure", http: failing)
    }

    func testConnectTimeout() throws {
        // Linux drops SYNs to a listener whose accept queue is full, so the connect hangs.
        let listener = try RawSocket(listenBacklog: 0)
        let fillers = (0..<3).map { _ in RawSocket.startConnect(to: listener.port) }
        defer { fillers.forEach { close($0) } }
        Thread.sleep(forTimeInterval: 0.2)
        assertFails("http://127.0.0.1:\(listener.port)", code: "brain-connect-timeout")
    }

    func testReplyThatNeverComes() throws {
        let (server, base) = try serve { _ in
            Thread.sleep(forTimeInterval: 2.5)
            return jsonReply(SusiRecordedReplies.helloOlder)
        }
        defer { server.stop() }
        assertFails(base, code: "brain-timeout")
    }

    func testHTMLErrorPageKeepsStatusAndTitle() throws {
        let (server, base) = try serve { _ in .html(SusiRecordedReplies.errorPage, status: 500) }
        defer { server.stop() }
        assertFails(base, code: "brain-http-status") { error in
            XCTAssertEqual(error.status, 500)
            XCTAssertEqual(error.reason, "HTTP Status 500 – Internal Server Error")
            XCTAssertTrue(error.message.contains("500"), error.message)
        }
    }

    func testErrorWithoutPageUsesTheStatusLine() throws {
        let (server, base) = try serve { _ in ServerResponse(status: 503, contentType: "text/plain") }
        defer { server.stop() }
        assertFails(base, code: "brain-http-status") { error in
            XCTAssertEqual(error.status, 503)
            XCTAssertEqual(error.reason, "Service Unavailable")
        }
        let (missing, missingBase) = try startServer { _ in }
        defer { missing.stop() }
        assertFails(missingBase, code: "brain-http-status") { XCTAssertEqual($0.status, 404) }
    }

    func testAcceptedFalseIsRejectedWithTheServersMessage() throws {
        let (server, base) = try serve { _ in jsonReply(SusiRecordedReplies.rejected) }
        defer { server.stop() }
        assertFails(base, code: "brain-rejected") { error in
            XCTAssertTrue(error.message.contains("Bad access token: expired"), error.message)
        }
    }

    func testGarbageIsBadJSON() throws {
        for body in ["<html>not json</html>", "{\"answers\": [", "[1, 2, 3]", "", "\"just a string\""] {
            let (server, base) = try serve { _ in ServerResponse(contentType: "application/json", body: Data(body.utf8))
            }
            assertFails(base, code: "brain-bad-json")
            server.stop()
        }
    }

    func testMissingOrEmptyAnswersAreNoAnswer() throws {
        for body in [
            SusiRecordedReplies.noAnswersMember, SusiRecordedReplies.emptyAnswers,
            SusiRecordedReplies.answerWithoutActions, "{}",
        ] {
            let (server, base) = try serve { _ in jsonReply(body) }
            assertFails(base, code: "brain-no-answer")
            server.stop()
        }
    }

    func testBodyOverTheCapIsTooLarge() throws {
        let (server, base) = try serve { _ in
            jsonReply("{\"answers\": [], \"pad\": \"" + String(repeating: "x", count: 200_000) + "\"}")
        }
        defer { server.stop() }
        assertFails(base, code: "brain-too-large")
    }

    func testBadServerURL() {
        assertFails("not a url", code: "brain-bad-url")
    }

    func testEveryTransportFailureHasABrainCode() {
        for kind in HTTPError.Kind.allCases {
            let failing = FailingHTTPClient(HTTPError(kind, message: "x"))
            XCTAssertThrowsError(try SusiChatClient(server: "http://h", http: failing).answer("q")) { error in
                XCTAssertTrue((error as? SusiAPIError)?.code.hasPrefix("brain-") == true, "\(kind): \(error)")
            }
        }
    }
}

/// An HTTP client that always fails with one error: for failures a test cannot cause for real.
struct FailingHTTPClient: HTTPClient {
    let error: HTTPError
    init(_ error: HTTPError) { self.error = error }
    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse { throw error }
}
