import SusiCore
import SusiModel

/// Wake word spotting with a trained neural classifier (openWakeWord's recipe): a frozen
/// front end turns the audio into a 96-value embedding every 80 ms (`WakeWordFrontEnd`,
/// TensorFlow Lite), and a small network trained for the phrase on synthetic speech
/// (`WakeWordHead`, plain Swift) scores the last 16 of them.
///
/// A detection is decided at the 80 ms step where the score has reached the threshold in the
/// head's number of windows in a row (one or two); its end is placed the head's measured
/// decision delay earlier, its start 600 ms before that (an estimate: the network does not
/// say where the word began). After a candidate no other is made for a window's length
/// (1.28 s), so the same word does not wake twice. With `confirmSteps` above 0 a candidate
/// is held that many steps more and counts only if the score is still at or above
/// `confirmThreshold` then: the name keeps scoring near 1 for a few hundred milliseconds
/// after its end, while most speech that reached the threshold falls back at once
/// (`bench/RESULTS.md`); a dropped candidate ends the rest it began. A detection whose own
/// score is under the head's sure threshold but whose score has settled at or above it by the
/// end of its next `steadySteps` (the last two of them there) is sure as well (`isSure`): the
/// name said in a voice the head scores lower still settles near 1. With `sureHoldSteps` above
/// 0, one sure by its score stays sure only if the score that many steps after it is still at
/// or above `confirmThreshold` (off by default: measured in `bench/history/RESULTS-2026-12-05.md`, ninth round).
/// `WakeWordDecision` makes these decisions.
///
/// The embedding model is most of the cost, so on a `stride` above 1 it runs only every
/// `stride`th step while nothing is near: the head then scores a window whose skipped steps
/// hold the embedding before them, and only when that rough score reaches `gate` are the
/// skipped embeddings computed (the mel frames are kept for it) and every step scored
/// exactly, until the score falls below `gate` again. Detections are those of every step
/// scored, as long as the rough score reaches the gate wherever an exact one would reach the
/// threshold (`bench/RESULTS.md` measures both); they come back up to `stride - 1` steps
/// later. Not thread-safe: one thread at a time.
public final class NeuralWakeWordDetector: WakeWordDetector {
    /// The phrase the head was trained for.
    public let phrase: String
    /// The score at or above which the phrase counts.
    public let threshold: Double
    /// Steps a detection is held before it counts (0: none).
    public var confirmSteps: Int { decision.confirmSteps }
    /// The score a detection must still have `confirmSteps` after it was decided.
    public var confirmThreshold: Double { decision.confirmThreshold }
    /// Steps a detection not sure by its score is held to see whether it stays at or above
    /// the head's sure threshold (then `isSure` says so); 0: not held for it.
    public var steadySteps: Int { decision.steadySteps }
    /// Which steps' scores make a detection.
    private var decision: WakeWordDecision
    /// The detection of the candidate `decision` holds.
    private var heldDetection: WakeWordDetection?
    /// Candidates dropped because the score fell before the confirmation (for benchmarks).
    public private(set) var unconfirmedCount = 0
    /// Embeddings are computed every `stride`th step while no candidate is near (1: every step).
    public let stride: Int
    /// The rough score (skipped steps held) at or above which every step is scored exactly.
    public let gate: Double
    private let frontEnd: WakeWordFrontEnd
    private let head: WakeWordHead
    private let logger: Logger
    /// The embeddings of the last `head.windowLength + stride - 1` steps, oldest first; nil
    /// where a step was skipped.
    private var slots: [[Float]?]
    /// Where each slot's step ends, in samples fed to the front end.
    private var slotEnds: [Int]
    /// The slots of a quiet room, which `reset` and the start begin from.
    private let quietSlots: [[Float]?]
    /// Steps since the start (to pick every `stride`th).
    private var stepCount = 0
    /// Steps at the end of `slots` not scored yet (skipped while nothing was near).
    private var unscored = 0
    /// Whether every step is being scored exactly (a candidate is near).
    private var exact: Bool
    /// Samples the front end heard before the first input (the quiet room).
    private let warmUpSamples: Int
    private var samplesConsumed = 0
    /// The noise floor kept under the input (see `process`).
    private var floor = QuietRoom()
    /// Embeddings computed since creation, the quiet room's excepted (for benchmarks and tests:
    /// the embedding model is most of the cost).
    public private(set) var embeddingsComputed = 0
    /// The highest score since creation (for benchmarks and logs).
    public private(set) var highestScore = 0.0
    /// The scores of the last few detections, by the time they were decided.
    private var recentScores: [(decided: Int, score: Double, sure: Bool)] = []
    /// Every step's score over the last `stepHistory` steps, by the time it was decided.
    private var stepScores: [(decided: Int, score: Double)] = []
    /// Steps `scores(from:through:)` can look back over (3.2 s).
    static let stepHistory = 40

    /// The default `stride`: stride 2 found what every step finds; stride 3, through `susi run`,
    /// loses names said fast in one breath (`bench/history/RESULTS-2026-12-05.md`, eighth round).
    public static let defaultStride = 2
    /// The default `gate`, a quarter of the threshold (0.37) of the "susi" head that is now
    /// the first of the three joined in the committed one; unchanged since (`bench/RESULTS.md`).
    /// The joined head's threshold (0.04) is under it, so a stride may decide a step later than
    /// every step would; the bench's figures are the default's.
    public static let defaultGate = 0.1
    /// The default `confirmSteps`: one step (80 ms) after the decision.
    public static let defaultConfirmSteps = 1
    /// The default `confirmThreshold`: the highest (in steps of 0.1) that kept every wake word
    /// of the dev corpus's voices (eSpeak NG, flite slt) the detector found (`bench/RESULTS.md`).
    public static let defaultConfirmThreshold = 0.6
    /// The default `steadySteps`: the three steps after the decision (the head's sure
    /// threshold applied to them). Three instead of two halved the false wakes on the held-out
    /// negatives and lost no wake word, for 80 ms more on such a candidate; chosen after
    /// reading those false wakes' scores, so not an independent figure (`bench/RESULTS.md`,
    /// tenth round).
    public static let defaultSteadySteps = 3
    /// The default `sureHoldSteps`: none. Two steps cut one false wake of four on the
    /// held-out negatives but made the wake 100 ms later at the 95th percentile and lost a dev
    /// wake word (`bench/history/RESULTS-2026-12-05.md`, ninth round).
    public static let defaultSureHoldSteps = 0

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
    /// `threshold` and `sureThreshold` override the head's own. `accelerated` runs the front end
    /// on XNNPACK's kernels when the library has them (the same scores, a third of the CPU time);
    /// `stride` and `gate` skip embeddings while nothing is near; `confirmSteps`,
    /// `confirmThreshold`, `steadySteps` and `sureHoldSteps` decide which candidates count and
    /// which are sure (see the type's description).
    ///
    /// - Throws: `wake-model-missing` when a file is absent, `wake-init-failed` when one
    ///   cannot be used.
    public init(
        frontEndDirectory: String, headPath: String, threshold: Double? = nil, sureThreshold: Double? = nil,
        accelerated: Bool = true,
        stride: Int = NeuralWakeWordDetector.defaultStride, gate: Double = NeuralWakeWordDetector.defaultGate,
        confirmSteps: Int = NeuralWakeWordDetector.defaultConfirmSteps,
        confirmThreshold: Double = NeuralWakeWordDetector.defaultConfirmThreshold,
        steadySteps: Int = NeuralWakeWordDetector.defaultSteadySteps,
        sureHoldSteps: Int = NeuralWakeWordDetector.defaultSureHoldSteps, logger: Logger = .silent
    ) throws(SpeechError) {
        head = try WakeWordHead(contentsOf: headPath)
        self.stride = max(1, stride)
        self.gate = gate
        exact = self.stride == 1
        // The oldest unscored step's window reaches `windowLength + stride - 2` steps back.
        frontEnd = try WakeWordFrontEnd(
            directory: frontEndDirectory, accelerated: accelerated, reach: head.windowLength + self.stride)
        phrase = head.phrase
        self.threshold = threshold ?? head.threshold
        decision = WakeWordDecision(
            threshold: self.threshold, steps: head.steps, restSteps: head.windowLength, confirmSteps: confirmSteps,
            confirmThreshold: confirmThreshold, steadySteps: steadySteps, sureThreshold: sureThreshold ?? head.sureThreshold,
            sureHoldSteps: sureHoldSteps)
        self.logger = logger
        // The front end needs about 2 s of audio before its first full window. It hears a
        // quiet room first, so that a name said at once (or right after the pipeline's
        // voice gate opens) is heard; the training phrases came after quiet or speech too.
        var generator = QuietRoom()
        let quiet = (0..<Self.warmUpLength).map { _ in generator.next() }
        var embeddings: [[Float]?] = []
        var ends: [Int] = []
        try frontEnd.process(quiet) { embedding, end in
            embeddings.append(embedding)
            ends.append(end)
        }
        let count = head.windowLength + self.stride - 1
        guard embeddings.count >= count else {
            throw SpeechError(.wakeInitFailed, "the wake word front end gave too few embeddings")
        }
        frontEnd.rememberQuiet()
        quietSlots = Array(embeddings.suffix(count))
        slots = quietSlots
        slotEnds = Array(ends.suffix(count))
        warmUpSamples = Self.warmUpLength
        logger.debug(
            "listening for \"\(phrase)\" with the neural detector at \(self.threshold)"
                + (frontEnd.isAccelerated
                    ? " (XNNPACK)"
                    : frontEnd.acceleratorDisagreed
                        ? " (TensorFlow Lite's reference kernels: XNNPACK computed otherwise on this machine)"
                        : " (TensorFlow Lite's reference kernels)"))
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
    public var position: Int { AudioFormat.speech.milliseconds(frames: samplesConsumed) }

    /// Samples until the next step that can decide: the next one while every step is scored,
    /// else the next `stride`th (the steps between are only turned into mel frames).
    public var framesToNextDecision: Int? {
        let steps = exact ? 1 : stride - stepCount % stride
        return frontEnd.framesToNextStep + (steps - 1) * WakeWordFrontEnd.chunkLength
    }

    /// Consumes the next 16 kHz mono samples; returns the phrases decided in them.
    ///
    /// The front end hears them over a quiet room's faint noise floor, as any microphone
    /// gives: exact digital silence (synthesised speech, a device that gates its input) right
    /// after noise made its embeddings swing, and names said in it were lost
    /// (`bench/RESULTS.md`).
    public func process(_ samples: [Int16]) throws(SpeechError) -> [WakeWordDetection] {
        samplesConsumed += samples.count
        var detections: [WakeWordDetection] = []
        let heard = samples.map { Int16(clamping: Int($0) + Int(floor.next())) }
        try frontEnd.process(heard) { end throws(SpeechError) in
            slots.removeFirst()
            slotEnds.removeFirst()
            slots.append(nil)
            slotEnds.append(end)
            stepCount += 1
            unscored += 1
            guard exact || stepCount % stride == 0 else { return }
            slots[slots.count - 1] = try frontEnd.embedding()
            embeddingsComputed += 1
            if !exact {
                // A rough score first: each skipped step holds the embedding before it.
                guard head.score(window(endingAt: slots.count - 1)) >= gate else {
                    for _ in 0..<unscored { pass(score: nil) }
                    unscored = 0
                    return
                }
                exact = true
                for index in slots.indices where slots[index] == nil {
                    slots[index] = try frontEnd.embedding(stepsBack: slots.count - 1 - index)
                    embeddingsComputed += 1
                }
            }
            // Every step not scored yet, oldest first, exactly.
            var last = 0.0
            for index in (slots.count - unscored)..<slots.count {
                last = head.score(window(endingAt: index))
                if let detection = pass(score: last, stepEnd: slotEnds[index], decidedEnd: end) {
                    detections.append(detection)
                }
            }
            unscored = 0
            if stride > 1, last < gate, !decision.isBusy { exact = false }
        }
        return detections
    }

    /// The `head.windowLength` embeddings ending at slot `last`, flattened; a skipped slot
    /// holds the embedding before it (or, at the start, the first one after it).
    private func window(endingAt last: Int) -> [Float] {
        var values: [Float] = []
        values.reserveCapacity(head.windowLength * WakeWordFrontEnd.features)
        let first = last - head.windowLength + 1
        var held = slots[first...last].first { $0 != nil } ?? nil
        for index in first...last {
            if let embedding = slots[index] { held = embedding }
            values += held ?? []
        }
        return values
    }

    /// One step's score (nil: skipped, taken to be below the gate), weighed by `decision`;
    /// the detection it lets count. `stepEnd` is where the step's audio ends, `decidedEnd`
    /// how far the input had been heard when it was scored.
    @discardableResult
    private func pass(score: Double?, stepEnd: Int = 0, decidedEnd: Int = 0) -> WakeWordDetection? {
        let stepMilliseconds = AudioFormat.speech.milliseconds(frames: stepEnd - warmUpSamples)
        let decided = AudioFormat.speech.milliseconds(frames: decidedEnd - warmUpSamples)
        if let score {
            highestScore = max(highestScore, score)
            stepScores.append((stepMilliseconds, score))
            if stepScores.count > Self.stepHistory { stepScores.removeFirst() }
        }
        switch decision.step(score) {
        case .none: return nil
        case .held:
            heldDetection = detection(stepMilliseconds: stepMilliseconds, decided: decided)
            return nil
        case .dropped:
            unconfirmedCount += 1
            logger.debug(
                "wake candidate at \(heldDetection?.endMilliseconds ?? 0) ms fell to \(score ?? 0): not the name")
            heldDetection = nil
            return nil
        case .accepted(let candidateScore, let sure, let heldSteps):
            let detection =
                (heldSteps > 0 ? heldDetection : nil) ?? detection(stepMilliseconds: stepMilliseconds, decided: decided)
            heldDetection = nil
            return accept(detection, score: candidateScore, sure: sure, decided: decided)
        }
    }

    /// The phrase ending the head's decision delay before the step that ends at
    /// `stepMilliseconds`, decided at `decided`.
    private func detection(stepMilliseconds: Int, decided: Int) -> WakeWordDetection {
        let end = max(0, stepMilliseconds - head.decisionDelayMilliseconds)
        return WakeWordDetection(
            phrase: phrase, startMilliseconds: max(0, end - Self.assumedPhraseMilliseconds), endMilliseconds: end,
            decidedAtMilliseconds: decided)
    }

    /// `detection` as decided at `decided` milliseconds, remembered with its `score` and
    /// whether it is sure.
    private func accept(_ detection: WakeWordDetection, score: Double, sure: Bool, decided: Int) -> WakeWordDetection {
        var detection = detection
        detection.decidedAtMilliseconds = decided
        logger.info("heard \"\(phrase)\" ending at \(detection.endMilliseconds) ms (score \(score)\(sure ? ", sure" : ""))")
        recentScores.append((decided, score, sure))
        if recentScores.count > 8 { recentScores.removeFirst() }
        return detection
    }

    /// The score of `detection`, one of the last few this detector made; nil for another.
    public func score(of detection: WakeWordDetection) -> Double? {
        recentScores.last { $0.decided == detection.decidedAtMilliseconds }?.score
    }

    /// Whether `detection` (one of the last few this detector made) is sure: it scored at or
    /// above the head's sure threshold, where the validation negatives gave no false wake, and
    /// held (`sureHoldSteps`), or it settled at or above that threshold by the end of the
    /// `steadySteps` after. A second check can let it through (`VerifiedWakeWordDetector`'s
    /// `trusted`).
    public func isSure(_ detection: WakeWordDetection) -> Bool {
        recentScores.last { $0.decided == detection.decidedAtMilliseconds }?.sure ?? false
    }

    /// The scores of the steps whose audio ends from `from` through `through` milliseconds,
    /// oldest first, of those scored exactly in the last 3.2 s (for benchmarks and logs).
    public func scores(from: Int, through: Int) -> [Double] {
        stepScores.filter { $0.decided >= from && $0.decided <= through }.map(\.score)
    }

    /// `scores(from:through:)` with where each step's audio ends, in milliseconds (for the
    /// stage benchmark, `bench/wake-stages.py`).
    public func timedScores(from: Int, through: Int) -> [(milliseconds: Int, score: Double)] {
        stepScores.filter { $0.decided >= from && $0.decided <= through }.map { ($0.decided, $0.score) }
    }

    /// Forgets any partly heard phrase (the window and the front end's recent frames are a
    /// quiet room's again); positions keep counting. What follows is heard as a fresh detector
    /// would hear it: its steps, strides and noise floor start here, so how much audio came
    /// before (a decision's read, or more) does not change what the next name scores.
    public func reset() throws(SpeechError) {
        slots = quietSlots
        frontEnd.forgetHistory()
        floor = QuietRoom()
        stepCount = 0
        unscored = 0
        exact = stride == 1
        decision.reset()
        heldDetection = nil
    }
}
