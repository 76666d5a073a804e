/// An action of a type this program does not know; kept whole so it can be passed on.
public struct UnknownAction: Sendable, Equatable {
    /// The `type` member as sent (may be empty when the object had none).
    public var type: String
    /// The whole action object as received, `type` included.
    public var raw: [String: JSONValue]

    /// Creates an unknown action from its object.
    public init(type: String, raw: [String: JSONValue]) {
        self.type = type
        self.raw = raw
    }
}
