import Foundation
import SusiModel
import SusiSpeaker

/// `susi wakeword calibrate PHRASE...`: fits the keyphrase search to a wake phrase that has no
/// trained head, and checks it.
enum WakewordCommand: Command {
    static let name = "wakeword"
    static let summary = "calibrate the keyphrase wake word search for a phrase without a trained head"
    static let usage = """
          susi wakeword calibrate PHRASE...
                         work out the PocketSphinx keyphrase threshold for PHRASE from its phone
                         count and check it (the phrase said by six eSpeak NG voices must wake
                         it, eight sentences without it must not); a few seconds. Kept beside the
                         config; `susi config set hotword.phrase` runs it by itself when the
                         phrase has neither a head nor a calibration. Exits 1 when the check fails
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        _ = try arguments.action("calibrate")
        var words = [try arguments.required("PHRASE")]
        while let word = try arguments.positional() { words.append(word) }
        try arguments.finish()
        let phrase = WakePhraseCheck.normalized(words.joined(separator: " "))
        guard ConfigSchema.isPhrase(phrase) else {
            throw UsageError("PHRASE must be one to four words of letters, not '\(phrase)'")
        }
        let store = context.store
        let models = try Assembly.modelsDirectory(environment: context.environment)
        let calibration = try calibrate(phrase, store: store, models: models, context: context)
        if case .head(let head) = WakePhraseCheck.readiness(
            of: phrase, models: models, directory: WakePhraseCheck.directory(store: store))
        {
            context.print("note: \(head) is a trained head for it; the neural engine (hotword.engine neural) uses that")
        }
        guard calibration.passed else {
            throw SetupFailure(
                "the check failed: train a head with `make wakeword PHRASE=\"\(phrase)\"`, or choose a longer, clearer phrase")
        }
    }

    /// Calibrates `phrase`, saying so first (it takes a few seconds) and printing the result.
    static func calibrate(_ phrase: String, store: ConfigStore, models: String, context: CommandContext) throws
        -> WakePhraseCalibration
    {
        TerminalOutput.errorLine("checking the keyphrase search for \"\(phrase)\" (a few seconds)...")
        let calibration = try WakePhraseCalibration.calibrate(phrase, store: store, models: models, logger: context.logger)
        context.print(calibration.line)
        return calibration
    }
}
