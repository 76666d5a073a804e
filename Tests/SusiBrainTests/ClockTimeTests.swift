import Foundation
import XCTest

@testable import SusiBrain

/// Clock times said for alarms and reminders, read by `clock_time` and the bundled skills.
final class ClockTimeTests: XCTestCase {
    func testClockTimesAsSaid() {
        let cases: [(String, Int, Int, Bool)] = [
            ("7 am", 7, 0, false), ("7am", 7, 0, false), ("seven a.m.", 7, 0, false), ("6:30", 6, 30, true),
            ("6:30 pm", 18, 30, false), ("six thirty", 6, 30, true), ("six oh five in the evening", 18, 5, false),
            ("half past six", 6, 30, true), ("quarter to eight", 7, 45, true), ("ten past seven pm", 19, 10, false),
            ("twenty five to nine in the morning", 8, 35, false), ("17:45", 17, 45, false), ("0730", 7, 30, false),
            ("seven o'clock", 7, 0, true), ("noon", 12, 0, false), ("midnight", 0, 0, false), ("12 am", 0, 0, false),
            ("12 pm", 12, 0, false), ("twenty one thirty", 21, 30, false), ("5 p.m.", 17, 0, false),
        ]
        for (text, hour, minute, either) in cases {
            let time = ClockTimeParser.read(text)
            XCTAssertEqual(time?.hour, hour, text)
            XCTAssertEqual(time?.minute, minute, text)
            XCTAssertEqual(time?.eitherHalf, either, text)
            XCTAssertEqual(time?.weekdays, false, text)
        }
        for text in ["on weekdays at 7", "7 am every weekday", "seven monday to friday"] {
            XCTAssertEqual(ClockTimeParser.read(text)?.weekdays, true, text)
        }
        for text in ["", "the pasta", "25:00", "six seventy", "sometime"] {
            XCTAssertNil(ClockTimeParser.read(text), text)
        }
    }

    /// The skills read the whole command: the time, the repetition, and durations apart.
    func testTheSkillsSetAlarmsRemindersAndListsFromTheCommand() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        func action(_ query: String) throws -> [String: String] {
            let reply = try brain.answer(query)
            guard let action = reply.actions.first, case .planner = action else {
                XCTFail("\(query): \(ExampleResult.describe(reply))")
                return [:]
            }
            return action.object.compactMapValues { $0.stringValue }
        }
        XCTAssertEqual(
            try action("set an alarm for 7 am on weekdays"),
            ["type": "alarm_set", "hour": "7", "minute": "0", "repeat": "weekdays", "either": "false"])
        XCTAssertEqual(try action("wake me up at 6:30")["minute"], "30")
        XCTAssertEqual(try action("wake me up in ten minutes"), ["type": "alarm_set", "delay": "600000"])
        XCTAssertEqual(
            try action("remind me to call mom in ten minutes"),
            ["type": "reminder_set", "text": "call mom", "delay": "600000"])
        XCTAssertEqual(
            try action("remind me at 5 pm to take out the bins"),
            ["type": "reminder_set", "text": "take out the bins", "hour": "17", "minute": "0", "either": "false"])
        // "at the oven" is no clock time: the duration after it is read instead.
        XCTAssertEqual(try action("remind me to look at the oven in 10 minutes")["delay"], "600000")
        XCTAssertEqual(
            try action("add milk to my shopping list"), ["type": "list_add", "item": "milk", "list": "shopping"])
        XCTAssertEqual(try action("what's on my shopping list"), ["type": "list_read", "list": "shopping"])
        XCTAssertEqual(
            try action("remove milk from my shopping list"), ["type": "list_remove", "item": "milk", "list": "shopping"])
        XCTAssertEqual(try action("clear my shopping list"), ["type": "list_clear", "list": "shopping"])
        XCTAssertEqual(try action("snooze"), ["type": "alarm_snooze"])
        // The timers' own phrasings stay theirs.
        XCTAssertEqual(try brain.answer("set a timer for five minutes").skill, "timer")
        XCTAssertEqual(try brain.answer("add 5 to 7").skill, "arithmetic")
    }

    /// In hybrid mode they are answered on the speaker (`::routing local`): the server keeps
    /// no alarms or lists of this speaker.
    func testHybridModeAnswersThemOnTheSpeaker() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let policy = HybridRoutingPolicy(skills: brain.skills)
        for query in [
            "set an alarm for 7 am", "snooze", "what alarms are set", "remind me to call mom in ten minutes",
            "what are my reminders", "add milk to my shopping list", "what's on my shopping list", "clear my shopping list",
        ] {
            XCTAssertTrue(policy.answersLocally(try brain.answer(query)), query)
        }
        XCTAssertFalse(policy.answersLocally(try brain.answer("tell me a joke")), "the rest still goes to the server")
    }
}
