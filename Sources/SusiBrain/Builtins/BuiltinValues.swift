import Foundation
import SusiCore
import SusiModel

/// Values every answer template can use without a console block.
///
/// | name | example |
/// |---|---|
/// | `time` | 3:05 PM |
/// | `time24` | 15:05 |
/// | `date` | Tuesday, March 4, 2025 |
/// | `weekday`, `month`, `day`, `day_ordinal`, `year` | Tuesday, March, 4, 4th, 2025 |
/// | `room` | kitchen (empty when unset, so the answer falls through) |
/// | `voice`, `voice_name` | en-gb, British |
/// | `voices` | American, British, ... and Lancastrian |
/// | `rate`, `volume` | 175, 50 |
/// | `last`, `last_skill` | the previous answer and its skill (empty when none) |
/// | `timezone` | Europe/Berlin |
enum BuiltinValues {
    static let weekdays = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October",
        "November", "December",
    ]

    /// The value of a built-in name, or `nil` when the name is not built in or has no value.
    static func value(_ name: String, context: BrainContext, now: Date) -> String? {
        switch name {
        case "room": return context.room
        case "voice": return context.voice
        case "voice_name": return AccentCatalog.name(of: context.voice)
        case "voices": return AccentCatalog.spokenList
        case "rate": return String(context.rate)
        case "volume": return String(context.volume)
        case "last": return context.lastAnswer
        case "last_skill": return context.lastSkill
        case "timezone": return (context.timeZone ?? .current).identifier
        default: return clockValue(name, context: context, now: now)
        }
    }

    private static func clockValue(_ name: String, context: BrainContext, now: Date) -> String? {
        let clock = wallClock(at: now, in: context.timeZone)
        guard months.indices.contains(clock.month - 1), weekdays.indices.contains(clock.weekday - 1) else { return nil }
        let (year, day, hour) = (clock.year, clock.day, clock.hour)
        let monthName = months[clock.month - 1]
        let weekdayName = weekdays[clock.weekday - 1]
        let twoDigitMinute = clock.minute < 10 ? "0\(clock.minute)" : "\(clock.minute)"
        switch name {
        case "time":
            let hour12 = hour % 12 == 0 ? 12 : hour % 12
            return "\(hour12):\(twoDigitMinute) \(hour < 12 ? "AM" : "PM")"
        case "time24": return "\(hour):\(twoDigitMinute)"
        case "date": return "\(weekdayName), \(monthName) \(day), \(year)"
        case "weekday": return weekdayName
        case "month": return monthName
        case "day": return String(day)
        case "day_ordinal": return ordinal(day)
        case "year": return String(year)
        default: return nil
        }
    }

    /// `now` on the wall clock of `zone`, or of the speaker's own zone when nil.
    private static func wallClock(at now: Date, in zone: TimeZone?) -> Timestamp.LocalTime {
        guard let zone else { return Timestamp.local(now) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute], from: now)
        return Timestamp.LocalTime(
            year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, weekday: parts.weekday ?? 0,
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, offset: zone.secondsFromGMT(for: now))
    }

    static func ordinal(_ number: Int) -> String {
        let suffix: String
        switch (number % 10, number % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return "\(number)\(suffix)"
    }
}
