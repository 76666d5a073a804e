import XCTest

@testable import SusiPipeline

/// The wake phrase as a transcriber writes it, and a command heard whole without it.
final class WakeNamesTests: XCTestCase {
    func testTheNameInAnySpellingIsTakenOffTheCommand() {
        XCTAssertEqual(WakeNames.withoutName("Susi, what time is it?", phrase: "susi"), "what time is it?")
        XCTAssertEqual(WakeNames.withoutName("Suzy what time is it", phrase: "susi"), "what time is it")
        XCTAssertEqual(WakeNames.withoutName("Hey Susie. Play some jazz.", phrase: "susi"), "Play some jazz.")
        XCTAssertEqual(WakeNames.withoutName("So see, stop.", phrase: "susi"), "stop.")
        XCTAssertEqual(WakeNames.withoutName("Hey computer, stop", phrase: "hey computer"), "stop")
        XCTAssertEqual(WakeNames.withoutName("Susi.", phrase: "susi"), "", "the name alone is no command")
    }

    func testAWordThatOnlyBeginsLikeTheNameStays() {
        XCTAssertEqual(WakeNames.withoutName("Sushi recipes please", phrase: "hey computer"), "Sushi recipes please")
        XCTAssertEqual(WakeNames.withoutName("Suspend the timer", phrase: "susi"), "Suspend the timer")
        XCTAssertEqual(WakeNames.withoutName("what time is it", phrase: "susi"), "what time is it")
    }

    /// Issue 49's name check: the name must start within the first few words heard.
    func testTheNameIsFoundOnlyNearTheStart() {
        XCTAssertEqual(WakeNames.after("susi", in: "Susi, play jazz", startingWithin: 3), "play jazz")
        XCTAssertEqual(WakeNames.after("susi", in: "ten. Okay, Suzy stop", startingWithin: 3), "stop")
        XCTAssertEqual(WakeNames.after("susi", in: "hey so see what time", startingWithin: 1), "what time")
        XCTAssertEqual(WakeNames.after("susi", in: "Susi.", startingWithin: 3), "")
        XCTAssertNil(WakeNames.after("susi", in: "so she said that Susi was here", startingWithin: 3), "too late")
        XCTAssertNil(WakeNames.after("susi", in: "Suspend the timer", startingWithin: 3))
        XCTAssertNil(WakeNames.after("susi", in: "", startingWithin: 3))
    }
}
