/// The role of a wake word spotter: fed every chunk of the microphone stream, it reports
/// each time a wake phrase ends.
///
/// Used from one thread or actor at a time; `process` may block briefly, so call it off the
/// cooperative pool.
public protocol WakeWordDetector: AnyObject {
    /// Consumes the next 16 kHz mono samples and returns the phrases that ended in them
    /// (usually none, rarely more than one), in order. After a detection the detector is
    /// ready for the next one.
    func process(_ samples: [Int16]) throws(SpeechError) -> [WakeWordDetection]
    /// Forgets any partly heard phrase, e.g. after the assistant spoke; positions keep
    /// counting.
    func reset() throws(SpeechError)
    /// Milliseconds of audio consumed so far.
    var position: Int { get }
}
