/// Finds a key written twice in one JSON object, which Foundation's `JSONSerialization`
/// accepts silently, keeping the last value.
///
/// A tiny tokenizer: it follows strings (escapes included) and the nesting of objects and
/// arrays, and nothing else, so run it on text a JSON parser has already accepted. On other
/// text it still ends, without crashing, but its answer means little.
enum JSONDuplicateKeys {
    /// One open object or array.
    private struct Level {
        let isObject: Bool
        /// The next string in this object is a key (after `{` or `,`).
        var expectingKey: Bool
        var keys: Set<String> = []
        /// The key whose value is being read: the path to a nested object.
        var currentKey: String?
    }

    /// The dotted path of the first key that appears twice in one object of `data`
    /// (`tts.voice` for `{"tts": {"voice": 1, "voice": 2}}`), or nil when every key is unique.
    /// Keys are compared decoded, so `"room"` and `"r\u006fom"` are the same key.
    static func first(in data: some Collection<UInt8>) -> String? {
        let bytes = Array(data)
        var levels: [Level] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "{"): levels.append(Level(isObject: true, expectingKey: true))
            case UInt8(ascii: "["): levels.append(Level(isObject: false, expectingKey: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = levels.popLast()
            case UInt8(ascii: ","):
                if let last = levels.indices.last, levels[last].isObject { levels[last].expectingKey = true }
            case UInt8(ascii: "\""):
                let (text, end) = string(in: bytes, from: index)
                index = end
                guard let last = levels.indices.last, levels[last].isObject, levels[last].expectingKey else { continue }
                guard levels[last].keys.insert(text).inserted else {
                    return (levels.dropLast().compactMap(\.currentKey) + [text]).joined(separator: ".")
                }
                levels[last].expectingKey = false
                levels[last].currentKey = text
            default: continue
            }
        }
        return nil
    }

    /// The decoded string whose text starts at `start` (just after its opening quote), and
    /// the index just past its closing quote.
    private static func string(in bytes: [UInt8], from start: Int) -> (String, Int) {
        var decoded: [UInt8] = []
        var index = start
        /// A high surrogate from `\uD8xx` waiting for its low half.
        var pendingHigh: UInt32?
        func flushPending() {
            if pendingHigh != nil { append(0xFFFD, to: &decoded) }
            pendingHigh = nil
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { break }
            guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                flushPending()
                decoded.append(byte)
                continue
            }
            let escape = bytes[index]
            index += 1
            guard escape == UInt8(ascii: "u") else {
                flushPending()
                switch escape {
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                default: decoded.append(escape)  // `\"`, `\\`, `\/`
                }
                continue
            }
            guard let unit = hex(bytes, at: index) else { continue }
            index += 4
            switch unit {
            case 0xD800...0xDBFF:
                flushPending()
                pendingHigh = unit
            case 0xDC00...0xDFFF:
                if let high = pendingHigh {
                    append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &decoded)
                    pendingHigh = nil
                } else {
                    append(0xFFFD, to: &decoded)
                }
            default:
                flushPending()
                append(unit, to: &decoded)
            }
        }
        flushPending()
        return (String(decoding: decoded, as: UTF8.self), index)
    }

    /// The four hex digits at `index` as a number; nil when there are not four.
    private static func hex(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        bytes.append(contentsOf: String(scalar).utf8)
    }
}
