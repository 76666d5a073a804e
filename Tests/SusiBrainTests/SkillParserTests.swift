import Foundation
import SusiCore
import XCTest

@testable import SusiBrain

/// The skill file reader: headers, comments, blocks, directives and the errors it reports.
final class SkillParserTests: XCTestCase {
    private func parse(_ text: String) -> SkillParser.Output {
        SkillParser.parse(text: text, file: "t.txt", id: "t")
    }

    func testHeadersCommentsAndBlocks() throws {
        let output = parse(
            """
            ::name Greeter
            ::Author Someone
            ::description Says hello.
            # a comment
            hello|hi there
            Hello!|Hi!
            !example:hello
            !expect:Hello

            bye
            Goodbye.
            """)
        XCTAssertEqual(output.diagnostics, [])
        let skill = try XCTUnwrap(output.skill)
        XCTAssertEqual(skill.name, "Greeter")
        XCTAssertEqual(skill.headers["author"], "Someone")
        XCTAssertEqual(skill.description, "Says hello.")
        XCTAssertEqual(skill.intents.count, 2)
        XCTAssertEqual(skill.intents[0].patterns, ["hello", "hi there"])
        XCTAssertEqual(skill.intents[0].line, 5)
        XCTAssertEqual(skill.intents[0].answers.count, 2, "two random alternatives")
        XCTAssertEqual(
            skill.intents[0].examples, [SkillExample(query: "hello", expect: "Hello", line: 7)])
        XCTAssertEqual(skill.intents[1].line, 10)
        XCTAssertEqual(skill.exampleCount, 1)
    }

    func testCommentEndsABlockAsInSUSI() throws {
        let output = parse("one\nfirst answer\n# comment\ntwo\nsecond answer\n")
        XCTAssertEqual(output.skill?.intents.map(\.patterns), [["one"], ["two"]])
    }

    func testNameDefaultsToId() throws {
        XCTAssertEqual(parse("a\nb\n").skill?.name, "t")
    }

    func testWindowsLineEndings() throws {
        let output = parse("hello\r\nHi!\r\n\r\nbye\r\nBye!\r\n")
        XCTAssertEqual(output.diagnostics, [])
        XCTAssertEqual(output.skill?.intents.count, 2)
    }

    func testConsoleBlockWithBlankLinesInsideJSON() throws {
        let output = parse(
            """
            tweet about *
            !console:$text$
            {
              "url": "http://127.0.0.1/search?q=$1$",

              "path": "$.statuses"
            }
            eol
            !example:tweet about swift
            """)
        XCTAssertEqual(output.diagnostics, [])
        let console = try XCTUnwrap(output.skill?.intents.first?.console)
        XCTAssertEqual(console.path, JSONPath("$.statuses"))
        XCTAssertNotNil(console.url)
        XCTAssertEqual(output.skill?.intents.first?.examples.count, 1)
    }

    func testMissingEolIsAnErrorWithLine() {
        let output = parse("ok\nfine\n\nweather\n!console:$x$\n{\"url\":\"http://x\"}\n")
        XCTAssertNil(output.skill)
        XCTAssertEqual(output.diagnostics.first?.line, 5)
        XCTAssertEqual(output.diagnostics.first?.severity, .error)
        XCTAssertTrue(output.diagnostics.first?.message.contains("eol") ?? false)
    }

    func testErrorsNameFileAndLine() {
        let cases: [(String, Int, String)] = [
            ("lonely pattern\n", 1, "no answer"),
            ("q\n!console:x\nnot json\neol\n", 2, "JSON"),
            ("q\n!console:x\n[1,2]\neol\n", 2, "object"),
            ("q\n!console:x\n{\"path\":\"$.a\"}\neol\n", 2, "needs"),
            ("q\n!console:x\n{\"url\":\"http://a\",\"path\":\"a.b\"}\neol\n", 2, "JSONPath"),
            ("q\n!console:x\n{\"function\":\"teleport\"}\neol\n", 2, "unknown function"),
            ("q\n!console:x\n{\"actions\":[{\"no\":\"type\"}]}\neol\n", 2, "actions"),
            ("q\n!console:x\n{\"url\":\"http://a\",\"function\":\"number\"}\neol\n", 2, "not both"),
            ("q\nanswer\n!console:x\n{\"actions\":[{\"type\":\"stop\"}]}\neol\n", 3, "not both"),
            ("a\nb\n!expect:b\n", 3, "!expect"),
            ("a|\nb\n", 1, "empty pattern"),
            ("a\n?$x:yes\n", 2, "conditional"),
            ("a\n?$x$:\n", 2, "THEN"),
            ("::\n", 1, "header"),
            ("!example:x\n", 1, "pattern"),
        ]
        for (text, line, fragment) in cases {
            let output = parse(text)
            XCTAssertNil(output.skill, text)
            let first = output.diagnostics.first
            XCTAssertEqual(first?.file, "t.txt", text)
            XCTAssertEqual(first?.line, line, text)
            XCTAssertTrue(
                first?.message.contains(fragment) ?? false, "\(text): \(first?.message ?? "no diagnostic")")
            XCTAssertEqual(first?.description.hasPrefix("t.txt:\(line): error: "), true)
        }
    }

    func testUnsupportedDirectiveSkipsOnlyItsIntent() throws {
        let output = parse(
            """
            compute *
            !javascript:$!$
            Math.pow(2, 3)
            eol

            hello
            Hi!
            """)
        let skill = try XCTUnwrap(output.skill)
        XCTAssertEqual(skill.intents.map(\.patterns), [["hello"]])
        XCTAssertEqual(output.diagnostics.map(\.severity), [.warning])
        XCTAssertEqual(output.diagnostics.first?.line, 2)
    }

    func testEmptyFileWarns() {
        let output = parse("# nothing here\n")
        XCTAssertNotNil(output.skill)
        XCTAssertEqual(output.diagnostics.map(\.severity), [.warning])
    }
}
