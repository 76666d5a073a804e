import SusiCore
import SusiModel
import SusiSpeech

/// `susi voice list|set`: the installed eSpeak NG voices and the configured one (`tts.voice`,
/// `tts.variant`).
public enum VoiceSetting {
    /// One line per installed voice (id, language, name, gender; MBROLA voices left out, as
    /// they cannot speak here), then the accent names and the variants.
    public static func listing(_ catalog: VoiceCatalog) -> [String] {
        let voices = catalog.voices.filter { !$0.needsMBROLA }.map { voice in
            let language = voice.languages.first?.code ?? "?"
            return "\(voice.identifier.padding(toLength: 16, withPad: " ", startingAt: 0)) "
                + "\(language.padding(toLength: 8, withPad: " ", startingAt: 0)) "
                + "\(voice.name.replacingOccurrences(of: "_", with: " ")) (\(voice.gender.rawValue))"
        }
        return voices + [
            "accents: " + AccentCatalog.names.joined(separator: ", "),
            "variants: " + catalog.variants.map(\.identifier).sorted().joined(separator: " "),
        ]
    }

    /// `listing(_:)` of the installed eSpeak NG voices (`susi voice list`).
    /// - Throws: `SynthesisError` when eSpeak NG cannot be loaded.
    public static func listing() throws(SynthesisError) -> [String] {
        listing(try ESpeakEngine.shared().catalog)
    }

    /// `apply(_:variant:store:catalog:)` with the installed eSpeak NG voices (`susi voice set`).
    /// - Throws: `SynthesisError` when eSpeak NG cannot be loaded, and what `apply` throws.
    public static func apply(_ spoken: String, variant: String?, store: ConfigStore) throws -> Config {
        try apply(spoken, variant: variant, store: store, catalog: try ESpeakEngine.shared().catalog)
    }

    /// Sets `tts.voice` to the voice `spoken` names (an id such as `en-gb-scotland` or an
    /// accent such as `scottish`), and `tts.variant` when given, in one checked save.
    /// - Throws: `SynthesisError` (`tts-unknown-voice`) when no installed voice answers to
    ///   `spoken`; the store's `ConfigError` (a bad variant).
    public static func apply(_ spoken: String, variant: String?, store: ConfigStore, catalog: VoiceCatalog) throws -> Config {
        guard let voice = catalog.resolve(spoken) else {
            throw SynthesisError(.unknownVoice, "unknown voice '\(spoken)'; `susi voice list` shows the installed ones")
        }
        let identifier = voice.languages.first?.code ?? voice.identifier
        return try store.set([("tts.voice", identifier)] + (variant.map { [("tts.variant", $0)] } ?? []))
    }
}
