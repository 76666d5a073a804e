/// Percent-encoding for `application/x-www-form-urlencoded` bodies and URL queries.
///
/// Everything except the RFC 3986 unreserved characters (`A-Z a-z 0-9 - . _ ~`) is encoded as
/// `%XX` of its UTF-8 bytes, spaces included (as `%20`, which every server decodes, unlike `+`
/// inside paths), so `&`, `=`, `+`, `#` and emoji survive the trip.
public enum FormEncoding {
    /// Encodes one name or value.
    public static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Encodes pairs as `name=value&name=value`, keeping their order.
    public static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
