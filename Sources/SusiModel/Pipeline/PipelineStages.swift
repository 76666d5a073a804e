import SusiCore

/// The roles the voice pipeline is built from. Real implementations live in SusiSpeech
/// (PocketSphinx, eSpeak NG), SusiAudio (PortAudio) and SusiBrain; tests use fakes.
/// All are driven from the pipeline's one thread.

/// Delivers 16 kHz mono audio to the pipeline.
public protocol AudioSource: AnyObject {
    /// The next `milliseconds` of input; blocks until all of it is there (a microphone, or a
    /// file paced at real time). Shorter only at the end of the input; nil after it.
    func read(milliseconds: Int) throws -> AudioChunk?
    /// Audio that has already arrived, without waiting; nil when there is none. Used while
    /// speaking, to hear "susi stop". A file read as fast as possible returns nil: its input
    /// waits while the speaker talks.
    func readAvailable() throws -> AudioChunk?
}

/// Spots the wake phrase in the continuous microphone stream.
///
/// Used from one thread at a time; `process` may block briefly, so call it off the
/// cooperative pool.
public protocol WakeWordDetector: AnyObject {
    /// Consumes the next 16 kHz mono samples and returns the phrases that ended in them
    /// (usually none), in order; afterwards the detector is ready for the next one.
    func process(_ samples: [Int16]) throws -> [WakeWordDetection]
    /// Forgets any partly heard phrase; positions keep counting.
    func reset() throws
    /// Milliseconds of audio consumed so far.
    var position: Int { get }
    /// How many more samples the detector must be given before it can next decide: where
    /// its current step ends (a neural detector decides only at the ends of its steps). The
    /// pipeline reads idle input up to there, so a decision is not held up by the rest of a
    /// read. Nil (the default) when it may decide after any sample.
    var framesToNextDecision: Int? { get }
}

extension WakeWordDetector {
    /// Nil: the detector may decide after any sample.
    public var framesToNextDecision: Int? { nil }
}

/// Turns one spoken utterance into text, decoding while the audio arrives.
///
/// Used from one thread at a time; `process` may block for a few milliseconds per chunk.
public protocol SpeechRecognizer: AnyObject {
    /// Begins an utterance; transcript times count from here. `recent` is the input just
    /// before it (up to a second, possibly empty): an engine may decode it first, for nothing
    /// but to adapt to the room and the voice.
    func start(adaptingTo recent: [Int16]) throws
    /// Decodes the next 16 kHz mono samples.
    func process(_ samples: [Int16]) throws
    /// The best guess so far in the current utterance; nil before anything was recognised.
    var partial: String? { get }
    /// Whether the engine currently hears speech (its own voice activity detection).
    var isInSpeech: Bool { get }
    /// Ends the utterance and returns the final transcript.
    func finish() throws -> Transcript
    /// Whether `resume` can reopen an utterance that `finish` ended.
    var canResume: Bool { get }
    /// Reopens the utterance the last `finish` ended, as if it had not ended: decoding goes
    /// on after all of its audio. So a pause can be given a final transcript, and the person
    /// can still go on speaking.
    func resume() throws
}

extension SpeechRecognizer {
    /// Engines cannot reopen an utterance unless they say so.
    public var canResume: Bool { false }
    public func resume() throws {}
}

/// Hears a whole utterance at once, after it ended (Whisper), where the streaming
/// `SpeechRecognizer` hears it as it comes.
///
/// Used from one thread at a time; blocks for the transcription (a few hundred ms).
public protocol UtteranceTranscriber: AnyObject {
    /// The words of `samples` (16 kHz mono); empty when nothing was said.
    func transcribe(_ samples: [Int16]) throws -> String
}

/// Answers a query in the SUSI chat.json shape (local skills, the SUSI server, or both).
public protocol ChatBrain: AnyObject {
    /// The reply to `query`; throws a stage `.brain` error when no answer could be had.
    func answer(_ query: String) throws -> ChatResponse
    /// How a skill understands `text` as a whole command (so the endpointer may stop after a
    /// short silence); nil when none does.
    ///
    /// Asked at several points of every pause, so it must be cheap and must not block: match
    /// the words (`Brain.match`), never fetch, render or ask a server.
    func understanding(of text: String) -> CommandUnderstanding?
}

extension ChatBrain {
    /// Whether `text` already is a whole command that a skill matches fully.
    public func isCompleteCommand(_ text: String) -> Bool { understanding(of: text) != nil }
}

/// How a skill understands a command: what one reading of the speech is worth.
public struct CommandUnderstanding: Sendable, Equatable {
    /// The words the skill's wildcards took that nothing checked: "play *" takes any title,
    /// "what is * plus *" has its numbers checked by a skill function, so it counts none.
    public var uncheckedWords: Int

    /// A whole command whose wildcards took `uncheckedWords` words nothing checked.
    public init(uncheckedWords: Int = 0) {
        self.uncheckedWords = uncheckedWords
    }

    /// The most unchecked words a reading may owe to wildcards and still be taken as the
    /// skill's command without hearing the speech again with the open-question model. Loose
    /// wildcards ("what is *", "play *") catch most misheard questions; on the dev corpus
    /// and questions (bench/RESULTS.md), hearing those again doubled the key words sent,
    /// raised command intent accuracy, and decoded 8% of commands twice (0: 18%).
    public static let sureLimit = 2

    /// Whether the reading can be taken as this skill's command as it is (`sureLimit`).
    public var isSure: Bool { uncheckedWords <= Self.sureLimit }
}

/// Speaks text as audio chunks, streaming while it synthesises.
public protocol SpeechSynthesizer: AnyObject {
    /// The format of every chunk delivered.
    var format: AudioFormat { get }
    /// Synthesises `text` with `voice`, handing each chunk to `onChunk` as soon as it is
    /// produced; return false from `onChunk` to stop (barge-in). Blocks until done or stopped.
    func synthesize(_ text: String, voice: VoiceSettings, onChunk: (AudioChunk) -> Bool) throws -> SynthesisEnd
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
