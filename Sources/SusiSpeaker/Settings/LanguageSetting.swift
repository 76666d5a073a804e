import Foundation
import SusiCore
import SusiModel
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
    /// choice such as `en-gb-scotland` survives `language set en`), else `remembered` (the
    /// voice the speaker had when it last left that language) when it speaks it, else the
    /// default voice (`en-us`) when it speaks it, else eSpeak NG's voice of that language (for
    /// English that would be `en-gb`). Nil when eSpeak NG has none.
    public static func voice(
        for language: String, configured: String, remembered: String? = nil, catalog: VoiceCatalog
    ) -> String? {
        let wanted = language.lowercased()
        let candidates = [configured, remembered, Config().tts.voice].compactMap { $0 }
        if let speaking = candidates.first(where: { name in
            catalog.resolve(name)?.languages.contains { $0.code == wanted || $0.code.hasPrefix(wanted + "-") } == true
        }) {
            return speaking
        }
        guard let voice = catalog.resolve(wanted), !voice.needsMBROLA else { return nil }
        return voice.languages.first?.code ?? voice.identifier
    }

    /// Sets `brain.language` to `language` and `tts.voice` to a voice of it in one atomic save.
    /// The voice it replaces is kept for the language it spoke (`language-voices.json` beside
    /// the config), so switching back brings it back: en-us, then `de`, then `en` is en-us.
    ///
    /// - Throws: `config-bad-value` for a language eSpeak NG has no voice for (or that is not
    ///   two letters), and the store's failures.
    public static func apply(_ language: String, store: ConfigStore, catalog: VoiceCatalog) throws(ConfigError) -> Config {
        let code = language.trimmingCharacters(in: .whitespaces).lowercased()
        let current = try store.loadOrCreate()
        let kept = KeptVoices(store: store)
        guard let voice = voice(for: code, configured: current.tts.voice, remembered: kept.voice(for: code), catalog: catalog)
        else {
            throw ConfigError(
                .badValue, "eSpeak NG has no voice for language '\(code)'; `susi voice list` shows the languages it speaks")
        }
        if voice != current.tts.voice { try kept.keep(current.tts.voice, for: current.brain.language) }
        return try store.set([("brain.language", code), ("tts.voice", voice)])
    }

    /// `apply(_:store:catalog:)` with the installed eSpeak NG voices (`susi language set`).
    /// - Throws: `SynthesisError` when eSpeak NG cannot be loaded, and what `apply` throws.
    public static func apply(_ language: String, store: ConfigStore) throws -> Config {
        try apply(language, store: store, catalog: try ESpeakEngine.shared().catalog)
    }

    /// The one-time warning for a `brain.language` other than English: answers come in that
    /// language, and commands are heard in it only by Whisper's multilingual model
    /// (`stt.engine whisper`, `stt.whisper_model base`), else they must be spoken in English.
    /// Nil for English, and when that model hears the language.
    public static func recognitionNote(for config: Config) -> String? {
        guard config.brain.language.lowercased() != "en" else { return nil }
        guard config.stt.engine != "whisper" || config.stt.whisperModel.hasSuffix(".en") else { return nil }
        return "brain.language is '\(config.brain.language)': answers come in that language, but commands must "
            + "still be spoken in English; `susi config set stt.engine whisper stt.whisper_model base` hears them in "
            + "'\(config.brain.language)' too"
    }
}

/// The voice each language last had, for `LanguageSetting.apply` to bring back: a JSON object
/// from language code to voice name in `language-voices.json` beside the config (0600).
struct KeptVoices {
    let path: String

    init(store: ConfigStore) {
        path = store.state.languageVoices
    }

    /// The voice kept for `language`; nil when none is, or the file is unreadable.
    func voice(for language: String) -> String? {
        all()[language.lowercased()]
    }

    /// Keeps `voice` for `language`, replacing the one kept before.
    func keep(_ voice: String, for language: String) throws(ConfigError) {
        var voices = all()
        voices[language.lowercased()] = voice
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write((try? encoder.encode(voices)) ?? Data("{}".utf8), to: path)
    }

    private func all() -> [String: String] {
        guard let data = try? AtomicFile.read(path, limit: 64 * 1024) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
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
