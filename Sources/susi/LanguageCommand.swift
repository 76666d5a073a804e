import Foundation
import SusiSpeaker

/// `susi language get|set CODE`: the language SUSI answers in and a voice of it, together.
enum LanguageCommand: Command {
    static let name = "language"
    static let summary = "the language SUSI answers in, with a matching voice"
    static let usage = """
          susi language get        brain.language and tts.voice
          susi language set CODE   set brain.language (ISO 639-1: de, fr, es, ...) and a
                                   tts.voice that speaks it, together. Commands are still
                                   heard in English (PocketSphinx has only en-us)
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.action("get", "set")
        switch action {
        case "get":
            try arguments.finish()
            let config = try context.store.loadOrCreate()
            context.print("brain.language = \(config.brain.language), tts.voice = \(config.tts.voice)")
        default:
            let code = try arguments.required("CODE")
            try arguments.finish()
            let config = try LanguageSetting.apply(code, store: context.store)
            context.print("brain.language = \(config.brain.language), tts.voice = \(config.tts.voice)")
            if let note = LanguageSetting.recognitionNote(for: config) { context.logger.warning(note) }
        }
    }
}
