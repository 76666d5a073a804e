import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Dates as the speaker's files, pages and logs write them, computed with the C library's
/// `timegm`, `gmtime_r` and `localtime_r`.
///
/// Foundation's calendars, time zones and ISO 8601 formatters load ICU, and ICU's tables cost
/// `susi run` about 3 MiB of memory from its first use. Nothing here needs them: UTC to the
/// millisecond, and the wall clock of the zone the C library uses (`TZ`, else /etc/localtime).
public enum Timestamp {
    /// `2026-12-02T09:41:54Z`: UTC, whole seconds, as JSONEncoder's `.iso8601` writes it;
    /// with `milliseconds`, `2026-12-02T09:41:54.250Z`, as SUSI's replies carry it.
    public static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = "\(fields(parts))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        if milliseconds {
            let thousandths = min(999, Int(((date.timeIntervalSince1970 - whole) * 1000).rounded(.down)))
            text += "." + String(String(thousandths + 1000).dropFirst())
        }
        return text + "Z"
    }

    /// A moment's wall-clock fields, numbered as Foundation's `Calendar` numbers them.
    public struct LocalTime: Sendable, Equatable {
        public var year: Int
        /// 1 (January) to 12.
        public var month: Int
        /// 1 to 31.
        public var day: Int
        /// 1 (Sunday) to 7 (Saturday).
        public var weekday: Int
        public var hour: Int
        public var minute: Int
        /// Seconds east of UTC (CEST: 7200).
        public var offset: Int

        public init(year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int, offset: Int) {
            (self.year, self.month, self.day, self.weekday) = (year, month, day, weekday)
            (self.hour, self.minute, self.offset) = (hour, minute, offset)
        }
    }

    /// `date` on the local wall clock.
    public static func local(_ date: Date) -> LocalTime {
        let parts = localFields(date)
        return LocalTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            weekday: Int(parts.tm_wday) + 1, hour: Int(parts.tm_hour), minute: Int(parts.tm_min),
            offset: parts.tm_gmtoff)
    }

    /// `2026-12-02`: the day `date` falls on in the local time zone.
    public static func localDay(_ date: Date) -> String {
        fields(localFields(date))
    }

    private static func localFields(_ date: Date) -> tm {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    /// The date an RFC 3339 timestamp names: `yyyy-MM-ddTHH:mm:ss`, optional fractional seconds,
    /// then `Z` or an offset `±HH:mm` (`t`/`z` and a space for `T` are accepted too). Nil for
    /// anything else, an impossible field (month 13, minute 61) included.
    public static func date(iso8601 text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.number(4), reader.skip("-"), let month = reader.number(2), reader.skip("-"),
            let day = reader.number(2), reader.skip("T") || reader.skip("t") || reader.skip(" "),
            let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
            let second = reader.number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            var scale = 0.1
            guard let first = reader.digit() else { return nil }
            fraction = Double(first) * scale
            while let next = reader.digit() {
                scale /= 10
                fraction += Double(next) * scale
            }
        }
        var offset = 0
        if let sign = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil {
            guard let hours = reader.number(2), reader.skip(":"), let minutes = reader.number(2), hours < 24,
                minutes < 60
            else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        } else if !reader.skip("Z"), !reader.skip("z") {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalises 31 February into March: such a date was never written by anyone.
        guard parts.tm_mday == Int32(day) || second == 60 else { return nil }
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }

    /// JSONEncoder's strategy writing dates as `iso8601(_:)` does.
    public static let encoding = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(iso8601(date))
    }

    /// JSONDecoder's strategy reading dates as `date(iso8601:)` does.
    public static let decoding = JSONDecoder.DateDecodingStrategy.custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = date(iso8601: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an ISO 8601 date and time")
        }
        return date
    }

    private static func fields(_ parts: tm) -> String {
        let year = String(parts.tm_year + 1900)
        return "\(String(repeating: "0", count: max(0, 4 - year.count)))\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Reads ASCII digits and separators off the front of a timestamp.
    private struct Reader {
        private let bytes: [UInt8]
        private var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            index += 1
            return Int(bytes[index - 1] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits.
        mutating func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let next = digit() else { return nil }
                value = value * 10 + next
            }
            return value
        }
    }
}
