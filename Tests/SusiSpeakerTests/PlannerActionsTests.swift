import Foundation
import SusiBrain
import SusiModel
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// Alarms, reminders and lists said to the built-in brain and carried out by the dispatcher,
/// with real state files, a fake player and a clock the test moves (Friday 2027-01-15 08:00 UTC).
final class PlannerActionsTests: XCTestCase {
    private var scratch: ScratchConfig!
    private let brain = Mutex<Brain?>(nil)

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
        let bundled = try Brain(directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        brain.withLock { $0 = bundled }
    }

    override func tearDown() {
        scratch.remove()
    }

    /// What the speaker says to `query`: the brain's answer, each action performed in order.
    private func say(_ query: String, to dispatcher: ActionDispatcher) throws -> String {
        let reply = try XCTUnwrap(try brain.withLock { try $0?.answer(query) })
        var words: [String] = []
        for action in reply.actions {
            if case .answer(let answer) = action, !answer.isPlanned {
                words.append(answer.expression)
                continue
            }
            let outcome = dispatcher.perform(action, from: .builtIn)
            XCTAssertNil(outcome.failure, query)
            if let say = outcome.say { words.append(say) }
        }
        return words.joined(separator: " ")
    }

    private func january(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Self.utc.date(from: DateComponents(year: 2027, month: 1, day: day, hour: hour, minute: minute)) ?? Date()
    }

    func testAlarmsAreSetListedCancelledAndKeptAcrossARestart() throws {
        let clock = ManualClock()
        let (dispatcher, _, planned) = try scratch.dispatcher(
            player: SpeakerPlayer { FakePlayer() }, clock: { clock.now }, calendar: Self.utc)
        XCTAssertEqual(
            try say("set an alarm for 7 am on weekdays", to: dispatcher), "Okay, an alarm for 7 AM on weekdays, starting Monday.")
        // Said without am or pm at 8 in the morning: this evening's comes first.
        XCTAssertEqual(try say("wake me up at 6:30", to: dispatcher), "Okay, an alarm for 6:30 PM today.")
        XCTAssertEqual(try say("set an alarm for 7:15 am", to: dispatcher), "Okay, an alarm for 7:15 AM tomorrow.")
        XCTAssertEqual(planned.pending(.alarm).map(\.due), [january(15, 18, 30), january(16, 7, 15), january(18, 7)])
        XCTAssertEqual(
            try say("what alarms are set", to: dispatcher), "3 alarms are set: 6:30 PM, 7:15 AM, 7 AM on weekdays.")
        XCTAssertEqual(try say("cancel my 6:30 alarm", to: dispatcher), "Okay, I cancelled your 6:30 PM alarm.")
        XCTAssertEqual(try say("cancel my 9 am alarm", to: dispatcher), "There is no alarm at 9 AM.")
        XCTAssertEqual(try say("cancel my alarm", to: dispatcher), "Okay, I cancelled your 7:15 AM alarm.")
        XCTAssertEqual(try say("set a timer for five minutes", to: dispatcher).prefix(25), "Okay, a timer for 5 minut")
        XCTAssertEqual(try say("cancel the timer", to: dispatcher), "Okay, I cancelled the timer.", "timers apart")

        let restarted = PlannedAnswers(path: scratch.directory + "/timers.json", clock: { clock.now }, calendar: { Self.utc })
        XCTAssertEqual(restarted.pending(.alarm).map(\.due), [january(18, 7)])
        XCTAssertEqual(restarted.pending(.alarm).first?.repeats, .weekdays)
        XCTAssertEqual(try say("cancel all alarms", to: dispatcher), "Okay, I cancelled your alarm.")
        XCTAssertEqual(try say("what alarms are set", to: dispatcher), "No alarms are set.")
    }

    func testStopAndSnoozeWhileAnAlarmRingsAndStopOtherwise() throws {
        let clock = ManualClock()
        let fake = FakePlayer()
        let player = SpeakerPlayer { fake }
        let (dispatcher, live, planned) = try scratch.dispatcher(player: player, clock: { clock.now }, calendar: Self.utc)
        XCTAssertEqual(try say("snooze", to: dispatcher), "No alarm is ringing.")
        XCTAssertEqual(try say("wake me up in ten minutes", to: dispatcher), "Okay, an alarm in 10 minutes.")
        clock.advance(600)
        XCTAssertEqual(try planned.takeDueAlarm()?.text, "Wake up! Your alarm is ringing.", "as the pipeline takes it")
        XCTAssertEqual(try say("snooze", to: dispatcher), "Okay, I'll ring again in 9 minutes.")
        XCTAssertNil(planned.ringing)

        try live.set("alarms.snooze_minutes", to: "5")
        clock.advance(9 * 60)
        XCTAssertNotNil(try planned.takeDueAlarm(), "the snoozed alarm rings again")
        XCTAssertEqual(try say("snooze", to: dispatcher), "Okay, I'll ring again in 5 minutes.", "alarms.snooze_minutes")
        clock.advance(5 * 60)
        XCTAssertNotNil(try planned.takeDueAlarm())
        _ = try dispatcher.perform(.audioPlay(MediaPlayAction(identifier: "song.ogg", identifierType: "url")), from: .builtIn)
        XCTAssertEqual(try say("stop", to: dispatcher), "Okay, the alarm is off.")
        XCTAssertFalse(fake.calls.contains("stop"), "stop is for the alarm, the music plays on: \(fake.calls)")
        XCTAssertEqual(planned.pending, [], "stopped, not snoozed")
        XCTAssertEqual(try say("stop", to: dispatcher), "")
        XCTAssertEqual(fake.calls.last, "stop", "with no alarm ringing, stop is the player's")
    }

    func testRemindersSayTheirTextAtTheirTime() throws {
        let clock = ManualClock()
        let (dispatcher, _, planned) = try scratch.dispatcher(
            player: SpeakerPlayer { FakePlayer() }, clock: { clock.now }, calendar: Self.utc)
        XCTAssertEqual(
            try say("remind me to call my mom in ten minutes", to: dispatcher),
            "Okay, I'll remind you to call your mom in 10 minutes.")
        XCTAssertEqual(
            try say("remind me at 5 pm to take out the bins", to: dispatcher),
            "Okay, I'll remind you to take out the bins at 5 PM today.")
        XCTAssertEqual(
            try say("what are my reminders", to: dispatcher),
            "2 reminders: call your mom in 10 minutes; take out the bins at 5 PM.")
        clock.advance(599)
        XCTAssertEqual(try planned.takeDue(), [])
        clock.advance(1)
        XCTAssertEqual(try planned.takeDue(), ["Reminder: call your mom."])
        XCTAssertEqual(try say("cancel my reminder", to: dispatcher), "Okay, I won't remind you to take out the bins.")
        XCTAssertEqual(try say("cancel my reminder", to: dispatcher), "You have no reminders.")
    }

    func testListsAreAddedToReadRemovedFromClearedAndKeptAcrossARestart() throws {
        let (dispatcher, _, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        XCTAssertEqual(try say("what's on my shopping list", to: dispatcher), "Your shopping list is empty.")
        XCTAssertEqual(
            try say("add milk to my shopping list", to: dispatcher), "Okay, I added milk to your shopping list.")
        XCTAssertEqual(
            try say("add eggs and butter to my shopping list", to: dispatcher),
            "Okay, I added eggs and butter to your shopping list.")
        XCTAssertEqual(try say("add milk to my shopping list", to: dispatcher), "Milk is already on it.")
        XCTAssertEqual(
            try say("put call the bank on my to do list", to: dispatcher), "Okay, I added call the bank to your to-do list.")
        XCTAssertEqual(
            try say("what's on my shopping list", to: dispatcher), "Your shopping list has 3 items: milk, eggs and butter.")
        XCTAssertEqual(
            try say("remove milk from my shopping list", to: dispatcher), "Okay, I removed milk from your shopping list.")
        XCTAssertEqual(try say("remove bread from my shopping list", to: dispatcher), "Bread is not on your shopping list.")

        // The speaker restarts: a new dispatcher over the same files.
        let (again, _, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        XCTAssertEqual(try say("what's on my shopping list", to: again), "Your shopping list has 2 items: eggs and butter.")
        XCTAssertEqual(try say("what's on my list", to: again), "You have 2 lists: shopping and to-do. Which one?")
        XCTAssertEqual(try say("clear my shopping list", to: again), "Okay, I cleared your shopping list.")
        XCTAssertEqual(try say("clear my shopping list", to: again), "Your shopping list is already empty.")
        XCTAssertEqual(try say("what's on my list", to: again), "Your to-do list has one item: call the bank.")
    }
}
