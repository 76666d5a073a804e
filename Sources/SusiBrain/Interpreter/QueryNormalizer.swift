/// Brings queries and skill patterns to one comparable form, as the SUSI server does: lower
/// case, punctuation stripped, blanks collapsed.
///
/// Beyond that, typed arithmetic is spelled out (`7+5` becomes `7 plus 5`, `8/2` becomes
/// `8 divided by 2`, `9-4` becomes `9 minus 4`) so the same patterns serve typed and spoken queries, and apostrophes
/// vanish inside words (`what's` becomes `whats`), so a pattern written either way matches
/// a query written either way. Decimal points between digits are kept.
public enum QueryNormalizer {
    /// The normalised text of a query.
    public static func normalize(_ text: String) -> String {
        words(text).joined(separator: " ")
    }

    /// The normalised words of a query.
    public static func words(_ text: String) -> [String] {
        if let plain = plainASCIIWords(text) { return plain }
        let characters = Array(text.lowercased())
        var output = ""
        output.reserveCapacity(characters.count + 8)
        for index in characters.indices {
            let character = characters[index]
            let previous = lastNonBlank(characters, before: index)
            let following = nextNonBlank(characters, after: index)
            let betweenDigits = (previous?.isNumber ?? false) && (following?.isNumber ?? false)
            switch character {
            case "'", "\u{2019}", "\u{2018}":
                // Apostrophes join: "what's" -> "whats".
                continue
            case "+":
                output += " plus "
            case "\u{00D7}":
                output += " times "
            case "\u{00F7}":
                output += " divided by "
            case "*" where betweenDigits:
                output += " times "
            case "/" where betweenDigits:
                output += " divided by "
            case "-" where betweenDigits:
                output += " minus "
            case "%":
                output += " percent "
            case "." where isDigit(characters, index - 1) && isDigit(characters, index + 1):
                output.append(".")
            case "," where isDigit(characters, index - 1) && isThousandsGroup(characters, index + 1):
                // "1,000" is one number, not "1" and "000".
                continue
            default:
                if character.isLetter || character.isNumber {
                    output.append(character)
                } else {
                    output.append(" ")
                }
            }
        }
        return output.split(separator: " ").map(String.init)
    }

    /// The common case quickly: ASCII text with none of the characters the full rules treat
    /// specially (apostrophes, arithmetic signs, `%`, `.` and `,`) is just its lower-cased
    /// runs of letters and digits. Nil when the full rules are needed. Reading a large skill
    /// file spends most of its time here.
    private static func plainASCIIWords(_ text: String) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                word.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                word.append(byte + 32)
            case 0x80...0xFF, UInt8(ascii: "'"), UInt8(ascii: "+"), UInt8(ascii: "*"), UInt8(ascii: "/"),
                UInt8(ascii: "-"), UInt8(ascii: "%"), UInt8(ascii: "."), UInt8(ascii: ","):
                return nil
            default:
                if !word.isEmpty {
                    words.append(String(decoding: word, as: UTF8.self))
                    word.removeAll(keepingCapacity: true)
                }
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// The normalised words of one pattern alternative, `*` kept as its own word.
    static func patternWords(_ alternative: String) -> [String] {
        let pieces = alternative.split(separator: "*", omittingEmptySubsequences: false)
        var result: [String] = []
        for (index, piece) in pieces.enumerated() {
            if index > 0 { result.append("*") }
            result += words(String(piece))
        }
        return result
    }

    private static func isDigit(_ characters: [Character], _ index: Int) -> Bool {
        characters.indices.contains(index) && characters[index].isNumber
    }

    private static func lastNonBlank(_ characters: [Character], before index: Int) -> Character? {
        var cursor = index - 1
        while cursor >= 0 {
            if characters[cursor] != " " { return characters[cursor] }
            cursor -= 1
        }
        return nil
    }

    private static func nextNonBlank(_ characters: [Character], after index: Int) -> Character? {
        var cursor = index + 1
        while cursor < characters.count {
            if characters[cursor] != " " { return characters[cursor] }
            cursor += 1
        }
        return nil
    }

    private static func isThousandsGroup(_ characters: [Character], _ start: Int) -> Bool {
        guard start + 3 <= characters.count else { return false }
        let group = characters[start..<(start + 3)]
        let after = start + 3 < characters.count ? characters[start + 3] : " "
        return group.allSatisfy(\.isNumber) && !after.isNumber
    }
}
