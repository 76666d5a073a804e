import SusiCore

/// A failure of speech recognition (stage `stt`) or of the wake word (stage `wake`).
///
/// `code` is stable (see `SpeechError.Kind`); `message` names the model file, word or phrase
/// involved so a person can act on it.
public typealias SpeechError = StageError<SpeechErrorKind>

/// The machine-readable reason; its raw value is the stable `code`.
public enum SpeechErrorKind: String, StageErrorKind, CaseIterable {
    /// An acoustic model directory, dictionary, language model or grammar file is missing.
    case modelMissing = "stt-model-missing"
    /// PocketSphinx refused the configuration, model or search.
    case initFailed = "stt-init-failed"
    /// PocketSphinx failed while decoding audio.
    case decodeFailed = "stt-decode-failed"
    /// A word is not in the pronunciation dictionary.
    case unknownWord = "stt-unknown-word"
    /// A pronunciation uses phones the acoustic model does not have, or is empty.
    case badPronunciation = "stt-bad-pronunciation"
    /// Audio in a format the decoder was not configured for.
    case formatMismatch = "stt-format-mismatch"
    /// The wake word detector could not be set up (model, phrase or threshold).
    case wakeInitFailed = "wake-init-failed"
    /// The neural wake word's front end (TensorFlow Lite, its two models) or the phrase's
    /// classifier head is not installed (`make deps`, `make wakeword`).
    case wakeModelMissing = "wake-model-missing"
    /// A word of the wake phrase is not in the pronunciation dictionary.
    case wakeUnknownWord = "wake-unknown-word"
    /// PocketSphinx failed while listening for the wake word.
    case wakeDecodeFailed = "wake-decode-failed"

    public var stage: Stage { rawValue.hasPrefix("wake-") ? .wake : .stt }
}
