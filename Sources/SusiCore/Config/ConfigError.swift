/// A config file or value that cannot be used; `message` names the key or the file position.
public typealias ConfigError = StageError<ConfigErrorKind>

/// What went wrong, as a stable code.
public enum ConfigErrorKind: String, StageErrorKind, CaseIterable {
    case unreadable = "config-unreadable"
    /// Larger than a config (or state) file can be; refused before it is read.
    case tooLarge = "config-too-large"
    case badJSON = "config-bad-json"
    case unknownKey = "config-unknown-key"
    case badValue = "config-bad-value"
    case unwritable = "config-unwritable"

    public var stage: Stage { .config }
}
