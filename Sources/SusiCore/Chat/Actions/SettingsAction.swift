/// A `settings` action (this speaker's own): change one config key, e.g. `tts.voice` to `en-gb`.
///
/// The executor validates the pair against the config schema before saving it; the brain
/// only proposes. Values travel as text, the way `susi config set KEY VALUE` takes them.
public struct SettingsAction: ChatActionPayload {
    /// The dotted config key.
    public var key: String
    /// The new value as text (numbers are converted when read).
    public var value: String

    /// Creates a settings action.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    public init(object: [String: JSONValue]) {
        key = object.lenientString("key") ?? ""
        value = object.lenientString("value") ?? ""
    }

    public var object: [String: JSONValue] {
        ["key": .string(key), "value": .string(value)]
    }
}
