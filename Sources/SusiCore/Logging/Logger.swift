import Foundation

/// How much a log line matters; lines below a logger's level are dropped.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, warning, error, off

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Lower-case name used in log lines.
    public var name: String { String(describing: self) }
}

/// Where log lines go. Tests inject one that captures lines.
public protocol LogHandler: Sendable {
    /// Writes one already-formatted line. Called from any thread.
    func write(level: LogLevel, label: String, message: String)
}

/// Writes `level label: message` lines to standard error.
public struct StandardErrorLogHandler: LogHandler {
    public init() {}

    public func write(level: LogLevel, label: String, message: String) {
        FileHandle.standardError.write(Data("susi[\(label)] \(level.name): \(message)\n".utf8))
    }
}

/// A labelled, levelled logger. Components accept one; only `main` builds the root logger.
public struct Logger: Sendable {
    /// The component name shown in each line.
    public let label: String
    /// Lines below this level are dropped.
    public let level: LogLevel
    private let handler: any LogHandler

    public init(label: String, level: LogLevel = .info, handler: any LogHandler = StandardErrorLogHandler()) {
        self.label = label
        self.level = level
        self.handler = handler
    }

    /// A logger for a sub-component sharing this one's level and handler.
    public func child(_ label: String) -> Logger {
        Logger(label: label, level: level, handler: handler)
    }

    /// A logger that drops everything; the default for components used in tests.
    public static let silent = Logger(label: "silent", level: .off)

    /// Logs `message` at `level`. Control characters in it are escaped first
    /// (`ControlCharacters.escapedForLog`), so text from outside (an SSID with a newline or an
    /// escape code) can neither forge a log line nor drive the terminal showing the log.
    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= self.level, self.level != .off else { return }
        handler.write(level: level, label: label, message: ControlCharacters.escapedForLog(message()))
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
