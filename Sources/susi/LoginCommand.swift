import Foundation
import SusiCore
import SusiNet
import SusiSpeaker

#if canImport(Glibc)
    import Glibc
#endif

/// `susi login [--email E] [--password-stdin]`: logs in to the SUSI.AI account of
/// `brain.server` and keeps the token in `account.json` beside the config (mode 0600).
enum LoginCommand: Command {
    static let name = "login"
    static let summary = "log in to a SUSI.AI account"
    static let usage = """
          susi login [--email E] [--password-stdin]
            asks for the password without echo; --password-stdin reads one line from stdin
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        var email = try arguments.option("--email")
        let passwordFromStdin = arguments.flag("--password-stdin")
        try arguments.finish()
        let config = try context.store.load()
        if email == nil {
            guard !passwordFromStdin else { throw UsageError("--password-stdin needs --email") }
            email = try Terminal.prompt("SUSI.AI email: ", echo: true)
        }
        let password: String
        if passwordFromStdin {
            guard let line = readLine(strippingNewline: true) else {
                throw LoginInputError(message: "no password on standard input")
            }
            password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        } else {
            password = try Terminal.prompt("Password for \(email ?? ""): ", echo: false)
        }
        var account = SetupAccountLink(store: context.store, logger: context.logger)
        account.timeout = max(config.brain.timeoutSeconds, 10)
        account.http = { [logger = context.logger] in CurlHTTPClient(stage: .brain, logger: logger) }
        let token = try account.logIn(email: email ?? "", password: password)
        let until = token.expiresAt.formatted(.dateTime.year().month().day().hour().minute())
        context.print(
            "Logged in to \(config.brain.server) as \(SkillReview.anonymized(token.email)); the login is valid until \(until)."
        )
    }
}

/// `susi logout`: forgets the stored SUSI.AI token.
enum LogoutCommand: Command {
    static let name = "logout"
    static let summary = "forget the SUSI.AI account token"
    static let usage = "  susi logout"

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        try arguments.finish()
        let removed = try AccountStore(configStore: context.store).remove()
        context.print(removed ? "Logged out." : "Not logged in.")
    }
}

/// The login's input could not be read (no terminal, end of input).
struct LoginInputError: SusiError {
    let message: String
    var stage: Stage { .config }
    var code: String { "account-no-input" }
}

/// Prompts on the controlling terminal; the password prompt turns echo off.
private enum Terminal {
    /// Writes `text` to stderr and reads one line from stdin. With `echo` false, stdin must be
    /// a terminal: echo is off while reading and restored after, whatever happens.
    static func prompt(_ text: String, echo: Bool) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            if echo, let line = readLine(strippingNewline: true) { return line }
            throw LoginInputError(
                message: echo
                    ? "no email on standard input; use --email"
                    : "no terminal to ask for the password; use --password-stdin")
        }
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let canSilence = !echo && tcgetattr(STDIN_FILENO, &saved) == 0
        if canSilence {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        defer {
            if canSilence {
                _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                // The Enter key was not echoed either.
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        guard !echo ? canSilence : true else {
            throw LoginInputError(message: "cannot turn off echo on this terminal; use --password-stdin")
        }
        guard let line = readLine(strippingNewline: true) else {
            throw LoginInputError(message: "no input")
        }
        return line
    }
}
