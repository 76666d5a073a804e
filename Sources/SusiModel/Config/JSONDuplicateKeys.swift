import Foundation

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
    /// the index just past its closing quote. The text was accepted by a JSON parser, so the
    /// quoted bytes are a JSON string, which `JSONValue.parse` decodes (escapes, surrogates).
    private static func string(in bytes: [UInt8], from start: Int) -> (String, Int) {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
        }
        let end = min(index + 1, bytes.count)
        let quoted = Data(bytes[(start - 1)..<end])
        return ((try? JSONValue.parse(quoted))?.stringValue ?? String(decoding: quoted, as: UTF8.self), end)
    }
}
