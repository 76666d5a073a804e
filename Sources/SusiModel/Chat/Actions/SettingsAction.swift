/// A `settings` action (this speaker's own): change one config key, e.g. `tts.voice` to `en-gb`.
///
/// The executor validates the pair against the config schema before saving it; the brain
/// only proposes, and only what a person could ask for by voice (`allowedKeys(from:)`):
/// an answer never chooses programs, hooks, paths, the server or the setup. Values travel as
/// text, the way `susi config set KEY VALUE` takes them.
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

    /// The keys a remote answer (the SUSI server, or any chat.json over the network) may
    /// change: how loud and how fast the speaker talks and plays. The server knows nothing of
    /// this speaker's voices, room or language, and has no business with anything else.
    public static let serverKeys: Set<String> = ["tts.rate", "tts.pitch", "tts.volume", "player.volume"]

    /// The keys a built-in skill may change: what a person could say ("speak with a Scottish
    /// accent", "talk faster", "louder", "answer in German", "this is the kitchen").
    /// `brain.language` is the one `brain.*` key, and only the language: never `brain.server`
    /// or `brain.mode`.
    public static let skillKeys: Set<String> = serverKeys.union(["tts.voice", "tts.variant", "brain.language", "room"])

    /// The keys an answer from `origin` may change.
    public static func allowedKeys(from origin: AnswerOrigin) -> Set<String> {
        switch origin {
        case .builtIn: return skillKeys
        case .server: return serverKeys
        }
    }

    /// Whether an answer from `origin` may make this change.
    public func isAllowed(from origin: AnswerOrigin) -> Bool {
        Self.allowedKeys(from: origin).contains(key)
    }
}

/// Where an answer came from, which decides what its actions may change on the speaker.
public enum AnswerOrigin: String, Sendable, Equatable {
    /// The built-in brain: skill files on the speaker.
    case builtIn = "built-in"
    /// Anything that arrived over the network: the SUSI server, another speaker's brain.
    case server
}
