import Foundation
import SusiModel
import SusiSpeaker

/// `susi ask TEXT [--json] [--local | --server URL]`: one query, printed as it would be spoken.
enum AskCommand: Command {
    static let name = "ask"
    static let summary = "one query to the brain; prints what would be spoken"
    static let usage = """
          susi ask TEXT [--json] [--local | --server URL]
            --local        the built-in skills only (never the network)
            --server URL   a SUSI server only (e.g. http://127.0.0.1:4000 from `susi brain serve`)
            --json         the whole chat.json-shaped reply
        Without --local or --server, brain.mode decides (hybrid by default).
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let json = arguments.flag("--json")
        let local = arguments.flag("--local")
        let server = try arguments.option("--server")
        let words = try arguments.words()
        guard !(local && server != nil) else { throw UsageError("--local and --server exclude each other") }
        if let server, !ConfigSchema.isHTTPURL(server) {
            throw UsageError("--server must be an http:// or https:// URL, not '\(server)'")
        }
        let query = words.joined(separator: " ")
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("missing TEXT") }

        let config = try context.store.load()
        let brain = try OneQuery.brain(
            config: config, mode: local ? .local : server != nil ? .remote : nil, server: server, store: context.store,
            environment: context.environment, logger: context.logger)
        let reply = try brain.answer(query)
        if json {
            context.printJSON(String(decoding: try reply.encoded(pretty: true), as: UTF8.self))
        } else {
            context.print(try OneQuery.spokenLines(reply, query: query))
        }
    }
}
