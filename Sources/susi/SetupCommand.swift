/// `susi setup`: the setup/control server for the SUSI apps (issue #8).
enum SetupCommand: Command {
    static let name = "setup"
    static let summary = "the setup/control HTTP server for the SUSI apps"
    static let usage = "  susi setup serve [--port N]\n  susi setup --reset"
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the setup server, issue #8")
    }
}
