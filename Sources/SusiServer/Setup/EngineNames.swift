/// Maps the engine names the apps send to the engines this speaker runs.
///
/// The apps offer cloud engines (`google`, `watson`, `bing`); this speaker works offline with
/// Whisper (or PocketSphinx) and eSpeak NG. Rather than failing the app's setup flow, every
/// other name maps to the offline default and the reply's `note` says so.
public enum EngineNames {
    /// The speech recogniser for names this speaker does not run (`stt.engine`'s default).
    public static let recognizer = "whisper"
    /// The speech synthesizer this speaker uses.
    public static let synthesizer = "espeak-ng"

    private static let recognizerAliases: [String: String] = [
        "pocketsphinx": "pocketsphinx", "pocket_sphinx": "pocketsphinx", "pocket-sphinx": "pocketsphinx",
        "sphinx": "pocketsphinx", "whisper": "whisper", "whisper.cpp": "whisper", "whisper-cpp": "whisper",
    ]
    private static let synthesizerAliases: Set<String> = ["espeak", "espeak-ng", "espeak_ng", "espeakng"]

    /// The recogniser for `requested` (lower-case), and a note when it is not what was asked.
    public static func recognizer(for requested: String) -> (engine: String, note: String?) {
        if let engine = recognizerAliases[requested] { return (engine, nil) }
        return (recognizer, "stt \(requested) is not available on this speaker; it recognises speech offline with \(recognizer)")
    }

    /// The synthesizer for `requested` (lower-case), and a note when it is not what was asked.
    public static func synthesizer(for requested: String) -> (engine: String, note: String?) {
        guard !synthesizerAliases.contains(requested) else { return (synthesizer, nil) }
        return (synthesizer, "tts \(requested) is not available on this speaker; it speaks offline with \(synthesizer)")
    }
}
