/// A config file or value that cannot be used; `message` names the key or the file position.
public struct ConfigError: SusiError, Equatable {
    /// What went wrong, as a stable code.
    public enum Kind: String, Sendable {
        case unreadable = "config-unreadable"
        case badJSON = "config-bad-json"
        case unknownKey = "config-unknown-key"
        case badValue = "config-bad-value"
        case unwritable = "config-unwritable"
    }

    public let kind: Kind
    public let message: String
    public var stage: Stage { .config }
    public var code: String { kind.rawValue }

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
