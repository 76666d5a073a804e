import Foundation
import SusiModel

/// JSON as org.json's `JSONTokener` reads it, which is what SUSI parses console bodies with.
///
/// Beyond strict JSON it takes single-quoted strings, unquoted keys and values, `=` or `=>`
/// between key and value, `;` between members, trailing commas, and raw line breaks inside
/// strings. Skill authors tested their bodies against SUSI, so what it accepted is accepted.
enum LenientJSON {
    /// Strict JSON first (exact numbers and escapes); the lenient reading when that fails.
    static func parse(_ text: String) -> JSONValue? {
        if let strict = try? JSONValue.parse(text) { return strict }
        var reader = Reader(Array(text.unicodeScalars))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipBlanks()
        // Not a ternary: JSONValue is ExpressibleByNilLiteral, so `nil` there would be .null.
        guard reader.atEnd else { return nil }
        return value
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0
        static let maxDepth = 64

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var atEnd: Bool { index >= scalars.count }

        mutating func skipBlanks() {
            while index < scalars.count, scalars[index].properties.isWhitespace || scalars[index].value < 0x20 {
                index += 1
            }
        }

        mutating func next() -> Unicode.Scalar? {
            skipBlanks()
            guard index < scalars.count else { return nil }
            defer { index += 1 }
            return scalars[index]
        }

        mutating func peek() -> Unicode.Scalar? {
            skipBlanks()
            return index < scalars.count ? scalars[index] : nil
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < Self.maxDepth, let first = peek() else { return nil }
            switch first {
            case "{":
                index += 1
                return object(depth: depth)
            case "[":
                index += 1
                return array(depth: depth)
            case "\"", "'":
                index += 1
                return string(quote: first).map(JSONValue.string)
            default:
                return bare()
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            var members: [String: JSONValue] = [:]
            if peek() == "}" {
                index += 1
                return .object(members)
            }
            while true {
                guard let keyValue = value(depth: depth + 1) else { return nil }
                let key: String
                switch keyValue {
                case .string(let text): key = text
                case .number, .bool, .null: key = keyValue.jsonText
                default: return nil
                }
                switch next() {
                case ":": break
                case "=":
                    if index < scalars.count, scalars[index] == ">" { index += 1 }
                default: return nil
                }
                guard let member = value(depth: depth + 1) else { return nil }
                members[key] = member
                switch next() {
                case ",", ";":
                    if peek() == "}" {
                        index += 1
                        return .object(members)
                    }
                case "}": return .object(members)
                default: return nil
                }
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            var elements: [JSONValue] = []
            if peek() == "]" {
                index += 1
                return .array(elements)
            }
            while true {
                if peek() == "," {
                    elements.append(.null)  // org.json reads an empty slot as null
                } else {
                    guard let element = value(depth: depth + 1) else { return nil }
                    elements.append(element)
                }
                switch next() {
                case ",", ";":
                    if peek() == "]" {
                        index += 1
                        return .array(elements)
                    }
                case "]": return .array(elements)
                default: return nil
                }
            }
        }

        mutating func string(quote: Unicode.Scalar) -> String? {
            var output = String.UnicodeScalarView()
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                if scalar == quote { return String(output) }
                guard scalar == "\\" else {
                    output.append(scalar)
                    continue
                }
                guard index < scalars.count else { return nil }
                let escaped = scalars[index]
                index += 1
                switch escaped {
                case "b": output.append("\u{8}")
                case "t": output.append("\t")
                case "n": output.append("\n")
                case "f": output.append("\u{C}")
                case "r": output.append("\r")
                case "u":
                    guard index + 4 <= scalars.count,
                        let code = UInt32(String(String.UnicodeScalarView(scalars[index..<index + 4])), radix: 16),
                        let decoded = Unicode.Scalar(code)
                    else { return nil }
                    output.append(decoded)
                    index += 4
                default: output.append(escaped)
                }
            }
            return nil
        }

        /// An unquoted value, up to the next structural character, as org.json reads it.
        mutating func bare() -> JSONValue? {
            let stops: Set<Unicode.Scalar> = [",", ":", "]", "}", "/", "\\", "\"", "[", "{", ";", "=", "#"]
            var text = String.UnicodeScalarView()
            while index < scalars.count, !stops.contains(scalars[index]), scalars[index].value >= 0x20 {
                text.append(scalars[index])
                index += 1
            }
            let word = String(text).trimmedBlanks
            guard !word.isEmpty else { return nil }
            switch word.lowercased() {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default: break
            }
            if let number = Double(word), word.first.map({ $0.isNumber || $0 == "-" || $0 == "." }) == true {
                return .number(number)
            }
            return .string(word)
        }
    }
}
