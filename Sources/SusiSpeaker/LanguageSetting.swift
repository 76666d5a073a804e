import SusiCore
import SusiSpeech
import Synchronization

/// `susi language set CODE`: the language SUSI answers in (`brain.language`) and a voice that
/// speaks it (`tts.voice`), changed together, since the config's cross-check refuses either
/// alone when they disagree.
///
/// Speech recognition stays English whatever the language: PocketSphinx's `en-us` model is the
/// only one Debian packages.
public enum LanguageSetting {
    /// The voice for `language`: the configured one when it already speaks it (an accent
    /// choice such as `en-gb-scotland` survives `language set en`), else eSpeak NG's voice of
    /// that language. Nil when eSpeak NG has none.
    public static func voice(for language: String, configured: String, catalog: VoiceCatalog) -> String? {
        let wanted = language.lowercased()
        if let current = catalog.resolve(configured),
            current.languages.contains(where: { $0.code == wanted || $0.code.hasPrefix(wanted + "-") })
        {
            return configured
        }
        guard let voice = catalog.resolve(wanted), !voice.needsMBROLA else { return nil }
        return voice.languages.first?.code ?? voice.identifier
    }

    /// Sets `brain.language` to `language` and `tts.voice` to a voice of it in one atomic save.
    ///
    /// - Throws: `config-bad-value` for a language eSpeak NG has no voice for (or that is not
    ///   two letters), and the store's failures.
    public static func apply(_ language: String, store: ConfigStore, catalog: VoiceCatalog) throws(ConfigError) -> Config {
        let code = language.trimmingCharacters(in: .whitespaces).lowercased()
        let current = try store.loadOrCreate()
        guard let voice = voice(for: code, configured: current.tts.voice, catalog: catalog) else {
            throw ConfigError(
                .badValue, "eSpeak NG has no voice for language '\(code)'; `susi voice list` shows the languages it speaks")
        }
        return try store.set([("brain.language", code), ("tts.voice", voice)])
    }

    /// The one-time warning for a `brain.language` other than English: answers come in that
    /// language, commands must still be spoken in English. Nil for English.
    public static func recognitionNote(for config: Config) -> String? {
        guard config.brain.language.lowercased() != "en" else { return nil }
        return "brain.language is '\(config.brain.language)': answers come in that language, but commands must "
            + "still be spoken in English (the recogniser has only PocketSphinx's en-us model)"
    }
}

/// Says `LanguageSetting.recognitionNote` once per language: at start, and again only when
/// `brain.language` changes to another language than English during a run.
public final class LanguageNotice: Sendable {
    private let noted = Mutex<String?>(nil)

    /// A notice that has said nothing yet.
    public init() {}

    /// The note for `config` when its language is not the one last noted; else nil.
    public func note(for config: Config) -> String? {
        let language = config.brain.language.lowercased()
        let changed = noted.withLock { last in
            defer { last = language }
            return last != language
        }
        return changed ? LanguageSetting.recognitionNote(for: config) : nil
    }
}
