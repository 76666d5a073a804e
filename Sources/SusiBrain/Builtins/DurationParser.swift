/// Reads spoken durations: "two minutes", "90 seconds", "an hour and a half",
/// "one and a half hours", "half an hour", "a quarter of an hour", "1 hour 20 minutes".
enum DurationParser {
    private static let units: [String: Double] = [
        "second": 1, "seconds": 1, "sec": 1, "secs": 1,
        "minute": 60, "minutes": 60, "min": 60, "mins": 60,
        "hour": 3600, "hours": 3600, "hr": 3600, "hrs": 3600,
        "day": 86400, "days": 86400,
    ]

    /// The longest timer accepted: a week.
    static let maxSeconds = 7.0 * 86400

    /// The duration in seconds, or `nil` when the text names none (or a zero or over-long one).
    static func seconds(in text: String) -> Double? {
        let words = QueryNormalizer.words(text)
        var index = 0
        var total = 0.0
        var lastUnit: Double?
        var found = false
        while index < words.count {
            let word = words[index]
            let next = index + 1 < words.count ? words[index + 1] : ""
            // "half an hour", "half a minute", "half hour"
            if word == "half" || word == "quarter" {
                let fraction = word == "half" ? 0.5 : 0.25
                var cursor = index + 1
                if cursor < words.count, words[cursor] == "of" { cursor += 1 }
                if cursor < words.count, words[cursor] == "a" || words[cursor] == "an" { cursor += 1 }
                if cursor < words.count, let unit = units[words[cursor]] {
                    total += fraction * unit
                    lastUnit = unit
                    found = true
                    index = cursor + 1
                } else if let lastUnit {
                    // "an hour and a half"
                    total += fraction * lastUnit
                    index += 1
                } else {
                    return nil
                }
                continue
            }
            if word == "a" || word == "an", let unit = units[next] {
                total += unit
                lastUnit = unit
                found = true
                index += 2
                continue
            }
            if NumberWords.startsNumber(word), word != "a", word != "an",
                let number = NumberWords.parse(words[index...])
            {
                var amount = number.value
                var cursor = index + number.consumed
                // "one and a half hours"
                if cursor + 2 < words.count, words[cursor] == "and", words[cursor + 1] == "a",
                    words[cursor + 2] == "half"
                {
                    amount += 0.5
                    cursor += 3
                }
                guard cursor < words.count, let unit = units[words[cursor]] else {
                    // A number that is not a duration ("for 3 eggs") is not ours to read.
                    index = cursor
                    continue
                }
                total += amount * unit
                lastUnit = unit
                found = true
                index = cursor + 1
                continue
            }
            // Anything else ("for", "and", "a", "please", "timer") is filler.
            index += 1
        }
        guard found, total >= 1, total <= maxSeconds else { return nil }
        return total
    }

    /// Seconds as people say them: "2 minutes", "1 hour and 30 minutes", "1 minute and 5 seconds".
    static func spoken(seconds: Double) -> String {
        var rest = Int(seconds.rounded())
        let days = rest / 86400
        rest %= 86400
        let hours = rest / 3600
        rest %= 3600
        let minutes = rest / 60
        let secs = rest % 60
        var parts: [String] = []
        for (count, name) in [(days, "day"), (hours, "hour"), (minutes, "minute"), (secs, "second")]
        where count > 0 {
            parts.append("\(count) \(name)\(count == 1 ? "" : "s")")
        }
        guard let last = parts.popLast() else { return "0 seconds" }
        return parts.isEmpty ? last : parts.joined(separator: ", ") + " and " + last
    }
}
