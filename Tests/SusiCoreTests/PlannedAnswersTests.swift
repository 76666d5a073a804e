import Foundation
import Synchronization
import XCTest

@testable import SusiCore

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
}
