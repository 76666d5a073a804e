/// One of the built-in skills' alarm, reminder and list actions (`alarm_set` ... `list_clear`).
/// The fields stay as sent; the speaker's planner reads the ones its kind uses (`hour`,
/// `minute`, `repeat`, `either`, `delay`, `text`, `item`, `list`, `all`, `seconds`).
public struct PlannerAction: Sendable, Equatable {
    /// What the action does; the raw value is its `type`.
    public enum Kind: String, Sendable, CaseIterable {
        case alarmSet = "alarm_set"
        case alarmList = "alarm_list"
        case alarmCancel = "alarm_cancel"
        case alarmSnooze = "alarm_snooze"
        case reminderSet = "reminder_set"
        case reminderList = "reminder_list"
        case reminderCancel = "reminder_cancel"
        case listAdd = "list_add"
        case listRead = "list_read"
        case listRemove = "list_remove"
        case listClear = "list_clear"
    }

    /// What the action does.
    public var kind: Kind
    /// The action's members other than `type`.
    public var fields: [String: JSONValue]

    /// Creates a planner action.
    public init(_ kind: Kind, fields: [String: JSONValue] = [:]) {
        self.kind = kind
        self.fields = fields.filter { $0.key != "type" }
    }

    /// The fields as a JSON object, without `type`.
    public var object: [String: JSONValue] { fields }
}
