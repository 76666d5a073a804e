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

    public var object: [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        if let hour { result["hour"] = .number(Double(hour)) }
        if let minute { result["minute"] = .number(Double(minute)) }
        if let second { result["second"] = .number(Double(second)) }
        return result
    }
}
