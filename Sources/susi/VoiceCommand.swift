import Foundation
import SusiSpeaker

/// `susi voice list|get|set NAME [--variant V]`: the eSpeak NG voices and the configured one.
enum VoiceCommand: Command {
    static let name = "voice"
    static let summary = "list eSpeak NG voices, show or change the configured one"
    static let usage = """
          susi voice list                    installed voices: id, language, accent, gender
          susi voice get                     the configured voice (tts.voice, tts.variant)
          susi voice set NAME [--variant V]  change it; NAME is an id (en-gb-scotland) or an
                                             accent (american, british, scottish, caribbean,
                                             received pronunciation, new york, ...)
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let variant = try arguments.option("--variant")
        let action = try arguments.action("list", "get", "set")
        switch action {
        case "list":
            try arguments.finish()
            context.print(try VoiceSetting.listing())
        case "get":
            try arguments.finish()
            let config = try context.store.load()
            context.print(config.tts.variant.isEmpty ? config.tts.voice : "\(config.tts.voice)+\(config.tts.variant)")
        default:
            let words = [try arguments.required("NAME")] + (try arguments.words())
            try arguments.finish()
            let config = try VoiceSetting.apply(words.joined(separator: " "), variant: variant, store: context.store)
            context.print(
                "tts.voice = \(config.tts.voice)" + (config.tts.variant.isEmpty ? "" : ", tts.variant = \(config.tts.variant)"))
        }
    }
}
