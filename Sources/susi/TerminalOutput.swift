import Foundation
import SusiCore

/// Every byte `susi` writes to standard output or standard error, through one of three
/// functions. Much of it is outside text (answers, reviews, config values, arguments quoted in
/// errors), so each makes escape codes, control characters and bidi controls harmless first.
enum TerminalOutput {
    /// Writes `text` and a newline to standard output, with escape sequences and controls
    /// removed (newlines and tabs stay) and bidi controls shown as `\u{202E}`
    /// (`ControlCharacters.escapedForTerminal`).
    static func line(_ text: String) {
        write(ControlCharacters.escapedForTerminal(text) + "\n", to: .standardOutput)
    }

    /// Writes JSON text and a newline to standard output, with controls and bidi controls as
    /// JSON `\uXXXX` escapes, so the output parses to the same values
    /// (`ControlCharacters.escapedForJSON`).
    static func json(_ text: String) {
        write(ControlCharacters.escapedForJSON(text) + "\n", to: .standardOutput)
    }

    /// Writes `text` to standard error as one line, every control written out visibly
    /// (`ControlCharacters.escapedForLog`), newlines included.
    static func errorLine(_ text: String) {
        write(ControlCharacters.escapedForLog(text.replacingOccurrences(of: "\n", with: " ")) + "\n", to: .standardError)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
