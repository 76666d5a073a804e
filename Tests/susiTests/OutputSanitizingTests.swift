import Foundation
import SusiServer
import SusiTestSupport
import XCTest

/// Bidi controls (U+202E and friends) and other invisible format controls in outside text
/// (answers, reviews, config values, arguments quoted in errors) reach the terminal escaped,
/// so they cannot reorder what a person reads (issue 50).
final class OutputSanitizingTests: XCTestCase {
    private var cli: CLIRunner!

    /// Right-to-left override and isolates, marks and the Arabic letter mark.
    private static let hidden: [Unicode.Scalar] = [
        "\u{202E}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
        "\u{200E}", "\u{200F}", "\u{061C}",
    ]

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    private func assertNoHiddenControls(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let found = text.unicodeScalars.filter { scalar in
            Self.hidden.contains(scalar) || (scalar.value < 0x20 && scalar != "\n" && scalar != "\t")
                || (0x7F...0x9F).contains(scalar.value)
        }
        let names = found.map { String($0.value, radix: 16) }
        XCTAssertTrue(found.isEmpty, "raw controls \(names) in \(text.debugDescription)", file: file, line: line)
    }

    func testAnAnswersBidiControlsAreShownEscaped() throws {
        let answer = "Your file is harmless\u{202E}exe.txt\u{202C} \u{2066}ok\u{2069}\u{200F}\u{061C}\u{85}."
        let (server, base) = try startServer { router in
            router.add(["GET", "POST"], "/susi/chat.json") { request in
                .json(object: [
                    "query": request.parameter("q") ?? "",
                    "answers": [["actions": [["type": "answer", "expression": answer]]]],
                ])
            }
        }
        defer { server.stop() }

        let text = try cli.run(["ask", "--server", base, "is it safe"])
        XCTAssertEqual(text.status, 0, text.stderr)
        assertNoHiddenControls(text.stdout)
        XCTAssertEqual(
            text.stdout, #"Your file is harmless\u{202E}exe.txt\u{202C} \u{2066}ok\u{2069}\u{200F}\u{61C}."# + "\n")

        let json = try cli.run(["ask", "--json", "--server", base, "is it safe"])
        XCTAssertEqual(json.status, 0, json.stderr)
        assertNoHiddenControls(json.stdout)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let answers = try XCTUnwrap(object["answers"] as? [[String: Any]])
        let actions = try XCTUnwrap(answers.first?["actions"] as? [[String: Any]])
        XCTAssertEqual(actions.first?["expression"] as? String, answer, "JSON escapes keep the text itself")
    }

    func testConfigValuesAreShownEscaped() throws {
        let room = "Kitchen\u{202E}nehctiK"
        let set = try cli.run(["config", "set", "room", room])
        XCTAssertEqual(set.status, 0, set.stderr)
        assertNoHiddenControls(set.stdout)
        XCTAssertTrue(set.stdout.contains(#"Kitchen\u{202E}nehctiK"#), set.stdout)

        let get = try cli.run(["config", "get", "room"])
        XCTAssertEqual(get.stdout, #"Kitchen\u{202E}nehctiK"# + "\n")

        let show = try cli.run(["config", "show"])
        XCTAssertEqual(show.status, 0, show.stderr)
        assertNoHiddenControls(show.stdout)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["room"] as? String, room, "still JSON, with the value intact")
    }

    func testAnErrorQuotingInputEscapesBidiControls() throws {
        let result = try cli.run(["config", "get", "tts.\u{202E}eciov\u{2066}"])
        XCTAssertNotEqual(result.status, 0)
        assertNoHiddenControls(result.stderr)
        XCTAssertTrue(result.stderr.contains(#"tts.\u{202E}eciov\u{2066}"#), result.stderr)

        let verbose = try cli.run(["-vv", "ask", "--server", "http://127.0.0.1:9/\u{202E}", "hi"])
        assertNoHiddenControls(verbose.stderr)
    }

    func testReviewsAreShownEscaped() throws {
        let reviews = #"""
            {"accepted": true, "feedback": [
              {"feedback": "Five stars\u202e!sknat\u202c", "email": "a@example.com", "timestamp": "2018-06-12 17:04:58.785", "user_name": "Eve\u2067"}
            ]}
            """#
        let (server, base) = try startServer { router in
            router.get("/cms/getSkillFeedback.json") { _ in
                ServerResponse(status: 200, contentType: ServerResponse.jsonContentType, body: Data(reviews.utf8))
            }
        }
        defer { server.stop() }
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", base]).status, 0)

        let text = try cli.run(["skill", "feedback", "Knowledge/wikipedia"])
        XCTAssertEqual(text.status, 0, text.stderr)
        assertNoHiddenControls(text.stdout)
        XCTAssertTrue(text.stdout.contains(#"Five stars\u{202E}!sknat\u{202C}"#), text.stdout)

        let json = try cli.run(["skill", "feedback", "Knowledge/wikipedia", "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        assertNoHiddenControls(json.stdout)
        XCTAssertTrue(json.stdout.contains("Five stars"), json.stdout)
    }
}
