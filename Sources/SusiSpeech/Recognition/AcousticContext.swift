/// The last second of audio the wake word detector heard, handed to the recogniser so that
/// it can adapt to the room before the command.
///
/// PocketSphinx's front end adapts as it hears (live cepstral mean normalisation, noise
/// and voice-activity levels), and a recogniser that starts right after the wake word would
/// decode the first words of a command with the levels of the previous one. Decoding the
/// wake word's second first, and throwing the result away, cut command word errors in
/// 10 dB pink noise on the dev corpus (bench/RESULTS.md). Used from the pipeline's one
/// thread; not thread-safe.
public final class AcousticContext {
    /// How much recent audio is kept, in samples (1 s at 16 kHz).
    public let capacity: Int
    /// The most recent input, oldest first, at most `capacity` samples.
    public private(set) var recentAudio: [Int16] = []

    /// An empty context keeping `capacity` samples.
    public init(capacity: Int = 16_000) {
        self.capacity = capacity
    }

    /// Appends what the detector just heard, dropping the oldest beyond `capacity`.
    public func append(_ samples: [Int16]) {
        recentAudio += samples
        if recentAudio.count > capacity { recentAudio.removeFirst(recentAudio.count - capacity) }
    }
}
