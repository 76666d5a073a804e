/// Reads a clock time said for an alarm or a reminder: "7 am", "6:30", "six thirty pm",
/// "half past six", "quarter to eight in the morning", "noon", "17:45", "7 o'clock", and
/// whether it repeats on weekdays ("on weekdays", "every weekday", "monday to friday").
enum ClockTimeParser {
    /// A clock time as said.
    struct ClockTime: Equatable {
        /// 0-23.
        var hour: Int
        /// 0-59.
        var minute: Int
        /// Said without "am" or "pm" (or a part of the day) and at most 12: the hour may be
        /// meant in the morning or in the evening, whichever comes first.
        var eitherHalf: Bool
        /// Said with "weekdays", "every weekday", "monday to friday".
        var weekdays: Bool
    }

    private static let small: [String: Int] = [
        "zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    private static let tens: [String: Int] = ["twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50]
    private static let morning: Set<String> = ["am", "morning"]
    private static let evening: Set<String> = ["pm", "evening", "afternoon", "tonight", "night"]

    /// The clock time in `text`, or nil when it names none (or an impossible one: "25:00").
    static func read(_ text: String) -> ClockTime? {
        let words = split(QueryNormalizer.words(text))
        let weekdays =
            words.contains { ["weekday", "weekdays", "workday", "workdays", "weekdays"].contains($0) }
            || (words.contains("monday") && words.contains("friday"))
        let isMorning = words.contains { morning.contains($0) }
        let isEvening = words.contains { evening.contains($0) } && !isMorning
        if words.contains("noon") || words.contains("midday") {
            return ClockTime(hour: 12, minute: 0, eitherHalf: false, weekdays: weekdays)
        }
        if words.contains("midnight") { return ClockTime(hour: 0, minute: 0, eitherHalf: false, weekdays: weekdays) }
        guard let (said, minute, fourDigits) = time(in: words) else { return nil }
        var hour = said
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        if hour > 12 || hour == 0 || fourDigits {
            return ClockTime(hour: hour, minute: minute, eitherHalf: false, weekdays: weekdays)
        }
        if isEvening, hour < 12 { hour += 12 }
        if isMorning, hour == 12 { hour = 0 }
        return ClockTime(hour: hour, minute: minute, eitherHalf: !isMorning && !isEvening, weekdays: weekdays)
    }

    /// "7am" and "730pm" as "7 am" and "730 pm"; "a m" as "am".
    private static func split(_ words: [String]) -> [String] {
        var result: [String] = []
        for word in words {
            if let last = result.last, (last == "a" && word == "m") || (last == "p" && word == "m") {
                result[result.count - 1] = last + "m"
                continue
            }
            for suffix in ["am", "pm"] where word.count > 2 && word.hasSuffix(suffix) && word.first?.isNumber == true {
                result += [String(word.dropLast(2)), suffix]
            }
            if word.count > 2, word.first?.isNumber == true, word.hasSuffix("am") || word.hasSuffix("pm") { continue }
            result.append(word)
        }
        return result
    }

    /// Words after an hour that no minute is: "six seventy" is no time.
    private static let pastMinutes: Set<String> = ["sixty", "seventy", "eighty", "ninety"]

    /// The first hour and minute in `words`: "half past six", "quarter to eight", "ten past
    /// seven", "6 30", "six thirty", "six oh five", "0730" (`fourDigits`: a 24-hour time),
    /// "seven o'clock", "seven". Nil when the first number can be no clock time ("25 00").
    private static func time(in words: [String]) -> (hour: Int, minute: Int, fourDigits: Bool)? {
        var index = 0
        while index < words.count {
            let word = words[index]
            // "half past six", "quarter to eight", "ten past seven", "twenty five to nine"
            var fraction: (minutes: Int, consumed: Int)?
            if word == "half" {
                fraction = (30, 1)
            } else if word == "quarter" {
                fraction = (15, 1)
            } else if let number = number(words, at: index), number.value < 60 {
                var consumed = number.consumed
                if index + consumed < words.count, ["minute", "minutes"].contains(words[index + consumed]) { consumed += 1 }
                if index + consumed < words.count, ["past", "after", "to", "before"].contains(words[index + consumed]) {
                    fraction = (number.value, consumed)
                }
            }
            if let fraction, index + fraction.consumed < words.count {
                let relation = words[index + fraction.consumed]
                if ["past", "after", "to", "before"].contains(relation),
                    let hour = number(words, at: index + fraction.consumed + 1), hour.value <= 23
                {
                    if relation == "past" || relation == "after" { return (hour.value, fraction.minutes, false) }
                    return ((hour.value + 23) % 24, 60 - fraction.minutes, false)
                }
            }
            if let digits = Int(word), word.count >= 3, word.count <= 4 {
                // "0730", "730"
                return (digits / 100, digits % 100, word.count == 4)
            }
            if let digits = Int(word), digits > 23 { return nil }
            if let hour = number(words, at: index, hour: true) {
                let next = index + hour.consumed
                if next < words.count, words[next] == "oclock" || words[next] == "hundred" { return (hour.value, 0, false) }
                if next < words.count, pastMinutes.contains(words[next]) || (Int(words[next]).map { $0 >= 60 } ?? false) {
                    return nil
                }
                if let minute = number(words, at: next), minute.value < 60 {
                    // "six oh five"
                    return (hour.value, minute.value, false)
                }
                return (hour.value, 0, false)
            }
            index += 1
        }
        return nil
    }

    /// A number of 0-59 at `index`: digits, or one or two words ("forty five", "oh five");
    /// with `hour`, only one that can be an hour (0-23, one word or digits).
    private static func number(_ words: [String], at index: Int, hour: Bool = false) -> (value: Int, consumed: Int)? {
        guard index < words.count else { return nil }
        let word = words[index]
        if let digits = Int(word), word.count <= 2 {
            return hour && digits > 23 ? nil : (digits, 1)
        }
        if word == "oh", !hour, index + 1 < words.count, let unit = small[words[index + 1]], unit < 10 {
            return (unit, 2)
        }
        if let value = small[word], word != "oh" { return (value, 1) }
        if let ten = tens[word] {
            if hour { return ten == 20 ? twentySomething(words, at: index) : nil }
            if index + 1 < words.count, let unit = small[words[index + 1]], (1...9).contains(unit) {
                return (ten + unit, 2)
            }
            return (ten, 1)
        }
        return nil
    }

    /// "twenty", "twenty one" .. "twenty three" as hours.
    private static func twentySomething(_ words: [String], at index: Int) -> (value: Int, consumed: Int)? {
        if index + 1 < words.count, let unit = small[words[index + 1]], (1...3).contains(unit) { return (20 + unit, 2) }
        return (20, 1)
    }
}
