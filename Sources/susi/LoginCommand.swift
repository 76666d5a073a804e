/// `susi login`: SUSI.AI account (issue #4).
enum LoginCommand: Command {
    static let name = "login"
    static let summary = "log in to a SUSI.AI account"
    static let usage = "  susi login [--email E] [--password-stdin]"
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the SUSI.AI client, issue #4")
    }
}

enum LogoutCommand: Command {
    static let name = "logout"
    static let summary = "forget the SUSI.AI account token"
    static let usage = "  susi logout"
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the SUSI.AI client, issue #4")
    }
}
