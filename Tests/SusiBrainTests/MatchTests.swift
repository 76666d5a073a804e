import Foundation
import XCTest

@testable import SusiBrain

/// `Brain.match`: the endpointer's cheap question "does a skill understand these words?".
final class MatchTests: XCTestCase {
    func testMatchFindsTheIntentAnswerAnswersWithForEveryBundledExample() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: InMemoryFetcher([:]))
        var checked = 0
        for skill in brain.skills {
            for intent in skill.intents {
                for example in intent.examples {
                    let reply = try brain.answer(example.query, context: .examples)
                    let answered = reply.answers.first.flatMap { answer in
                        answer.skills.first.map { ($0, answer.metadata.extra["line"]?.intValue ?? 0) }
                    }
                    let match = brain.match(example.query, context: .examples)
                    XCTAssertEqual(match?.skill, answered?.0, example.query)
                    XCTAssertEqual(match?.line, answered?.1, example.query)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    func testMatchCountsTheWordsWildcardsTookThatNoFunctionChecked() throws {
        let brain = Brain(
            texts: [
                ("loose", "play *\nPlaying $1$.\n\nwhat time is it\nIt is late.\n"),
                ("sums", "* plus *\n!console:$result$\n{\"function\":\"calculate\",\"argument\":\"$0$\"}\neol\n"),
            ], fetcher: InMemoryFetcher([:]))
        XCTAssertEqual(brain.match("play the rolling stones")?.uncheckedWords, 3)
        XCTAssertEqual(brain.match("what time is it")?.uncheckedWords, 0)
        XCTAssertEqual(brain.match("what is five plus three")?.skill, "sums")
        XCTAssertEqual(brain.match("what is five plus three")?.uncheckedWords, 0, "the function checked the numbers")
    }

    func testMatchNeverFetches() throws {
        let fetcher = InMemoryFetcher(["https://example.org/joke.json": #"{"joke": "A pun."}"#])
        let brain = Brain(
            texts: [
                (
                    "jokes",
                    """
                    tell me a joke
                    !console:$joke$
                    {"url": "https://example.org/joke.json", "path": "$"}
                    eol
                    """
                ),
                ("fallback", "*\nI do not know that."),
            ], fetcher: fetcher)
        XCTAssertEqual(brain.match("tell me a joke")?.skill, "jokes")
        XCTAssertEqual(fetcher.requested, [], "matching fetched nothing")
        XCTAssertEqual(try brain.answer("tell me a joke").skill, "jokes")
        XCTAssertEqual(fetcher.requested, ["https://example.org/joke.json"], "answering does")
        XCTAssertEqual(brain.match("sing a song")?.skill, "fallback")
        XCTAssertNil(brain.match("   "), "a query that cannot be asked matches nothing")
    }

    func testAConsoleFunctionThatRejectsTheWordsPassesToTheNextIntentAsInAnswers() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: InMemoryFetcher([:]))
        // "over" is an arithmetic pattern, but "game over" is no sum: the calculator says no.
        let match = try XCTUnwrap(brain.match("the game is over"))
        XCTAssertNotEqual(match.skill, "arithmetic")
        XCTAssertEqual(match.skill, try brain.answer("the game is over").skill)
        XCTAssertEqual(brain.match("what is seven times eight")?.skill, "arithmetic")
    }

    func testALocalBrainCallsOnlyWholeNonCatchAllMatchesComplete() throws {
        let local = LocalChatBrain(brain: try Brain(directory: bundledSkillsDirectory, fetcher: InMemoryFetcher([:])))
        XCTAssertTrue(local.isCompleteCommand("what time is it"))
        XCTAssertFalse(local.isCompleteCommand("blue sky sandwich"), "only the catch-all matches")
        XCTAssertFalse(local.isCompleteCommand(""))
    }
}
