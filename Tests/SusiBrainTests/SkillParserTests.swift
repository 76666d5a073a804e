import Foundation
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
        XCTAssertEqual(skill.intents[0].answerLines.map(\.count), [2], "one line of two random alternatives")
        XCTAssertEqual(
            skill.intents[0].examples, [SkillExample(query: "hello", expect: "Hello", line: 7)])
        XCTAssertEqual(skill.intents[1].line, 10)
        XCTAssertEqual(skill.exampleCount, 1)
    }

    func testCommentLinesAreInvisibleAsInSUSI() throws {
        // SUSI's current reader skips comment lines without ending the block.
        let output = parse("one\n# comment\nfirst answer\n\ntwo\nsecond answer\n")
        XCTAssertEqual(output.skill?.intents.map(\.patterns), [["one"], ["two"]])
        XCTAssertEqual(output.skill?.intents.first?.answerLines.count, 1)
    }

    func testNameDefaultsToId() throws {
        XCTAssertEqual(parse("a\nb\n").skill?.name, "t")
    }

    func testWindowsLineEndings() throws {
        let output = parse("hello\r\nHi!\r\n\r\nbye\r\nBye!\r\n")
        XCTAssertEqual(output.diagnostics, [])
        XCTAssertEqual(output.skill?.intents.count, 2)
    }

    /// Issue 51: a bare carriage return (old Mac files; `%0d` in SUSI clients' texts) ends a
    /// line as a newline does, and "\r\n" is still one line end, not two.
    func testABareCarriageReturnEndsALine() throws {
        let output = parse("hello\rHi!\r\rbye|good bye\r\nBye!\n\nthanks\nYou're welcome.\r")
        XCTAssertEqual(output.diagnostics, [])
        XCTAssertEqual(output.skill?.intents.map(\.patterns), [["hello"], ["bye", "good bye"], ["thanks"]])
        XCTAssertEqual(output.skill?.intents.map { $0.answerLines.count }, [1, 1, 1])
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

    func testMissingEolSkipsOnlyThatBlock() {
        let output = parse("ok\nfine\n\nweather\n!console:$x$\n{\"url\":\"http://x\"}\n\nbye\nBye!\n")
        XCTAssertEqual(output.skill?.intents.map(\.patterns), [["ok"], ["bye"]])
        XCTAssertEqual(output.diagnostics.first?.line, 5)
        XCTAssertEqual(output.diagnostics.first?.severity, .warning)
        XCTAssertTrue(output.diagnostics.first?.message.contains("eol") ?? false)
    }

    func testBadBlocksAreSkippedWithFileAndLineAndTheRestLoads() {
        let cases: [(String, Int, String)] = [
            ("lonely pattern\n", 1, "one-line block"),
            ("q\n!console:x\nnot json {\neol\n", 2, "JSON"),
            ("q\n!console:x\n[1,2]\neol\n", 2, "object"),
            ("q\n!console:x\n{\"path\":\"$.a\"}\neol\n", 2, "needs"),
            ("q\n!console:x\n{\"url\":\"http://a\",\"path\":\"a.b\"}\neol\n", 2, "JSONPath"),
            ("q\n!console:x\n{\"function\":\"teleport\"}\neol\n", 2, "unknown function"),
            ("q\n!console:x\n{\"url\":\"http://a\",\"function\":\"number\"}\neol\n", 2, "not both"),
            ("a\n?$x$:\n", 2, "THEN"),
            ("!example:x\nsome answer\n", 1, "directive"),
        ]
        for (text, line, fragment) in cases {
            let output = parse(text + "\nfine\nYes.\n")
            XCTAssertEqual(output.skill?.intents.map(\.patterns), [["fine"]], text)
            let first = output.diagnostics.first
            XCTAssertEqual(first?.file, "t.txt", text)
            XCTAssertEqual(first?.line, line, text)
            XCTAssertTrue(
                first?.message.contains(fragment) ?? false, "\(text): \(first?.message ?? "no diagnostic")")
            XCTAssertEqual(first?.description.hasPrefix("t.txt:\(line): warning: "), true)
        }
    }

    func testWhatSUSIsReaderIgnoresIsIgnored() throws {
        let output = parse(
            """
            ::name Tolerant
            what is up||how are you|
            Fine.|
            !example :
            !expect:Fine
            !----------- a ruler
            !image:images/x.png
            !description: nothing to say

            long \\
            pattern|glued
            \\ line
            Glued answer.
            !example:long pattern glued line

            pattern only
            !example:pattern only
            """)
        let skill = try XCTUnwrap(output.skill)
        XCTAssertEqual(skill.intents.map(\.patterns), [["what is up", "how are you"], ["long pattern", "glued line"]])
        XCTAssertEqual(skill.intents[0].answerLines.map(\.count), [1], "the empty alternative is dropped")
        XCTAssertEqual(skill.intents[0].examples, [], "!example : is no example; a lone !expect tests nothing")
        XCTAssertEqual(skill.intents[1].examples.map(\.query), ["long pattern glued line"])
        XCTAssertEqual(output.diagnostics.map(\.line), [16], "only the pattern-only block is reported")
    }

    func testLoneCatchAllIsRefusedOnlyInSkillData() throws {
        let text = "*\n^$1$^>_universal\n\nhello|*\nHi!\n"
        let bundled = SkillParser.parse(text: text, file: "t.txt", id: "t")
        XCTAssertEqual(bundled.skill?.intents.map(\.patterns), [["*"], ["hello", "*"]])
        let tree = SkillParser.parse(
            text: text, file: "t.txt", id: "t", options: SkillParser.Options(refuseCatchAll: true))
        XCTAssertEqual(tree.skill?.intents.map(\.patterns), [["hello"]])
        XCTAssertTrue(tree.diagnostics.first?.message.contains("catch-all") ?? false)
    }

    func testJavaScriptBlocksLoadAndAnEmptyOneIsSkipped() throws {
        let output = parse(
            """
            compute *
            !javascript:two to the $1$ is $!$
            Math.pow(2, $1$)
            eol

            nothing to run
            !javascript:$!$
            eol

            hello
            Hi!
            """)
        let skill = try XCTUnwrap(output.skill)
        XCTAssertEqual(skill.intents.map(\.patterns), [["compute *"], ["hello"]])
        XCTAssertEqual(skill.intents.first?.script?.script.variables, ["1"])
        XCTAssertEqual(skill.intents.first?.spokenLines.count, 1)
        XCTAssertEqual(output.diagnostics.map(\.line), [7])
        XCTAssertTrue(output.diagnostics.first?.message.contains("empty") ?? false)
    }

    func testEmptyFileWarns() {
        let output = parse("# nothing here\n")
        XCTAssertNotNil(output.skill)
        XCTAssertEqual(output.diagnostics.map(\.severity), [.warning])
    }
}
