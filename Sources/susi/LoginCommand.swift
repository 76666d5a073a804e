import Foundation
import SusiCore
import SusiNet
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
