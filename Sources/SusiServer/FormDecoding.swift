/// Decoding of `application/x-www-form-urlencoded` text (`a=1&b=x+y%21`).
public enum FormDecoding {
    /// Decodes one component: `+` is a space, `%XX` a byte; the bytes must be UTF-8.
    /// Returns nil for a truncated or non-hex escape or bytes that are not UTF-8.
    public static func decodeComponent(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue),
                    let low = iterator.next().flatMap(hexValue)
                else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `name=value&...`; for a repeated name the first value wins, a name without `=`
    /// has an empty value. Returns nil if any component is malformed.
    public static func decode(_ text: String) -> [String: String]? {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decodeComponent(parts[0]) else { return nil }
            guard let value = parts.count > 1 ? decodeComponent(parts[1]) : "" else { return nil }
            if result[name] == nil {
                result[name] = value
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
