import Foundation
import SusiCore
import SusiNet
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

/// A password in a URL's user part never reaches a log line or an error message (issue 50).
final class URLRedactionTests: XCTestCase {
    private final class Lines: LogHandler {
        let lines = Mutex<[String]>([])
        func write(level: LogLevel, label: String, message: String) { lines.withLock { $0.append(message) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func testTheClientLogsAndReportsURLsWithoutTheirPassword() throws {
        let (server, base) = try startServer { router in router.get("/echo") { _ in .text("ok") } }
        defer { server.stop() }
        let lines = Lines()
        let client = CurlHTTPClient(logger: Logger(label: "http", level: .trace, handler: lines))
        let url = base.replacingOccurrences(of: "http://", with: "http://me:hunter2@") + "/echo?token=t0ps3cret"
        let response = try client.send(HTTPRequest(url: url, query: [("access_token", "TOKEN")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertFalse(lines.all.isEmpty, "the request was logged")
        for line in lines.all {
            XCTAssertFalse(line.contains("hunter2") || line.contains("t0ps3cret") || line.contains("TOKEN"), line)
            XCTAssertTrue(line.contains("me:***@127.0.0.1"), line)
        }

        let refused = "http://me:hunter2@127.0.0.1:9/x?password=t0ps3cret"
        XCTAssertThrowsError(try client.send(HTTPRequest(url: refused, connectTimeout: 2, totalTimeout: 2))) { error in
            let message = (error as? HTTPError)?.message ?? "\(error)"
            XCTAssertFalse(message.contains("hunter2") || message.contains("t0ps3cret"), message)
            XCTAssertTrue(message.contains("me:***@127.0.0.1:9"), message)
        }
    }
}
