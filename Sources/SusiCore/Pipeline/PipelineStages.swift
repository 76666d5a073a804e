/// The roles the voice pipeline is built from. Real implementations live in SusiSpeech
/// (PocketSphinx, eSpeak NG), SusiAudio (PortAudio) and SusiBrain; tests use fakes.
/// All are driven from the pipeline's one thread.

/// Delivers 16 kHz mono audio to the pipeline.
public protocol AudioSource: AnyObject {
    /// The next chunk; blocks until audio is there (a microphone, or a file paced at real
    /// time). Nil at the end of the input.
    func read() throws -> AudioChunk?
    /// Audio that has already arrived, without waiting; nil when there is none. Used while
    /// speaking, to hear "susi stop". A file read as fast as possible returns nil: its input
    /// waits while the speaker talks.
    func readAvailable() throws -> AudioChunk?
}

/// A wake word found in the audio stream.
public struct WakeDetection: Sendable, Equatable {
    /// The phrase heard.
    public var phrase: String
    /// Where the phrase ended, in samples since the detector's stream began.
    public var endSample: Int

    public init(phrase: String, endSample: Int) {
        self.phrase = phrase
        self.endSample = endSample
    }
}

/// Spots the wake phrase in a continuous stream.
public protocol WakeWordDetector: AnyObject {
    /// The phrase listened for.
    var phrase: String { get }
    /// Feeds the next samples of the stream; returns a detection when the phrase ended in
    /// them. Sample positions count every sample ever fed.
    func process(_ samples: [Int16]) throws -> WakeDetection?
    /// Forgets the partial search so the next detection starts fresh; positions keep counting.
    func reset() throws
}

/// Turns one spoken command into text, decoding while audio arrives.
public protocol SpeechRecognizer: AnyObject {
    /// Starts a new utterance.
    func begin() throws
    /// Feeds the next samples of the utterance.
    func process(_ samples: [Int16]) throws
    /// The best guess so far ("" when nothing yet).
    var partialTranscript: String { get }
    /// Ends the utterance and returns the final transcript ("" when nothing was recognised).
    func end() throws -> String
}

/// Answers a query in the SUSI chat.json shape (local skills, the SUSI server, or both).
public protocol ChatBrain: AnyObject {
    /// The reply to `query`; throws a stage `.brain` error when no answer could be had.
    func answer(_ query: String) throws -> ChatResponse
    /// Whether `text` already is a whole command that a skill matches fully, so the
    /// endpointer may stop after a short silence.
    func isCompleteCommand(_ text: String) -> Bool
}

/// Speaks text as audio chunks, streaming.
public protocol SpeechSynthesizer: AnyObject {
    /// Synthesises `text` and hands each chunk to `onChunk` as soon as it exists; stops early
    /// when `onChunk` returns false (barge-in).
    func speak(_ text: String, onChunk: (AudioChunk) throws -> Bool) throws
}

/// Where the speaker's own sound goes: a device or a WAV file.
public protocol AudioSink: AnyObject {
    /// Plays or stores a chunk (any format; the sink converts). May block at real time.
    func play(_ chunk: AudioChunk) throws
    /// Stops at once, dropping what is queued (barge-in).
    func interrupt()
    /// Waits until everything played, then leaves the sink ready for more.
    func drain() throws
}
