import Foundation

/// A `timer_set` action: a clock time (hour, minute, second) at which the client rings.
public struct TimerSetAction: ChatActionPayload {
    /// Hour of the day, 0-23, when given.
    public var hour: Int?
    /// Minute, 0-59, when given.
    public var minute: Int?
    /// Second, 0-59, when given.
    public var second: Int?

    /// Creates a timer action.
    public init(hour: Int? = nil, minute: Int? = nil, second: Int? = nil) {
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    public init(object: [String: JSONValue]) {
        hour = object.lenientInt("hour")
        minute = object.lenientInt("minute")
        second = object.lenientInt("second")
    }

    /// The clock time to ring at: hour, minute and second (a missing minute or second is 0);
    /// nil without an hour, or with a part out of range.
    public var clockTime: DateComponents? {
        let minute = self.minute ?? 0
        let second = self.second ?? 0
        guard let hour, (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return DateComponents(hour: hour, minute: minute, second: second)
    }

    /// The clock time as said: "7:30", "18:05:09" (seconds only when given and not 0); nil as
    /// for `clockTime`.
    public var spokenTime: String? {
        guard let time = clockTime, let hour = time.hour, let minute = time.minute, let second = time.second else {
            return nil
        }
        let clock = "\(hour):" + (minute < 10 ? "0\(minute)" : "\(minute)")
        return second == 0 ? clock : clock + (second < 10 ? ":0\(second)" : ":\(second)")
    }

    public var object: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        if let hour { result["hour"] = .number(Double(hour)) }
        if let minute { result["minute"] = .number(Double(minute)) }
        if let second { result["second"] = .number(Double(second)) }
        return result
    }
}
