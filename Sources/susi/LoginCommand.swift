import Foundation
import SusiSpeaker

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
        let terminal = TerminalPrompt()
        if email == nil {
            guard !passwordFromStdin else { throw UsageError("--password-stdin needs --email") }
            email = try terminal.ask("SUSI.AI email: ", echo: true)
        }
        let password = try terminal.password(for: email ?? "", fromInput: passwordFromStdin)
        let session = try AccountLogin.logIn(
            email: email ?? "", password: password, config: config, store: context.store, logger: context.logger)
        let until = session.expiresAt.formatted(.dateTime.year().month().day().hour().minute())
        context.print("Logged in to \(config.brain.server) as \(session.email); the login is valid until \(until).")
    }
}

/// `susi logout`: forgets the stored SUSI.AI token.
enum LogoutCommand: Command {
    static let name = "logout"
    static let summary = "forget the SUSI.AI account token"
    static let usage = "  susi logout"

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        try arguments.finish()
        let removed = try AccountLogin.logOut(store: context.store)
        context.print(removed ? "Logged out." : "Not logged in.")
    }
}
