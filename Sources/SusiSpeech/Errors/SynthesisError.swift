import SusiCore

/// A failure of speech synthesis (stage `tts`).
///
/// `code` is stable (see `SynthesisError.Kind`); `message` names the voice or setting involved.
public typealias SynthesisError = StageError<SynthesisErrorKind>

/// The machine-readable reason; its raw value is the stable `code`.
public enum SynthesisErrorKind: String, StageErrorKind, CaseIterable {
    /// No installed eSpeak NG voice or variant has this name.
    case unknownVoice = "tts-unknown-voice"
    /// The voice is listed but eSpeak NG could not load it (an MBROLA voice without MBROLA).
    case voiceUnavailable = "tts-voice-unavailable"
    /// A rate, pitch or volume outside the range eSpeak NG accepts.
    case invalidSetting = "tts-invalid-setting"
    /// eSpeak NG could not start (data directory missing or unreadable).
    case initFailed = "tts-init-failed"
    /// eSpeak NG reported a failure while synthesising.
    case synthesisFailed = "tts-synthesis-failed"

    public var stage: Stage { .tts }
}
