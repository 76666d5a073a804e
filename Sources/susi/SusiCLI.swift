import Foundation
import SusiCore
import SusiModel

/// The `susi` entry point: global options, command dispatch and the error-to-exit-code mapping.
enum SusiCLI {
    static let commands: [any Command.Type] = [
        RunCommand.self, TranscribeCommand.self, AskCommand.self, SayCommand.self, VoiceCommand.self,
        ConfigCommand.self, BrainCommand.self, SkillsCommand.self, DevicesCommand.self, LoginCommand.self,
        LogoutCommand.self, SkillCommand.self, SetupCommand.self, LanguageCommand.self, LocationCommand.self, DoctorCommand.self,
        UpdateCommand.self, WakewordCommand.self, SatelliteCommand.self,
    ]

    static let overview = """
        susi: the SUSI.AI smart speaker, on device.

        usage: susi [-v|--quiet] [--config FILE] COMMAND [ARGS...]
               susi COMMAND --help

        global options:
          --config FILE   config file (default $XDG_CONFIG_HOME/susi/config.json)
          -v, --verbose   more log output on stderr (-v info, -vv debug, -vvv trace)
          --quiet         only errors on stderr
          -h, --help      this help
        """

    /// Runs one command line and returns the process exit status.
    static func main(_ argv: [String], environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        var arguments = ArgumentParser(argv)
        let verbosity = arguments.count("-v", "--verbose") + 2 * arguments.count("-vv") + 3 * arguments.count("-vvv")
        let quiet = arguments.flag("--quiet", "-q")
        let level: LogLevel = quiet ? .error : [LogLevel.warning, .info, .debug, .trace][min(verbosity, 3)]
        let logger = Logger(label: "susi", level: level)
        let commandName: String
        let configPath: String
        do {
            configPath = try arguments.option("--config") ?? ConfigStore.defaultPath(environment: environment)
            guard let first = arguments.arguments.first, first != "-h", first != "--help", first != "help" else {
                TerminalOutput.line(helpText())
                return argv.isEmpty ? 2 : 0
            }
            commandName = first
        } catch {
            return fail("susi: \(error.message)", code: 2)
        }
        guard let command = commands.first(where: { $0.name == commandName }) else {
            return fail("susi: unknown command '\(commandName)'; run 'susi --help' for the list", code: 2)
        }
        var rest = ArgumentParser(Array(arguments.arguments.dropFirst()))
        if rest.flag("-h", "--help") {
            TerminalOutput.line("usage:\n" + command.usage)
            return 0
        }
        let context = CommandContext(logger: logger, configPath: configPath, environment: environment)
        do {
            try command.run(&rest, context)
            return 0
        } catch let error as StatusExit {
            return fail("susi \(commandName): \(error.message)", code: error.status)
        } catch let error as UsageError {
            return fail("susi \(commandName): \(error.message) (see 'susi \(commandName) --help')", code: 2)
        } catch let error as any SusiError {
            return fail("susi \(commandName): \(error.message)", code: 1)
        } catch {
            return fail("susi \(commandName): \(error)", code: 1)
        }
    }

    static func helpText() -> String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  " + $0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.summary }
        return overview + "\n\ncommands:\n" + lines.joined(separator: "\n")
    }

    /// One line on stderr; messages may quote outside text (a server's reply, an argument), so
    /// its control and bidi characters are escaped rather than sent to the terminal.
    private static func fail(_ line: String, code: Int32) -> Int32 {
        TerminalOutput.errorLine(line)
        return code
    }
}
