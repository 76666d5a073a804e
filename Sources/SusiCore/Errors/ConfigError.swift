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
    /// An answer's settings action asked for a key its origin may not change.
    case settingRefused = "config-setting-refused"

    public var stage: Stage { .config }
}
