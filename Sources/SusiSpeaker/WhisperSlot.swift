import SusiCore
import SusiSpeech

/// The Whisper transcriber for the config in force (`stt.engine`, `stt.whisper_model`,
/// `stt.whisper_threads`, and `brain.language` for a multilingual model): made when first
/// asked, kept while those stay, made anew when one changes, dropped for `pocketsphinx`.
/// A model that cannot be loaded is logged once per setting, and the speaker hears with
/// PocketSphinx alone meanwhile.
///
/// Used from the pipeline's thread only.
final class WhisperSlot {
    private struct Key: Equatable {
        var model: String
        var threads: Int
        var language: String
    }

    private let directory: String
    private let logger: Logger
    private var loaded: (key: Key, transcriber: WhisperTranscriber)?
    private var failed: Key?

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
        let model = config.stt.whisperModel
        let key = Key(
            model: model, threads: config.stt.whisperThreads, language: model.hasSuffix(".en") ? "en" : config.brain.language)
        if let loaded, loaded.key == key { return loaded.transcriber }
        loaded = nil
        guard failed != key else { return nil }
        do {
            let transcriber = try WhisperTranscriber(
                directory: directory, model: key.model, threads: key.threads, language: key.language)
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
