/// The role of a streaming speech-to-text engine: audio in, as it arrives; a transcript out.
///
/// A recogniser is used from one thread or actor at a time. `process` may block for a few
/// milliseconds per chunk, so call it off the cooperative pool.
public protocol SpeechRecognizer: AnyObject {
    /// Begins an utterance; transcript times count from here.
    func start() throws(SpeechError)
    /// Decodes the next 16 kHz mono samples.
    func process(_ samples: [Int16]) throws(SpeechError)
    /// The best guess so far in the current utterance, nil before anything was recognised.
    var partial: String? { get }
    /// Whether the engine currently hears speech (its own voice activity detection).
    var isInSpeech: Bool { get }
    /// Ends the utterance and returns the final transcript.
    func finish() throws(SpeechError) -> Transcript
}
