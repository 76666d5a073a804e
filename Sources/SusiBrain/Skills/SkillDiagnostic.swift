/// A problem found while loading skills, with file and line.
///
/// An `error` makes the whole file skipped (the other files still load); a `warning` skips
/// one intent (for instance one using a construct this interpreter does not run).
public struct SkillDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable {
        /// The file was skipped.
        case error
        /// Only the intent was skipped.
        case warning
    }

    /// The skill file.
    public let file: String
    /// The 1-based line the problem starts at.
    public let line: Int
    /// Error or warning.
    public let severity: Severity
    /// One line for the skill author.
    public let message: String

    /// Creates a diagnostic.
    public init(file: String, line: Int, severity: Severity, message: String) {
        self.file = file
        self.line = line
        self.severity = severity
        self.message = message
    }

    /// `file:line: severity: message`, the form editors jump to.
    public var description: String { "\(file):\(line): \(severity.rawValue): \(message)" }
}
