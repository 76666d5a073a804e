/// The home skill's `home_assistant` action: a `command` (`HomeCommand`) for the entities
/// `entity_id` names (comma-separated), or for the one called `name`, or for an `area`, with a
/// `value` for brightness and temperature. The fields stay as sent, so an unknown command is
/// reported as such when the speaker performs it; a field that is empty or "none" is absent.
public struct HomeAssistantAction: ChatActionPayload {
    /// The action's members other than `type`.
    public var fields: [String: JSONValue]

    /// Creates an action from its members.
    public init(fields: [String: JSONValue]) {
        self.fields = fields.filter { $0.key != "type" }
    }

    public init(object: [String: JSONValue]) {
        self.init(fields: object)
    }

    public var object: [String: JSONValue] { fields }

    /// A member as text; nil when missing, empty or "none".
    public func field(_ name: String) -> String? {
        guard let text = fields[name]?.stringValue, !text.isEmpty, text != "none" else { return nil }
        return text
    }

    /// The command asked for; nil when missing or not one the speaker knows.
    public var command: HomeCommand? { field("command").flatMap(HomeCommand.init(rawValue:)) }
    /// The comma-separated entity ids, as sent.
    public var entityIDs: String? { field("entity_id") }
    /// The name of the thing, as said.
    public var name: String? { field("name") }
    /// The area, as said.
    public var area: String? { field("area") }
    /// The percent or the temperature, for `brightness` and `temperature`.
    public var value: Double? { field("value").flatMap(Double.init) }
    /// How the question was put, for `state` ("open", "on", ...).
    public var asked: String? { field("asked") }
}
