import Foundation
import SusiBrain
import SusiCore
import SusiNet
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
        let words = try collectWords(&arguments)
        guard !(local && server != nil) else { throw UsageError("--local and --server exclude each other") }
        if let server, !ConfigSchema.isHTTPURL(server) {
            throw UsageError("--server must be an http:// or https:// URL, not '\(server)'")
        }
        let query = words.joined(separator: " ")
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("missing TEXT") }

        let config = try context.store.load()
        let localBrain = LocalChatBrain(
            brain: try Assembly.brain(environment: context.environment, logger: context.logger),
            context: { Assembly.brainContext(config) })
        let mode: ChatBrainFactory.Mode? = local ? .local : server != nil ? .remote : nil
        let logger = context.logger
        let brain = Assembly.chatBrain(
            config: config, mode: mode, server: server, local: localBrain, store: context.store, logger: logger
        ) {
            error in logger.warning("the SUSI server failed (\(error.code)): \(error.message); answering offline")
        }
        let reply = try brain.answer(query)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.print(String(decoding: try encoder.encode(reply), as: UTF8.self))
            return
        }
        let spoken = SpokenText.lines(for: reply)
        guard !spoken.isEmpty else {
            throw PipelineError(stage: .brain, code: "brain-no-answer", message: "no answer for '\(query)'")
        }
        // The answer comes from a server: its escape codes must not drive the terminal.
        spoken.forEach { context.print(ControlCharacters.strippedForTerminal($0)) }
    }

    /// TEXT may be quoted as one argument or given as several words.
    private static func collectWords(_ arguments: inout ArgumentParser) throws(UsageError) -> [String] {
        var words: [String] = []
        while let word = try arguments.positional() { words.append(word) }
        return words
    }
}
