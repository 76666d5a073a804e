/// Digits as the words people say, so that a skill written with "90 seconds" teaches the
/// language model "ninety seconds".
enum SpokenNumbers {
    private static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
        "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// `value` in words: 105 is "one hundred and five"; numbers of a million and more are
    /// read digit by digit, as nobody says them to a speaker.
    static func words(_ value: Int) -> [String] {
        guard value >= 0 else { return ["minus"] + words(-value) }
        if value < 20 { return [ones[value]] }
        if value < 100 {
            return value % 10 == 0 ? [tens[value / 10]] : [tens[value / 10], ones[value % 10]]
        }
        if value < 1000 {
            let rest = value % 100
            return [ones[value / 100], "hundred"] + (rest == 0 ? [] : ["and"] + words(rest))
        }
        if value < 1_000_000 {
            let rest = value % 1000
            let tail: [String] = rest == 0 ? [] : (rest < 100 ? ["and"] : []) + words(rest)
            return words(value / 1000) + ["thousand"] + tail
        }
        return String(value).compactMap { $0.wholeNumberValue }.map { ones[$0] }
    }

    /// A run of digits, possibly with one decimal point ("1.5" is "one point five").
    static func words(digits text: String) -> [String] {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard let whole = parts.first.flatMap({ Int($0) }) else { return [] }
        var result = words(whole)
        if parts.count == 2 {
            result.append("point")
            result += parts[1].compactMap { $0.wholeNumberValue }.map { ones[$0] }
        }
        return result
    }
}
