/// The fields of one kind of chat action, read leniently from and written back to JSON.
///
/// `init(object:)` never fails: SUSI servers of different ages send numbers as strings and
/// leave fields out, so missing or malformed fields get the documented defaults.
public protocol ChatActionPayload: Sendable, Equatable {
    /// Reads the fields from an action object (the `type` member is ignored).
    init(object: [String: JSONValue])
    /// The fields as a JSON object, without `type`.
    var object: [String: JSONValue] { get }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A member as text (numbers and booleans converted), or `nil`.
    func lenientString(_ key: String) -> String? { self[key]?.stringValue }

    /// A member as an integer (numeric strings accepted), or `nil`.
    func lenientInt(_ key: String) -> Int? { self[key]?.intValue }

    /// A member as a number (numeric strings accepted), or `nil`.
    func lenientDouble(_ key: String) -> Double? { self[key]?.doubleValue }
}
