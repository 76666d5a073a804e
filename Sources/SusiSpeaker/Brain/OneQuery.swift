import Foundation
import SusiBrain
import SusiCore
import SusiModel
import SusiPipeline

/// `susi ask`: one query to the brain, answered as the speaker would answer it.
public enum OneQuery {
    /// The brain of `config` (or of `mode`, with `server` for remote): the built-in skills of
    /// `environment`'s models directory, the SUSI server with the account of `store`. The
    /// hybrid brain's offline answers are logged as warnings.
    public static func brain(
        config: Config, mode: ChatBrainFactory.Mode?, server: String?, store: ConfigStore, environment: [String: String],
        logger: Logger
    ) throws -> any ChatBrain & Sendable {
        let skills = try Assembly.brain(environment: environment, logger: logger)
        // One query, then the process ends: freeing a large skill set on the way out is wasted.
        skills.keepUntilExit()
        // The names last fetched by `susi run`: enough to show which entities a command names.
        let home =
            config.homeAssistant.url.isEmpty
            ? nil : HomeDirectory.read(from: Assembly.cacheDirectory(environment: environment))
        let local = LocalChatBrain(brain: skills, context: { Assembly.brainContext(config, home: home) })
        return Assembly.chatBrain(config: config, mode: mode, server: server, local: local, store: store, logger: logger) {
            error in logger.warning("the SUSI server failed (\(error.code)): \(error.message); answering offline")
        }
    }

    /// What the speaker would say for `reply`, one line per action that speaks (other
    /// actions in brackets), with terminal escape codes removed: the answer comes from a server.
    /// - Throws: `PipelineError` (`brain-no-answer`) when nothing would be said.
    public static func spokenLines(_ reply: ChatResponse, query: String) throws(PipelineError) -> [String] {
        let spoken = SpokenText.lines(for: reply)
        guard !spoken.isEmpty else {
            throw PipelineError(stage: .brain, code: "brain-no-answer", message: "no answer for '\(query)'")
        }
        // Stripping can leave a line end with nothing after it ("four.\r" and an escape code).
        return spoken.map { ControlCharacters.strippedForTerminal($0).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
