import SusiCore

/// A failure of the pipeline itself (no answer heard, nothing recognised), as an `error` event.
public struct PipelineError: SusiError, Equatable {
    public let stage: Stage
    public let code: String
    public let message: String

    public init(stage: Stage, code: String, message: String) {
        self.stage = stage
        self.code = code
        self.message = message
    }

    /// Nobody spoke after the wake word.
    public static let noSpeech = PipelineError(stage: .stt, code: "stt-no-speech", message: "no speech after the wake word")
    /// Speech was heard but no words were recognised.
    public static let nothingRecognised = PipelineError(
        stage: .stt, code: "stt-empty-transcript", message: "speech was heard but no words were recognised")
}
