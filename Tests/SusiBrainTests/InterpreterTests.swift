import Foundation
import SusiModel
import XCTest

@testable import SusiBrain

/// Each construct of the skill language, through the public `Brain` API.
final class InterpreterTests: XCTestCase {
    func testRandomAlternativesUseThePicker() {
        let text = "colour\nred|green|blue\n"
        for (index, expected) in ["red", "green", "blue"].enumerated() {
            let brain = Brain(
                texts: [("c", text)],
                pick: { count in
                    XCTAssertEqual(count, 3)
                    return index
                })
            XCTAssertEqual(say(brain, "colour"), expected)
        }
        let wild = Brain(texts: [("c", text)], pick: { _ in 99 })
        XCTAssertEqual(say(wild, "colour"), "blue", "an out-of-range pick is clamped")
    }

    func testEveryAnswerLineIsGivenInOrderAsInSUSI() throws {
        // "|" separates alternatives (one picked); lines are a sequence (all given).
        let brain = Brain(texts: [("c", "colour\nred|green\nblue\n")], pick: { $0 - 1 })
        XCTAssertEqual(say(brain, "colour"), "green blue")
        let reply = try brain.answer("colour")
        XCTAssertEqual(reply.answers.first?.actions.count, 2, "one answer action per line")
    }

    func testCapturesAndWholeQuery() {
        let brain = makeBrain(
            "for * I can buy a *\nYes, $1$ is a good price for a $2$. You said: $0$\n")
        XCTAssertEqual(
            say(brain, "For ten euros, I can buy a book!"),
            "Yes, ten euros is a good price for a book. You said: for ten euros i can buy a book")
    }

    func testDollarSignsThatAreNotPlaceholders() {
        let brain = makeBrain("price\nIt costs $5 or $ 10, not $.\n")
        XCTAssertEqual(say(brain, "price"), "It costs $5 or $ 10, not $.")
    }

    func testUnknownPlaceholderMakesTheIntentFail() {
        let brain = makeBrain("a *\nYou said $nothing$.\n\n*\nfallback\n")
        XCTAssertEqual(say(brain, "a b"), "fallback")
    }

    func testConditionalAnswers() {
        let brain = makeBrain(
            """
            room
            ?$room$:I'm in the $room$.:No room yet.

            is it the kitchen
            ?$room$=Kitchen:Yes, it is.|Yes indeed.:No, it's the $room$.

            strict
            ?$room$:Known
            """)
        XCTAssertEqual(say(brain, "room", context: BrainContext(room: "attic")), "I'm in the attic.")
        XCTAssertEqual(say(brain, "room", context: BrainContext(room: "")), "No room yet.")
        XCTAssertEqual(
            say(brain, "is it the kitchen", context: BrainContext(room: "kitchen")), "Yes, it is.")
        XCTAssertEqual(
            say(brain, "is it the kitchen", context: BrainContext(room: "attic")), "No, it's the attic.")
        let strict =
            (try? makeBrain("strict\n?$room$:Known\n").answer("strict", context: BrainContext(room: "")))
        XCTAssertEqual(strict?.answers.count, 0, "no ELSE branch: the intent cannot answer")
    }

    func testConsoleActionsAreAddedAfterTheAnswer() throws {
        let brain = makeBrain(
            """
            play *
            !console:Playing $1$ for you.
            {"actions":[{"type":"audio_play","identifier":"$1$","identifier_type":"search"},{"type":"audio_volume","volume":"55"}]}
            eol
            """)
        let reply = try brain.answer("play \"quoted\" jazz", context: .examples)
        XCTAssertEqual(
            reply.actions,
            [
                .answer(AnswerAction(expression: "Playing quoted jazz for you.", language: "en")),
                .audioPlay(MediaPlayAction(identifier: "quoted jazz", identifierType: "search")),
                .audioVolume(VolumeAction(volume: 55)),
            ])
        XCTAssertEqual(reply.skill, "test")
    }

    func testConsoleWithoutAnswerGivesOnlyActions() throws {
        let brain = makeBrain("stop\n!console:\n{\"actions\":[{\"type\":\"stop\"}]}\neol\n")
        XCTAssertEqual(try brain.answer("stop", context: .examples).actions, [.stop])
    }

    func testJSONEscapingOfCapturesInActions() throws {
        let brain = makeBrain(
            """
            note *
            !console:ok
            {"actions":[{"type":"answer","expression":"$1$ \\\\ done","plan_delay":1000}]}
            eol
            """)
        let reply = try brain.answer("note back\\slash", context: .examples)
        // Normalisation drops the backslash from the query; the literal one in the template stays.
        XCTAssertEqual(
            reply.actions.last,
            .answer(AnswerAction(expression: "back slash \\ done", language: "en", planDelay: 1000)))
    }

    func testConsoleURLWithPathIntoObjectRows() throws {
        let fetcher = InMemoryFetcher([
            "http://data.test/search?q=ten%20euros":
                #"{"result":{"items":[{"name":"Ada","age":36},{"name":"Bob","age":7}]}}"#
        ])
        let brain = makeBrain(
            """
            who costs *
            !console:$name$ is $age$.
            {"url":"http://data.test/search?q=$1$","path":"$.result.items"}
            eol
            """, fetcher: fetcher)
        let reply = try brain.answer("who costs ten euros", context: .examples)
        XCTAssertEqual(reply.spokenText, "Ada is 36.")
        XCTAssertEqual(reply.firstAnswer?.data.count, 2, "all selected rows are returned as data")
        XCTAssertEqual(reply.firstAnswer?.data[1]["name"], "Bob")
        XCTAssertEqual(reply.firstAnswer?.metadata.count, 2)
        XCTAssertEqual(fetcher.requested, ["http://data.test/search?q=ten%20euros"])
    }

    func testConsolePathForms() throws {
        let body = #"{"a":{"b":"deep"},"list":[{"x":"first"},{"x":"second"}],"atoms":["one","two"]}"#
        let top = #"[{"x":"array root"}]"#
        let fetcher = InMemoryFetcher(["http://t/o": body, "http://t/a": top])
        let brain = makeBrain(
            """
            dotted
            !console:$!$
            {"url":"http://t/o","path":"$.a.b"}
            eol

            indexed
            !console:$x$
            {"url":"http://t/o","path":"$.list[1]"}
            eol

            negative
            !console:$x$
            {"url":"http://t/o","path":"$.list[-1]"}
            eol

            root array
            !console:$x$
            {"url":"http://t/a","path":"$[0]"}
            eol

            whole
            !console:$a.b$ and $list.0.x$
            {"url":"http://t/o","path":"$"}
            eol

            atoms
            !console:$object$
            {"url":"http://t/o","path":"$.atoms"}
            eol

            quoted key
            !console:$!$
            {"url":"http://t/o","path":"$['a'].b"}
            eol
            """, fetcher: fetcher)
        XCTAssertEqual(say(brain, "dotted"), "deep")
        XCTAssertEqual(say(brain, "indexed"), "second")
        XCTAssertEqual(say(brain, "negative"), "second")
        XCTAssertEqual(say(brain, "root array"), "array root")
        XCTAssertEqual(say(brain, "whole"), "deep and first")
        XCTAssertEqual(say(brain, "atoms"), "one")
        XCTAssertEqual(say(brain, "quoted key"), "deep")
    }

    func testConsoleFailuresFallThroughToTheNextCandidate() throws {
        let fetcher = InMemoryFetcher([
            "http://t/text": "<html>oops</html>", "http://t/empty": #"{"items":[]}"#,
        ])
        let brain = makeBrain(
            """
            weather in *
            !console:$temp$
            {"url":"http://t/down?city=$1$","path":"$.temp"}
            eol

            weather *
            !console:$temp$
            {"url":"http://t/text","path":"$"}
            eol

            * weather *
            !console:$x$
            {"url":"http://t/empty","path":"$.items"}
            eol

            * weather *
            I cannot see outside right now.
            """, fetcher: fetcher)
        XCTAssertEqual(say(brain, "weather in berlin"), "I cannot see outside right now.")
        XCTAssertEqual(
            fetcher.requested, ["http://t/down?city=berlin", "http://t/text", "http://t/empty"])
    }

    func testFunctionConsoleRowsAndActions() throws {
        let brain = makeBrain(
            """
            timer *
            !console:Timer for $duration$.
            {"function":"duration","argument":"$1$","actions":[{"type":"answer","expression":"Done after $duration$.","plan_delay":"$milliseconds$"}]}
            eol
            """)
        let reply = try brain.answer("timer two minutes", context: .examples)
        XCTAssertEqual(
            reply.actions,
            [
                .answer(AnswerAction(expression: "Timer for 2 minutes.", language: "en")),
                .answer(
                    AnswerAction(expression: "Done after 2 minutes.", language: "en", planDelay: 120_000)),
            ])
        XCTAssertEqual(reply.firstAnswer?.data.first?["1"], "two minutes")
        XCTAssertEqual(reply.firstAnswer?.data.first?["milliseconds"], 120_000)
        XCTAssertEqual(say(brain, "timer never"), "", "a failing function gives no answer")
    }

    func testReplyShape() throws {
        let brain = makeBrain("::name Greeter\nhello\nHi!\n", id: "greeter")
        let reply = try brain.answer("  Hello! ", context: BrainContext(language: "de"))
        XCTAssertEqual(reply.query, "Hello!")
        XCTAssertEqual(reply.queryLanguage, "de")
        XCTAssertEqual(reply.skill, "greeter")
        XCTAssertEqual(reply.actions, [.answer(AnswerAction(expression: "Hi!", language: "de"))])
        XCTAssertEqual(reply.firstAnswer?.data, [["0": "hello"]])
        XCTAssertEqual(reply.session?["identity"]?["anonymous"], true)
        XCTAssertGreaterThanOrEqual(reply.answerTime, 0)
        XCTAssertTrue(reply.queryDate.hasSuffix("Z"))
        XCTAssertTrue(reply.answerDate.hasSuffix("Z"))
        let json = try JSONValue.parse(try reply.encoded())
        for key in ["query", "query_date", "answer_date", "answer_time", "session", "answers"] {
            XCTAssertNotNil(json[key], key)
        }
        XCTAssertEqual(json["answers"]?[0]?["skills"]?[0], "greeter")
    }

    func testBadQueries() {
        let brain = makeBrain("*\nfallback\n")
        XCTAssertEqual(say(brain, ""), "brain-empty-query")
        XCTAssertEqual(say(brain, "   \n\t"), "brain-empty-query")
        XCTAssertEqual(say(brain, "?!..."), "brain-empty-query")
        XCTAssertEqual(
            say(brain, String(repeating: "a", count: Brain.maxQueryBytes + 1)), "brain-query-too-long")
        XCTAssertEqual(
            say(brain, String(repeating: "a ", count: 4000)), "fallback", "long but under 10 KB is fine")
        XCTAssertEqual(say(brain, "hello\u{0}world"), "brain-binary-query")
        XCTAssertEqual(say(brain, "ding\u{7}"), "brain-binary-query")
        XCTAssertEqual(
            say(brain, String(decoding: [0x68, 0xFF, 0xFE, 0x69] as [UInt8], as: UTF8.self)),
            "brain-binary-query")
        XCTAssertEqual(say(brain, "line one\nline two"), "fallback", "newlines are ordinary blanks")
    }
}
