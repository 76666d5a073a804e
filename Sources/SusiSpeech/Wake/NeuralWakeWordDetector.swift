import SusiCore

/// Wake word spotting with a trained neural classifier (openWakeWord's recipe): a frozen
/// front end turns the audio into a 96-value embedding every 80 ms (`WakeWordFrontEnd`,
/// TensorFlow Lite), and a small network trained for the phrase on synthetic speech
/// (`WakeWordHead`, plain Swift) scores the last 16 of them.
///
/// A detection is decided at the 80 ms step where the score has reached the threshold in the
/// head's number of windows in a row (one or two); its end is placed the head's measured
/// decision delay earlier, its start 600 ms before that (an estimate: the network does not
/// say where the word began). After a detection no other is made for a window's length
/// (1.28 s), so the same word does not wake twice. Not thread-safe: one thread at a time.
public final class NeuralWakeWordDetector: WakeWordDetector {
    /// The phrase the head was trained for.
    public let phrase: String
    /// The score at or above which the phrase counts.
    public let threshold: Double
    private let frontEnd: WakeWordFrontEnd
    private let head: WakeWordHead
    private let logger: Logger
    /// The last `head.windowLength` embeddings, oldest first, flattened.
    private var window: [Float]
    /// The window of a quiet room, which `reset` and the start begin from.
    private let quietWindow: [Float]
    /// Samples the front end heard before the first input (the quiet room).
    private let warmUpSamples: Int
    private var samplesConsumed = 0
    /// Windows in a row so far that scored at or above the threshold.
    private var run = 0
    /// Steps left in which no detection is made, after one.
    private var cooldown = 0
    /// The highest score since creation (for benchmarks and logs).
    public private(set) var highestScore = 0.0
    /// The scores of the last few detections, by the time they were decided.
    private var recentScores: [(decided: Int, score: Double)] = []

    /// How long before its end a detected phrase is taken to start, in milliseconds.
    static let assumedPhraseMilliseconds = 600
    /// The quiet room the front end hears first: 2.56 s, a whole window and the front end's
    /// own 800 ms, in samples (a multiple of the 80 ms step).
    static let warmUpLength = 32 * WakeWordFrontEnd.chunkLength

    /// A faint, deterministic noise floor (about ±8), as a quiet microphone gives.
    private struct QuietRoom {
        private var state: UInt32 = 12_345
        mutating func next() -> Int16 {
            state = state &* 1_103_515_245 &+ 12_345
            return Int16(Int(state >> 16) % 17 - 8)
        }
    }

    /// The front end's files in `frontEndDirectory` (`libtensorflowlite_c.so`,
    /// `melspectrogram.tflite`, `embedding_model.tflite`) and the head at `headPath`;
    /// `threshold` overrides the head's own. `accelerated` runs the front end on XNNPACK's
    /// kernels when the library has them (the same scores, a third of the CPU time).
    ///
    /// - Throws: `wake-model-missing` when a file is absent, `wake-init-failed` when one
    ///   cannot be used.
    public init(
        frontEndDirectory: String, headPath: String, threshold: Double? = nil, accelerated: Bool = true,
        logger: Logger = .silent
    ) throws(SpeechError) {
        head = try WakeWordHead(contentsOf: headPath)
        frontEnd = try WakeWordFrontEnd(directory: frontEndDirectory, accelerated: accelerated)
        phrase = head.phrase
        self.threshold = threshold ?? head.threshold
        self.logger = logger
        // The front end needs about 2 s of audio before its first full window. It hears a
        // quiet room first, so that a name said at once (or right after the pipeline's
        // voice gate opens) is heard; the training phrases came after quiet or speech too.
        var generator = QuietRoom()
        let quiet = (0..<Self.warmUpLength).map { _ in generator.next() }
        var embeddings: [Float] = []
        try frontEnd.process(quiet) { embedding, _ in embeddings += embedding }
        let width = head.windowLength * WakeWordFrontEnd.features
        guard embeddings.count >= width else {
            throw SpeechError(.wakeInitFailed, "the wake word front end gave no embeddings")
        }
        frontEnd.rememberQuiet()
        quietWindow = Array(embeddings.suffix(width))
        window = quietWindow
        warmUpSamples = Self.warmUpLength
        logger.debug(
            "listening for \"\(phrase)\" with the neural detector at \(self.threshold)"
                + (frontEnd.isAccelerated ? " (XNNPACK)" : " (TensorFlow Lite's reference kernels)"))
    }

    /// Whether the front end runs on XNNPACK's kernels.
    public var isAccelerated: Bool { frontEnd.isAccelerated }

    /// The default places: `modelsDirectory/hotword/frontend` and
    /// `modelsDirectory/hotword/<phrase, spaces as ->.head.json`.
    public static func files(modelsDirectory: String, phrase: String) -> (frontEnd: String, head: String) {
        let name = phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
        return (modelsDirectory + "/hotword/frontend", modelsDirectory + "/hotword/\(name).head.json")
    }

    /// Milliseconds of audio consumed since creation.
    public var position: Int { samplesConsumed / 16 }

    /// Consumes the next 16 kHz mono samples; returns the phrases decided in them.
    public func process(_ samples: [Int16]) throws(SpeechError) -> [WakeWordDetection] {
        samplesConsumed += samples.count
        var detections: [WakeWordDetection] = []
        try frontEnd.process(samples) { embedding, endSample throws(SpeechError) in
            window.removeFirst(WakeWordFrontEnd.features)
            window += embedding
            let score = head.score(window)
            highestScore = max(highestScore, score)
            run = score >= threshold ? run + 1 : 0
            if cooldown > 0 { cooldown -= 1 }
            guard run >= head.steps, cooldown == 0 else { return }
            let decided = (endSample - warmUpSamples) / 16
            let end = max(0, decided - head.decisionDelayMilliseconds)
            let detection = WakeWordDetection(
                phrase: phrase, startMilliseconds: max(0, end - Self.assumedPhraseMilliseconds),
                endMilliseconds: end, decidedAtMilliseconds: decided)
            logger.info("heard \"\(phrase)\" ending at \(end) ms (score \(score))")
            detections.append(detection)
            recentScores.append((decided, score))
            if recentScores.count > 8 { recentScores.removeFirst() }
            // The same word keeps scoring high for a few steps: one window's worth of rest.
            cooldown = head.windowLength
            run = 0
        }
        return detections
    }

    /// Whether `detection` (one of the last few this detector made) scored at or above the
    /// head's sure threshold, where the validation negatives gave no false wake: a second
    /// check can let it through (`VerifiedWakeWordDetector`'s `trusted`).
    public func isSure(_ detection: WakeWordDetection) -> Bool {
        recentScores.contains { $0.decided == detection.decidedAtMilliseconds && $0.score >= head.sureThreshold }
    }

    /// Forgets any partly heard phrase (the window and the front end's recent frames are a
    /// quiet room's again); positions keep counting.
    public func reset() throws(SpeechError) {
        window = quietWindow
        frontEnd.forgetHistory()
        run = 0
        cooldown = 0
    }
}
