/// Maps the engine names the apps send to the engines this speaker runs.
///
/// The apps offer cloud engines (`google`, `watson`, `bing`); this speaker works offline with
/// PocketSphinx and eSpeak NG. Rather than failing the app's setup flow, every name maps to
/// the offline engine and the reply's `note` says so.
public enum EngineNames {
    /// The speech recogniser `stt.engine` accepts.
    public static let recognizer = "pocketsphinx"
    /// The speech synthesizer this speaker uses.
    public static let synthesizer = "espeak-ng"

    private static let recognizerAliases: Set<String> = ["pocketsphinx", "pocket_sphinx", "pocket-sphinx", "sphinx"]
    private static let synthesizerAliases: Set<String> = ["espeak", "espeak-ng", "espeak_ng", "espeakng"]

    /// The recogniser for `requested` (lower-case), and a note when it is not what was asked.
    public static func recognizer(for requested: String) -> (engine: String, note: String?) {
        guard !recognizerAliases.contains(requested) else { return (recognizer, nil) }
        return (recognizer, "stt \(requested) is not available on this speaker; it recognises speech offline with \(recognizer)")
    }

    /// The synthesizer for `requested` (lower-case), and a note when it is not what was asked.
    public static func synthesizer(for requested: String) -> (engine: String, note: String?) {
        guard !synthesizerAliases.contains(requested) else { return (synthesizer, nil) }
        return (synthesizer, "tts \(requested) is not available on this speaker; it speaks offline with \(synthesizer)")
    }
}
