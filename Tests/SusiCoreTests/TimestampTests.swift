import Foundation
import XCTest

@testable import SusiCore

#if canImport(Glibc)
    import Glibc
#endif

/// Timestamps written and read with the C library, against what Foundation's ISO 8601
/// formatter and calendar give for the same dates.
final class TimestampTests: XCTestCase {
    /// Dates across leap days, month and year ends, before 1970 and far ahead.
    private let dates: [Date] = [
        0, 951_782_400, 1_709_164_799, 1_735_689_599, 1_796_165_940, 1_796_205_714.75, -86_400 * 365.25 * 20,
        4_102_444_800,
    ].map { Date(timeIntervalSince1970: $0) }

    func testWritesWhatFoundationsISO8601FormatterWrites() {
        let formatter = ISO8601DateFormatter()
        for date in dates {
            XCTAssertEqual(Timestamp.iso8601(date), formatter.string(from: date))
        }
    }

    func testWritesMillisecondsAsFoundationsFormatStyleDoes() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for date in dates + [Date(timeIntervalSince1970: 1_796_204_514.007), Date(timeIntervalSince1970: 1_796_204_514.5)] {
            XCTAssertEqual(Timestamp.iso8601(date, milliseconds: true), date.formatted(style))
        }
    }

    func testReadsBackWhatItWritesToTheSecond() {
        for date in dates {
            XCTAssertEqual(
                Timestamp.date(iso8601: Timestamp.iso8601(date)),
                Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        }
    }

    func testReadsOffsetsAndFractionalSeconds() throws {
        let utc = try XCTUnwrap(Timestamp.date(iso8601: "2026-12-02T09:41:54Z"))
        XCTAssertEqual(utc.timeIntervalSince1970, 1_796_204_514)
        XCTAssertEqual(Timestamp.date(iso8601: "2026-12-02T10:41:54+01:00"), utc)
        XCTAssertEqual(Timestamp.date(iso8601: "2026-12-02T04:11:54-05:30"), utc)
        XCTAssertEqual(Timestamp.date(iso8601: "2026-12-02 09:41:54z"), utc)
        let fraction = try XCTUnwrap(Timestamp.date(iso8601: "2026-12-02T09:41:54.250Z"))
        XCTAssertEqual(fraction.timeIntervalSince1970, 1_796_204_514.25, accuracy: 1e-6)
    }

    func testRefusesWhatIsNotATimestamp() {
        for text in [
            "", "2026-12-02", "2026-12-02T09:41:54", "2026-12-02T09:41:54Z ", "2026-13-02T09:41:54Z",
            "2026-02-30T09:41:54Z", "2026-12-02T24:00:00Z", "2026-12-02T09:61:00Z", "2026-12-02T09:41:54+1:00",
            "2026-12-02T09:41:54.Z", "26-12-02T09:41:54Z", "2026-12-02T09:41:54Zjunk", "٢٠٢٦-12-02T09:41:54Z",
        ] {
            XCTAssertNil(Timestamp.date(iso8601: text), text)
        }
    }

    /// `dates` and a year of moments 11 hours apart, with every hour of the day.
    private var aYearOfMoments: [Date] {
        dates + stride(from: 0.0, to: 86_400 * 366, by: 3_600 * 11).map { Date(timeIntervalSince1970: 1_790_000_000 + $0) }
    }

    /// Checks `Timestamp.local` and `localDay` against `calendar` over a year of moments.
    private func assertLocalClock(is calendar: Calendar, line: UInt = #line) {
        for date in aYearOfMoments {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: date)
            XCTAssertEqual(
                Timestamp.local(date),
                Timestamp.LocalTime(
                    year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, weekday: parts.weekday ?? 0,
                    hour: parts.hour ?? 0, minute: parts.minute ?? 0, offset: calendar.timeZone.secondsFromGMT(for: date)),
                "\(date)", line: line)
            XCTAssertEqual(
                Timestamp.localDay(date), String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0),
                line: line)
        }
    }

    func testTheLocalClockIsTheCurrentCalendars() {
        assertLocalClock(is: Calendar.current)
    }

    /// On a machine in UTC (CI) the test above compares UTC with UTC; this one sets `TZ` to a
    /// zone with a half-hour offset and summer time, and compares with that zone's calendar.
    func testTheLocalClockFollowsTheZoneTheCLibraryIsGiven() throws {
        let zone = "America/St_Johns"
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: zone))
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        assertLocalClock(is: calendar)
    }
}
