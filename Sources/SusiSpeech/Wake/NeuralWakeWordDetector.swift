import SusiCore

/// Wake word spotting with a trained neural classifier (openWakeWord's recipe): a frozen
/// front end turns the audio into a 96-value embedding every 80 ms (`WakeWordFrontEnd`,
/// TensorFlow Lite), and a small network trained for the phrase on synthetic speech
/// (`WakeWordHead`, plain Swift) scores the last 16 of them.
///
/// A detection is decided at the 80 ms step where the score has reached the threshold in the
/// head's number of windows in a row (one or two); its end is placed the head's measured
/// decision delay earlier, its start 600 ms before that (an estimate: the network does not
/// say where the word began). After a detection the window
/// starts empty, so the same word does not wake twice. Not thread-safe: one thread at a time.
public final class NeuralWakeWordDetector: WakeWordDetector {
    /// The phrase the head was trained for.
    public let phrase: String
    /// The score at or above which the phrase counts.
    public let threshold: Double
    private let frontEnd: WakeWordFrontEnd
    private let head: WakeWordHead
    private let context: AcousticContext?
    private let logger: Logger
    /// The last embeddings, oldest first, flattened; at most `head.windowLength` of them.
    private var window: [Float] = []
    private var samplesConsumed = 0
    /// Windows in a row so far that scored at or above the threshold.
    private var run = 0
    /// The highest score since creation (for benchmarks and logs).
    public private(set) var highestScore = 0.0

    /// How long before its end a detected phrase is taken to start, in milliseconds.
    static let assumedPhraseMilliseconds = 600

    /// The front end's files in `frontEndDirectory` (`libtensorflowlite_c.so`,
    /// `melspectrogram.tflite`, `embedding_model.tflite`) and the head at `headPath`;
    /// `threshold` overrides the head's own. Input is left in `context` as it arrives.
    ///
    /// - Throws: `wake-model-missing` when a file is absent, `wake-init-failed` when one
    ///   cannot be used.
    public init(
        frontEndDirectory: String, headPath: String, threshold: Double? = nil, context: AcousticContext? = nil,
        logger: Logger = .silent
    ) throws(SpeechError) {
        head = try WakeWordHead(contentsOf: headPath)
        frontEnd = try WakeWordFrontEnd(directory: frontEndDirectory)
        phrase = head.phrase
        self.threshold = threshold ?? head.threshold
        self.context = context
        self.logger = logger
        logger.debug("listening for \"\(phrase)\" with the neural detector at \(self.threshold)")
    }

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
        context?.append(samples)
        samplesConsumed += samples.count
        var detections: [WakeWordDetection] = []
        let width = head.windowLength * WakeWordFrontEnd.features
        try frontEnd.process(samples) { embedding, endSample throws(SpeechError) in
            window += embedding
            if window.count > width { window.removeFirst(window.count - width) }
            guard window.count == width else { return }
            let score = head.score(window)
            highestScore = max(highestScore, score)
            run = score >= threshold ? run + 1 : 0
            guard run >= head.steps else { return }
            let decided = endSample / 16
            let end = max(0, decided - head.decisionDelayMilliseconds)
            let detection = WakeWordDetection(
                phrase: phrase, startMilliseconds: max(0, end - Self.assumedPhraseMilliseconds),
                endMilliseconds: end, decidedAtMilliseconds: decided)
            logger.info("heard \"\(phrase)\" ending at \(end) ms (score \(score))")
            detections.append(detection)
            window.removeAll(keepingCapacity: true)
            run = 0
        }
        return detections
    }

    /// Forgets any partly heard phrase (the window starts empty); positions keep counting.
    public func reset() throws(SpeechError) {
        window.removeAll(keepingCapacity: true)
        run = 0
    }
}
