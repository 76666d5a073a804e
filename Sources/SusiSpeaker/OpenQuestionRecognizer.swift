import SusiCore
import SusiSpeech

/// The generic-model second pass, loaded on first use (it costs about 40 MB).
final class OpenQuestionRecognizer {
    private let make: () throws -> SphinxRecognizer
    private var recognizer: SphinxRecognizer?

    init(models: String, logger: Logger) {
        make = { try Hearing.makeOpenRecognizer(modelsDirectory: models, logger: logger) }
    }

    func transcribe(_ samples: [Int16]) throws -> String {
        let loaded = try recognizer ?? make()
        recognizer = loaded
        return try loaded.transcribe(samples).text
    }
}
