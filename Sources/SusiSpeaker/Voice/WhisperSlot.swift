import SusiCore
import SusiModel
import SusiSpeech

/// The Whisper transcriber for the config in force (`stt.engine`, `stt.whisper_model`,
/// `stt.whisper_threads`, `stt.whisper_timeout_ms`, and `brain.language` for a multilingual
/// model): made when first asked, kept while those stay, made anew when one changes, dropped
/// for `pocketsphinx`.
/// A model that cannot be loaded is logged once per setting, and the speaker hears with
/// PocketSphinx alone meanwhile.
///
/// Used from the pipeline's thread only.
final class WhisperSlot {
    private struct Key: Equatable {
        var model: String
        var threads: Int
        var language: String
        var timeoutMs: Int
    }

    private let directory: String
    private let logger: Logger
    private var loaded: (key: Key, transcriber: WhisperTranscriber)?
    private var failed: Key?

    /// The language Whisper hears in under `config`: English for an English-only model, else
    /// `brain.language`.
    static func language(of config: Config) -> String {
        config.stt.whisperModel.hasSuffix(".en") ? "en" : config.brain.language
    }

    /// A transcriber for `config`'s Whisper settings, from `directory` (`models/whisper`).
    /// - Throws: `SpeechError` when the library or model is missing or does not load.
    static func make(_ config: Config, directory: String) throws(SpeechError) -> WhisperTranscriber {
        try WhisperTranscriber(
            directory: directory, model: config.stt.whisperModel, threads: config.stt.whisperThreads,
            language: language(of: config),
            deadlineSeconds: config.stt.whisperTimeoutMs > 0 ? Double(config.stt.whisperTimeoutMs) / 1000 : nil)
    }

    /// Models from `directory` (`models/whisper`).
    init(directory: String, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// The transcriber for `config`; nil for `stt.engine pocketsphinx` or when Whisper cannot
    /// be loaded.
    func transcriber(for config: Config) -> WhisperTranscriber? {
        guard config.stt.engine == "whisper" else {
            loaded = nil
            return nil
        }
        let key = Key(
            model: config.stt.whisperModel, threads: config.stt.whisperThreads, language: WhisperSlot.language(of: config),
            timeoutMs: config.stt.whisperTimeoutMs)
        if let loaded, loaded.key == key { return loaded.transcriber }
        loaded = nil
        guard failed != key else { return nil }
        do {
            let transcriber = try Self.make(config, directory: directory)
            logger.info("Whisper \(transcriber.version) with \(key.model), \(key.threads) threads, language \(key.language)")
            loaded = (key, transcriber)
            failed = nil
            return transcriber
        } catch {
            logger.warning("\(error.code): \(error.message); hearing with PocketSphinx alone")
            failed = key
            return nil
        }
    }
}
