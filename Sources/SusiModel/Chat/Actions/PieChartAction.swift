/// A `piechart` action: the data rows as slices, `key` naming each and `value` sizing it.
public struct PieChartAction: ChatActionPayload {
    /// The row field naming a slice.
    public var key: String
    /// The row field holding a slice's size.
    public var value: String
    /// The unit of the values (`%`), possibly empty.
    public var unit: String
    /// The sum the slices add up to, when the server says.
    public var total: Double?

    /// Creates a pie chart action.
    public init(key: String, value: String, unit: String = "", total: Double? = nil) {
        self.key = key
        self.value = value
        self.unit = unit
        self.total = total
    }

    public init(object: [String: JSONValue]) {
        key = object.lenientString("key") ?? ""
        value = object.lenientString("value") ?? ""
        unit = object.lenientString("unit") ?? ""
        total = object.lenientDouble("total")
    }

    public var object: [String: JSONValue] {
        var result: [String: JSONValue] = [
            "key": .string(key), "value": .string(value), "unit": .string(unit),
        ]
        if let total { result["total"] = .number(total) }
        return result
    }
}
