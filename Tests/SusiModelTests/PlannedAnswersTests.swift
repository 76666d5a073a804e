import Foundation
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel

final class PlannedAnswersTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-planned-\(UUID().uuidString)"
    private var path: String { directory + "/timers.json" }

    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testAnswersComeDueInOrderAndOnlyOnce() throws {
        let clock = ManualClock()
        let book = PlannedAnswers(path: path) { clock.now }
        try book.add("pasta is ready", inMilliseconds: 120_000)
        try book.add("tea is ready", inMilliseconds: 30_000)
        XCTAssertEqual(try book.takeDue(), [])
        XCTAssertEqual(book.describe(), "2 timers are running: due in 30 seconds, due in 2 minutes.")
        clock.advance(31)
        XCTAssertEqual(try book.takeDue(), ["tea is ready"])
        XCTAssertEqual(try book.takeDue(), [], "said once")
        XCTAssertEqual(book.describe(), "One timer is running, due in 1 minute and 29 seconds.")
        clock.advance(100)
        XCTAssertEqual(try book.takeDue(), ["pasta is ready"])
        XCTAssertEqual(book.describe(), "No timers are running.")
    }

    func testCancelRemovesTheSoonest() throws {
        let clock = ManualClock()
        let book = PlannedAnswers(path: path) { clock.now }
        XCTAssertNil(try book.cancelNext())
        try book.add("later", inMilliseconds: 600_000)
        try book.add("sooner", inMilliseconds: 60_000)
        XCTAssertEqual(try book.cancelNext()?.text, "sooner")
        XCTAssertEqual(book.pending.map(\.text), ["later"])
    }

    func testCancelByIdRemovesThatEntryOnly() throws {
        let clock = ManualClock()
        let book = PlannedAnswers(path: path) { clock.now }
        try book.add("tea", inMilliseconds: 60_000)
        try book.add("pasta", inMilliseconds: 120_000)
        let pasta = try XCTUnwrap(book.pending.last)
        XCTAssertNotEqual(book.pending.first?.id, pasta.id)
        XCTAssertEqual(try book.cancel(id: pasta.id)?.text, "pasta")
        XCTAssertNil(try book.cancel(id: pasta.id), "gone")
        XCTAssertEqual(book.pending.map(\.text), ["tea"])
        XCTAssertEqual(PlannedAnswers(path: path) { clock.now }.pending.map(\.text), ["tea"], "saved")
    }

    func testARestartLosesNothingAndMissedOnesAreAnnouncedLateOnce() throws {
        let clock = ManualClock()
        let first = PlannedAnswers(path: path) { clock.now }
        try first.add("the oven timer is done", inMilliseconds: 60_000)
        try first.add("call mum", inMilliseconds: 3_600_000)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        // The speaker is off for ten minutes.
        clock.advance(600)
        let second = PlannedAnswers(path: path) { clock.now }
        XCTAssertEqual(second.pending.map(\.text), ["call mum"])
        XCTAssertEqual(try second.takeDue(), ["While I was off, this came due: the oven timer is done"])
        XCTAssertEqual(try second.takeDue(), [])
        let third = PlannedAnswers(path: path) { clock.now }
        XCTAssertEqual(try third.takeDue(), [], "announced once, also across restarts")
        XCTAssertEqual(third.pending.map(\.text), ["call mum"])
    }

    func testUnwritableStateIsATypedErrorAndChangesNothing() {
        let book = PlannedAnswers(path: "/proc/susi-no/timers.json")
        XCTAssertThrowsError(try book.add("x", inMilliseconds: 1000)) { error in
            XCTAssertEqual((error as? ConfigError)?.kind, .unwritable)
        }
        XCTAssertEqual(book.pending, [])
    }

    /// Gregorian in UTC, so the clock times of the tests are those of the manual clock.
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }()

    /// The manual clock's time (Friday 2027-01-15 08:00 UTC) moved to `day` of January at `hour`.
    private func january(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Self.utc.date(from: DateComponents(year: 2027, month: 1, day: day, hour: hour, minute: minute)) ?? Date()
    }

    func testAWeekdayAlarmRingsMondayToFridayAndComesBackEachTime() throws {
        let clock = ManualClock()
        let book = PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc })
        // Friday 8:00: the next weekday 7:00 is Monday's.
        let alarm = try XCTUnwrap(
            try book.add(
                "Wake up!", atNext: DateComponents(hour: 7, minute: 0, second: 0), in: Self.utc, kind: .alarm,
                repeats: .weekdays))
        XCTAssertEqual(alarm.due, january(18, 7))
        XCTAssertEqual(alarm.kind, .alarm)
        XCTAssertEqual(book.describe(.alarm), "One alarm is set, for 7 AM on weekdays.")
        XCTAssertEqual(book.describe(), "No timers are running.", "an alarm is no timer")
        XCTAssertNil(try book.takeDueAlarm())

        clock.advance(january(18, 7).timeIntervalSince(clock.now) + 1)
        XCTAssertEqual(try book.takeDue(), [], "alarms ring, they are not said with the timers")
        XCTAssertEqual(try book.takeDueAlarm()?.text, "Wake up!")
        XCTAssertEqual(book.ringing?.text, "Wake up!")
        XCTAssertNil(try book.takeDueAlarm(), "rung once")
        XCTAssertEqual(book.pending(.alarm).map(\.due), [january(19, 7)], "Tuesday's is planned at once")
        XCTAssertEqual(
            PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc }).pending(.alarm).map(\.due),
            [january(19, 7)], "and saved")

        // Friday's alarm comes back on Monday.
        clock.advance(january(22, 7).timeIntervalSince(clock.now) + 1)
        XCTAssertNotNil(try book.takeDueAlarm())
        XCTAssertEqual(book.pending(.alarm).map(\.due), [january(25, 7)])
    }

    func testSnoozeRingsTheAlarmAgainAndStopEndsIt() throws {
        let clock = ManualClock()
        let book = PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc })
        XCTAssertNil(try book.snooze(minutes: 9), "nothing rings")
        try book.add(
            "Wake up! This is your 9 AM alarm.", atNext: DateComponents(hour: 9, minute: 0, second: 0), in: Self.utc,
            kind: .alarm)
        clock.advance(3601)
        XCTAssertNotNil(try book.takeDueAlarm())
        let snoozed = try XCTUnwrap(try book.snooze(minutes: 9))
        XCTAssertNil(book.ringing, "snoozing ends the ringing")
        XCTAssertEqual(snoozed.due, clock.now.addingTimeInterval(540))
        XCTAssertEqual(snoozed.kind, .alarm)
        clock.advance(539)
        XCTAssertNil(try book.takeDueAlarm())
        clock.advance(2)
        XCTAssertEqual(try book.takeDueAlarm()?.text, "Wake up! This is your 9 AM alarm.")
        XCTAssertNotNil(book.stopRinging())
        XCTAssertNil(book.ringing)
        XCTAssertEqual(book.pending, [], "a stopped alarm that does not repeat is gone")
    }

    func testKindsAreListedAndCancelledApartAndTimersFilesOfOldKeepWorking() throws {
        let clock = ManualClock()
        // A file written before alarms existed: no kind, so timers.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(#"[{"created":"2027-01-15T08:00:00Z","due":"2027-01-15T08:05:00Z","text":"tea"}]"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let book = PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc })
        XCTAssertEqual(book.pending.map(\.kind), [.timer])
        try book.add("Reminder: call your mom.", inMilliseconds: 600_000, kind: .reminder)
        try book.add("Wake up!", atNext: DateComponents(hour: 7, minute: 30), in: Self.utc, kind: .alarm)
        XCTAssertEqual(book.describe(.reminder), "One reminder: call your mom in 10 minutes.")
        XCTAssertEqual(book.describe(.alarm), "One alarm is set, for 7:30 AM.")
        XCTAssertEqual(try book.cancelNext(.reminder)?.text, "Reminder: call your mom.")
        XCTAssertEqual(book.pending.map(\.kind), [.timer, .alarm], "only the reminder went")
        XCTAssertEqual(try book.cancelAll(.alarm).count, 1)
        XCTAssertEqual(try book.cancelNext()?.text, "tea", "the plain cancel is the timers'")
        XCTAssertEqual(PlannedAnswers(path: path) { clock.now }.pending, [])
    }

    func testARepeatingAlarmMissedWhileOffIsAnnouncedAndPlannedAgain() throws {
        let clock = ManualClock()
        let first = PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc })
        try first.add(
            "Wake up!", atNext: DateComponents(hour: 7, minute: 0), in: Self.utc, kind: .alarm, repeats: .weekdays)
        // Off from Friday until Tuesday noon.
        clock.advance(january(19, 12).timeIntervalSince(clock.now))
        let second = PlannedAnswers(path: path, clock: { clock.now }, calendar: { Self.utc })
        XCTAssertEqual(try second.takeDue(), ["While I was off, this came due: Wake up!"])
        XCTAssertNil(try second.takeDueAlarm(), "a missed alarm does not ring late")
        XCTAssertEqual(second.pending(.alarm).map(\.due), [january(20, 7)])
        XCTAssertEqual(second.pending(.alarm).first?.repeats, .weekdays)
    }

    func testSpokenClockTimes() {
        XCTAssertEqual(PlannedAnswers.spoken(hour: 7, minute: 0), "7 AM")
        XCTAssertEqual(PlannedAnswers.spoken(hour: 18, minute: 5), "6:05 PM")
        XCTAssertEqual(PlannedAnswers.spoken(hour: 0, minute: 15), "12:15 AM")
        XCTAssertEqual(PlannedAnswers.spoken(hour: 12, minute: 0), "12 PM")
    }
}
