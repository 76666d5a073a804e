import Foundation
import XCTest

@testable import SusiBrain

/// Normalisation, wildcard capture and ranking.
final class MatchingTests: XCTestCase {
    func testNormalisationAsSUSI() {
        XCTAssertEqual(QueryNormalizer.normalize("  What's   the TIME?! "), "whats the time")
        XCTAssertEqual(QueryNormalizer.normalize("Hello, SUSI."), "hello susi")
        XCTAssertEqual(QueryNormalizer.normalize("twenty-two"), "twenty two")
        XCTAssertEqual(QueryNormalizer.normalize("Ça va? Très bien"), "ça va très bien")
        XCTAssertEqual(QueryNormalizer.normalize("don’t stop"), "dont stop")
    }

    func testNormalisationSpellsOutTypedArithmetic() {
        XCTAssertEqual(QueryNormalizer.normalize("7+5"), "7 plus 5")
        XCTAssertEqual(QueryNormalizer.normalize("8 / 2"), "8 divided by 2")
        XCTAssertEqual(QueryNormalizer.normalize("3*4"), "3 times 4")
        XCTAssertEqual(QueryNormalizer.normalize("9-4"), "9 minus 4")
        XCTAssertEqual(QueryNormalizer.normalize("2.5 × 2"), "2.5 times 2")
        XCTAssertEqual(QueryNormalizer.normalize("1,000 + 1"), "1000 plus 1")
        XCTAssertEqual(QueryNormalizer.normalize("the end."), "the end")
        XCTAssertEqual(QueryNormalizer.normalize("50%"), "50 percent")
    }

    func testWildcardsCaptureWords() throws {
        let pattern = try XCTUnwrap(SkillPattern("for * I can buy a *"))
        XCTAssertEqual(
            pattern.match(QueryNormalizer.words("for ten euros I can buy a good book")),
            ["ten euros", "good book"])
        XCTAssertNil(pattern.match(QueryNormalizer.words("for ten euros I can sell a book")))
        let middle = try XCTUnwrap(SkillPattern("* plus *"))
        XCTAssertEqual(middle.match(["what", "is", "two", "plus", "three"]), ["what is two", "three"])
        // Greedy, as SUSI's `(.*)`: the first wildcard runs to the last "in".
        let greedy = try XCTUnwrap(SkillPattern("* in *"))
        XCTAssertEqual(greedy.match(QueryNormalizer.words("weather in new york in winter")), ["weather in new york", "winter"])
        let empty = try XCTUnwrap(SkillPattern("* time *"))
        XCTAssertEqual(empty.match(["time"]), ["", ""], "a wildcard may match no words")
        XCTAssertNil(SkillPattern(" ?! "))
        XCTAssertEqual(SkillPattern("What's *?")?.literals, ["whats"])
    }

    func testMoreLiteralWordsWin() throws {
        let brain = makeBrain(
            """
            *
            fallback

            what is *
            generic $1$

            what is the time
            exact

            * the time *
            loose
            """)
        XCTAssertEqual(say(brain, "what is the time"), "exact")
        XCTAssertEqual(say(brain, "what is love"), "generic love")
        XCTAssertEqual(say(brain, "tell me the time please"), "loose")
        XCTAssertEqual(say(brain, "anything else"), "fallback", "a lone * comes last")
    }

    func testFewerWildcardsBreakTiesThenFileOrder() throws {
        let brain = makeBrain(
            """
            * play *
            two wildcards

            play *
            one wildcard

            play jazz
            first

            play jazz
            second
            """)
        XCTAssertEqual(say(brain, "play rock"), "one wildcard")
        XCTAssertEqual(say(brain, "please play rock"), "two wildcards")
        XCTAssertEqual(say(brain, "play jazz"), "first")
    }

    func testLongerLiteralWordsWinOverShortOnesOfEqualCount() {
        // Two literal words each and three words swallowed each; "meadow" and "mown" say more
        // than "who" and "is". The chat intent's shortest pattern is the longer one, so SUSI's
        // own score alone (and the order before) picked it.
        let brain = Brain(
            texts: [
                ("a_chat", "who is *\nSomeone, I suppose.\n"),
                ("b_farm", "* meadow mown|hay\nThe meadow is mown in June.\n\nhow many cows\nForty.\n"),
            ], pick: { _ in 0 })
        XCTAssertEqual(say(brain, "who is in the meadow mown"), "The meadow is mown in June.")
        XCTAssertEqual(say(brain, "who is there"), "Someone, I suppose.")
    }

    func testOnEqualEvidenceTheSmallerSkillWins() {
        // The same line in a big chat collection and in a focused skill: the focused one
        // answers, wherever it loads and whatever its other patterns' lengths.
        let chat = (1...6).map { "chat line \($0)\nReply \($0).\n" }.joined(separator: "\n")
        let brain = Brain(
            texts: [
                ("a_chat", "do you like tea\nSometimes.\n\n" + chat),
                ("b_drinks", "do you like tea|tea time\nWith milk, please.\n"),
            ], pick: { _ in 0 })
        XCTAssertEqual(say(brain, "do you like tea"), "With milk, please.")
        XCTAssertEqual(brain.match("do you like tea")?.skill, "b_drinks")
        // More evidence still beats the smaller skill.
        let exact = Brain(
            texts: [("a_chat", "do you like green tea\nSometimes.\n\n" + chat), ("b_drinks", "do you like *\nMaybe.\n")],
            pick: { _ in 0 })
        XCTAssertEqual(say(exact, "do you like green tea"), "Sometimes.")
    }

    func testMissingValueFallsThroughToNextCandidate() throws {
        let brain = makeBrain(
            """
            where are you
            In the $room$.

            * are you *
            Nowhere in particular.
            """)
        XCTAssertEqual(say(brain, "where are you", context: BrainContext(room: "hall")), "In the hall.")
        XCTAssertEqual(
            say(brain, "where are you", context: BrainContext(room: "")), "Nowhere in particular.")
    }

    func testNoMatchGivesNoAnswers() throws {
        let brain = makeBrain("hello\nHi!\n")
        let reply = try brain.answer("goodbye", context: .examples)
        XCTAssertTrue(reply.answers.isEmpty)
        XCTAssertFalse(reply.hasAnswer)
    }
}
