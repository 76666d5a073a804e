import SusiModel
import SusiSpeech

/// The voice an answer is read in when SUSI tagged it with a language (`"language":"de"`):
/// the configured one when it speaks that language, else eSpeak NG's voice of the language with
/// the configured variant and prosody; the configured one, too, when eSpeak NG has no voice for
/// the language (an English voice reading it beats silence).
public enum AnswerVoice {
    /// The voice for an answer in `language` under `configured`, checked against `catalog`.
    public static func voice(_ configured: VoiceSettings, forAnswerIn language: String, catalog: VoiceCatalog) -> VoiceSettings {
        let speaks = catalog.resolve(configured.name)?.languages.first.map { code in
            String(code.code.split(separator: "-").first ?? Substring(code.code)).lowercased()
        }
        var chosen = configured.speaking(language, speaks: speaks)
        guard chosen != configured else { return configured }
        if catalog.resolve(chosen.name) == nil {
            // "pt-xx" unknown: the language's own voice ("pt") will do.
            chosen.name = String(chosen.name.split(separator: "-").first ?? "")
        }
        return catalog.resolve(chosen.name) == nil ? configured : chosen
    }

    /// `voice(_:forAnswerIn:catalog:)` with the installed voices; the name's language alone
    /// when eSpeak NG cannot be asked.
    public static func voice(_ configured: VoiceSettings, forAnswerIn language: String) -> VoiceSettings {
        guard let catalog = try? ESpeakEngine.shared().catalog else { return configured.speaking(language) }
        return voice(configured, forAnswerIn: language, catalog: catalog)
    }
}
