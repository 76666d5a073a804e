import Foundation
import SusiCore
import SusiModel
import SusiSpeaker

/// What every command gets from `main`: the logger, the config location and the output.
struct CommandContext {
    let logger: Logger
    /// `--config F`, else the XDG default.
    let configPath: String
    let environment: [String: String]

    /// The config file, validating voices against the installed eSpeak NG voices and a new
    /// wake phrase against the heads and calibrations (`WakePhraseCheck`).
    var store: ConfigStore {
        var store = ConfigStore(path: configPath, voiceCheck: VoiceCatalogCheck.check)
        store.wakePhraseCheck = WakePhraseCheck.check(store: store, environment: environment, logger: logger)
        return store
    }

    /// Writes a line to standard output, made safe for a terminal (`TerminalOutput.line`).
    func print(_ line: String = "") {
        TerminalOutput.line(line)
    }

    /// Writes each line to standard output.
    func print(_ lines: [String]) {
        lines.forEach { print($0) }
    }

    /// Writes JSON text to standard output, controls escaped the JSON way (`TerminalOutput.json`).
    func printJSON(_ text: String) {
        TerminalOutput.json(text)
    }
}

/// A status command's answer that is not "as it should be" (`susi setup hotspot status`): its
/// exit status, after `systemctl is-active`, and one line for stderr.
struct StatusExit: Error {
    let status: Int32
    let message: String
}

/// One `susi` subcommand. `run` consumes its arguments and throws on failure; only `main`
/// turns errors into exit codes.
protocol Command: Sendable {
    /// The word after `susi`.
    static var name: String { get }
    /// One line for `susi --help`.
    static var summary: String { get }
    /// The usage lines shown by `susi NAME --help` and after usage errors.
    static var usage: String { get }
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws
}
