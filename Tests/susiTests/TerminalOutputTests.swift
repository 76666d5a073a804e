import Foundation
import SusiServer
import SusiTestSupport
import XCTest

/// What `susi` prints from outside text (a server's answer, an argument) never drives the terminal.
final class TerminalOutputTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    func testAServersTerminalEscapesAreNotPrinted() throws {
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[HIt is \u{1B}[5mten\u{1B}[0m past four.\r\u{9B}1A"
        let (server, base) = try startServer { router in
            router.add(["GET", "POST"], "/susi/chat.json") { request in
                .json(object: [
                    "query": request.parameter("q") ?? "",
                    "answers": [["actions": [["type": "answer", "expression": hostile]]]],
                ])
            }
        }
        defer { server.stop() }

        let text = try cli.run(["ask", "--server", base, "what time is it"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertEqual(text.stdout, "It is ten past four.\n")

        let json = try cli.run(["ask", "--json", "--server", base, "what time is it"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertFalse(json.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "JSON escapes them")
        XCTAssertTrue(json.stdout.contains(#"\u001b[2J"#), json.stdout)
    }

    func testAnErrorLineEscapesControlCharacters() throws {
        let result = try cli.run(["config", "get", "tts.\u{1B}]0;owned\u{07}\u{1B}[2Jvoice"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertFalse(result.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, result.stderr)
        XCTAssertTrue(result.stderr.contains(#"\u{1B}[2J"#), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1, "one line")
    }
}
