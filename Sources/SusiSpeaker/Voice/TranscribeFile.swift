import SusiAudio
import SusiCore
import SusiModel
import SusiSpeech

/// `susi transcribe`: a WAV file heard whole by the config's `stt.engine`, with no wake word.
public enum TranscribeFile {
    /// What was heard.
    public struct Result: Sendable {
        /// The words heard.
        public let text: String
        /// PocketSphinx's transcript with its word timings; nil when Whisper heard.
        let transcript: Transcript?

        /// `--json`: `{"text", "engine": "whisper"}` from Whisper, else PocketSphinx's
        /// `{"text", "engine": "pocketsphinx", "words"}` (`Transcript.jsonLine`), on one line.
        public func jsonLine() throws -> String {
            guard let transcript else {
                return JSONValue.object(["text": .string(text), "engine": .string("whisper")]).jsonText
            }
            return try transcript.jsonLine()
        }
    }

    /// Hears the WAV file at `path` (any rate and channel count) with the config of `store`:
    /// Whisper for `stt.engine whisper` where it is installed, else PocketSphinx with the
    /// skills' and open questions' models. Blocks while it decodes; `logger` hears the engine.
    /// - Throws: `AudioError` for an unreadable file (before the config is read), the
    ///   config's `ConfigError`, `SetupFailure` without a models directory, `SpeechError`.
    public static func run(path: String, store: ConfigStore, environment: [String: String], logger: Logger) throws -> Result {
        let audio = try AudioConverter.convert(try WAVFile.read(path: path), to: .speech)
        let config = try store.load()
        let models = try Assembly.modelsDirectory(environment: environment)
        if let whisper = Assembly.whisper(config, models: models, logger: logger) {
            return Result(text: try whisper.transcribe(audio.samples), transcript: nil)
        }
        let recognizer = try Assembly.recognizer(config, models: models, environment: environment, logger: logger)
        let transcript = try recognizer.transcribe(audio)
        return Result(text: transcript.text, transcript: transcript)
    }
}
