import Foundation
import SusiCore
import SusiSpeech

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
        let action = try arguments.required("an action (list, get or set)")
        switch action {
        case "list":
            try arguments.finish()
            let catalog = try ESpeakEngine.shared().catalog
            for voice in catalog.voices where !voice.needsMBROLA {
                let language = voice.languages.first?.code ?? "?"
                context.print(
                    "\(voice.identifier.padding(toLength: 16, withPad: " ", startingAt: 0)) "
                        + "\(language.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                        + "\(voice.name.replacingOccurrences(of: "_", with: " ")) (\(voice.gender.rawValue))")
            }
            context.print("accents: " + AccentCatalog.names.joined(separator: ", "))
            context.print("variants: " + catalog.variants.map(\.identifier).sorted().joined(separator: " "))
        case "get":
            try arguments.finish()
            let config = try context.store.load()
            context.print(config.tts.variant.isEmpty ? config.tts.voice : "\(config.tts.voice)+\(config.tts.variant)")
        case "set":
            let wanted = try arguments.required("NAME")
            var words = [wanted]
            while let more = try arguments.positional() { words.append(more) }
            try arguments.finish()
            let catalog = try ESpeakEngine.shared().catalog
            let spoken = words.joined(separator: " ")
            guard let voice = catalog.resolve(spoken) else {
                throw SynthesisError(.unknownVoice, "unknown voice '\(spoken)'; `susi voice list` shows the installed ones")
            }
            let identifier = voice.languages.first?.code ?? voice.identifier
            let config = try context.store.set([("tts.voice", identifier)] + (variant.map { [("tts.variant", $0)] } ?? []))
            context.print(
                "tts.voice = \(config.tts.voice)" + (config.tts.variant.isEmpty ? "" : ", tts.variant = \(config.tts.variant)"))
        default:
            throw UsageError("unknown action '\(action)'; expected list, get or set")
        }
    }
}
