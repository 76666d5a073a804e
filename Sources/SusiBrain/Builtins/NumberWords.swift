/// Reads numbers said in words or written in digits: "twenty two", "one hundred and five",
/// "a thousand", "two point five", "minus three", "22", "2.5".
public enum NumberWords {
    private static let units: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9,
    ]
    private static let teens: [String: Int] = [
        "zero": 0, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    private static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90,
    ]
    private static let scales: [String: Double] = ["thousand": 1e3, "million": 1e6, "billion": 1e9]
    private static let digitWords: [String: Int] = units.merging(["zero": 0, "oh": 0]) { first, _ in
        first
    }

    private enum Last {
        case none, unit, teen, ten, hundred, scale, digits, article, conjunction
    }

    /// The value of `text` when all of it is one number, else `nil`.
    public static func value(of text: String) -> Double? {
        let words = QueryNormalizer.words(text)
        guard let parsed = parse(words[...]), parsed.consumed == words.count else { return nil }
        return parsed.value
    }

    /// Whether a word can start a number.
    static func startsNumber(_ word: String) -> Bool {
        units[word] != nil || teens[word] != nil || tens[word] != nil || Double(word) != nil
            || word == "minus" || word == "negative" || word == "a" || word == "an"
    }

    /// The longest number at the start of `words`: its value and how many words it took.
    static func parse(_ words: ArraySlice<String>) -> (value: Double, consumed: Int)? {
        var index = words.startIndex
        var sign = 1.0
        if index < words.endIndex, words[index] == "minus" || words[index] == "negative" {
            sign = -1
            index += 1
        }
        var total = 0.0
        var small = 0.0
        var last = Last.none
        var sawNumber = false
        var end = index

        func isNumberWord(_ word: String) -> Bool {
            units[word] != nil || teens[word] != nil || tens[word] != nil || Double(word) != nil
        }

        scan: while index < words.endIndex {
            let word = words[index]
            let next = index + 1 < words.endIndex ? words[index + 1] : nil
            if let value = units[word] {
                guard [.none, .ten, .hundred, .scale, .conjunction].contains(last) else { break scan }
                small += Double(value)
                last = .unit
            } else if let value = teens[word] {
                guard [.none, .hundred, .scale, .conjunction].contains(last) else { break scan }
                small += Double(value)
                last = .teen
            } else if let value = tens[word] {
                guard [.none, .hundred, .scale, .conjunction].contains(last) else { break scan }
                small += Double(value)
                last = .ten
            } else if word == "hundred" {
                guard [.unit, .teen, .ten, .digits, .article].contains(last) else { break scan }
                small = (small == 0 ? 1 : small) * 100
                last = .hundred
            } else if let scale = scales[word] {
                guard [.unit, .teen, .ten, .hundred, .digits, .article].contains(last) else { break scan }
                total += (small == 0 ? 1 : small) * scale
                small = 0
                last = .scale
            } else if (word == "a" || word == "an") && last == .none {
                // "a hundred", "a thousand": the article is the one.
                guard let next, next == "hundred" || scales[next] != nil else { break scan }
                small = 1
                last = .article
            } else if word == "and" {
                guard last == .hundred || last == .scale, let next, isNumberWord(next) else { break scan }
                last = .conjunction
            } else if let value = Double(word), value.isFinite {
                guard [.none, .hundred, .scale, .conjunction].contains(last) else { break scan }
                small += value
                last = .digits
            } else if word == "point" {
                guard sawNumber, let fraction = fractionDigits(words[(index + 1)...]) else { break scan }
                small += fraction.value
                index += 1 + fraction.consumed
                end = index
                break scan
            } else {
                break scan
            }
            if last != .article && last != .conjunction { sawNumber = true }
            index += 1
            if last != .conjunction && last != .article { end = index }
        }
        guard sawNumber else { return nil }
        return (sign * (total + small), end - words.startIndex)
    }

    /// Digits said one by one after "point": "five" -> 0.5, "two five" -> 0.25.
    private static func fractionDigits(_ words: ArraySlice<String>) -> (value: Double, consumed: Int)? {
        var digits = ""
        for word in words {
            if let digit = digitWords[word] {
                digits += String(digit)
            } else if word.allSatisfy(\.isNumber), !word.isEmpty {
                digits += word
            } else {
                break
            }
        }
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        let consumed = words.prefix {
            digitWords[$0] != nil || (!$0.isEmpty && $0.allSatisfy(\.isNumber))
        }.count
        return (value, consumed)
    }

    /// The first number anywhere in `text`, or `nil`.
    static func firstNumber(in text: String) -> Double? {
        let words = QueryNormalizer.words(text)
        for index in words.indices where startsNumber(words[index]) {
            if let parsed = parse(words[index...]) { return parsed.value }
        }
        return nil
    }
}
