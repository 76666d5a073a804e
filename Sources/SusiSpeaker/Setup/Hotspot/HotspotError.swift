/// A failure of the first-setup hotspot: a bad setting, or a system command that failed.
public struct HotspotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public enum Code: String, Sendable {
        /// A `setup.hotspot.*` value cannot be used (the message names the key).
        case badSetting = "hotspot-bad-setting"
        /// A command of a hotspot step exited with an error or could not start.
        case commandFailed = "hotspot-command-failed"
        /// A generated file could not be written.
        case writeFailed = "hotspot-write-failed"
        /// The setup state file could not be written.
        case stateFailed = "hotspot-state-failed"
    }

    /// The stable code.
    public let code: Code
    /// One line for people.
    public let message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
