import SusiModel
import SusiSpeech

/// Checks `tts.voice` and `tts.variant` against the installed eSpeak NG voices and the
/// language SUSI answers in (`brain.language`): a voice that cannot say the answers is no use.
public enum VoiceCatalogCheck {
    /// The problem with `config`'s voice in one line, or nil when it can speak the answers.
    public static let check: @Sendable (Config) -> String? = { config in
        let catalog: VoiceCatalog
        do {
            catalog = try ESpeakEngine.shared().catalog
        } catch {
            return "cannot check tts.voice: \(error)"
        }
        let name = config.tts.voice
        guard let voice = catalog.resolve(name) else {
            return "tts.voice '\(name)' is not an installed eSpeak NG voice; `susi voice list` shows them"
        }
        if voice.needsMBROLA { return "tts.voice '\(name)' needs MBROLA, which is not installed" }
        let language = config.brain.language
        guard voice.languages.contains(where: { $0.code == language || $0.code.hasPrefix(language + "-") }) else {
            let speaks = voice.languages.first?.code ?? "another language"
            // Either key may be the one just changed: name both, and the command that changes
            // them together, so a one-key change is never a dead end.
            let base = String(speaks.split(separator: "-").first ?? Substring(speaks))
            return "tts.voice '\(name)' speaks \(speaks) (\(voice.name.replacingOccurrences(of: "_", with: " "))), "
                + "but SUSI answers in '\(language)' (brain.language): change both together with "
                + "`susi language set \(language)` (or set brain.language back to '\(base)'); "
                + "`susi config set brain.language \(language) tts.voice VOICE` also sets both at once"
        }
        if !config.tts.variant.isEmpty, catalog.resolveVariant(config.tts.variant) == nil {
            return "tts.variant '\(config.tts.variant)' is not an installed eSpeak NG variant"
        }
        return nil
    }
}
