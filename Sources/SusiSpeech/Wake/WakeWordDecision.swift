/// When the neural detector's step scores make a wake word (`NeuralWakeWordDetector`): a
/// candidate once the score has reached `threshold` in `steps` windows in a row, then held
/// until `verdict` lets it count (sure, or left to a second check) or drops it. After a
/// candidate no other is made for `restSteps` steps, so the same word does not wake twice; a
/// dropped candidate ends that rest, so the name itself, scoring high right after a candidate
/// its rising edge made, is still heard. Not thread-safe.
struct WakeWordDecision {
    /// What a step's score did.
    enum Outcome: Equatable {
        /// Nothing decided.
        case none
        /// A new candidate, held for more steps.
        case held
        /// The held candidate did not stay high: not the name.
        case dropped
        /// A candidate counts (made this step, or held since `heldSteps` steps), with its
        /// score when it was made and whether it is sure.
        case accepted(score: Double, sure: Bool, heldSteps: Int)
    }

    /// What becomes of a candidate: wait for more steps, drop it, or let it count (and
    /// whether it is sure).
    enum Verdict: Equatable {
        case wait, drop
        case accept(sure: Bool)
    }

    let threshold: Double
    /// Windows in a row at or above `threshold` that make a candidate.
    let steps: Int
    /// Steps after a candidate in which no other is made.
    let restSteps: Int
    /// Steps a candidate is held before it counts (0: none).
    let confirmSteps: Int
    /// The score a candidate must still have `confirmSteps` after it was made.
    let confirmThreshold: Double
    /// Steps a candidate not sure by its score is held to see whether it settles at or above
    /// `sureThreshold` (0: not held for it).
    let steadySteps: Int
    let sureThreshold: Double
    /// Steps a candidate sure by its score is held: it stays sure only if the score is still
    /// at or above `confirmThreshold` then (0: sure at once).
    let sureHoldSteps: Int

    /// How many of the last steady steps must be at or above the sure threshold.
    static let settledSteps = 2

    /// Windows in a row so far at or above the threshold.
    private var run = 0
    /// Steps left in which no candidate is made.
    private var rest = 0
    /// The candidate held: its score and the scores of the steps since.
    private var held: (score: Double, after: [Double])?

    init(
        threshold: Double, steps: Int, restSteps: Int, confirmSteps: Int, confirmThreshold: Double, steadySteps: Int,
        sureThreshold: Double, sureHoldSteps: Int = 0
    ) {
        self.threshold = threshold
        self.steps = max(1, steps)
        self.restSteps = restSteps
        self.confirmSteps = max(0, confirmSteps)
        self.confirmThreshold = confirmThreshold
        self.steadySteps = max(0, steadySteps)
        self.sureThreshold = sureThreshold
        self.sureHoldSteps = max(0, sureHoldSteps)
    }

    /// Whether a candidate is held or a run has begun (every step must be scored then).
    var isBusy: Bool { held != nil || run > 0 }

    /// Weighs the next step's score (nil: the step was skipped, taken to be below the
    /// threshold).
    mutating func step(_ score: Double?) -> Outcome {
        if rest > 0 { rest -= 1 }
        guard let score else {
            run = 0
            return .none
        }
        run = score >= threshold ? run + 1 : 0
        if var candidate = held {
            candidate.after.append(score)
            switch verdict(score: candidate.score, after: candidate.after) {
            case .wait: held = candidate
            case .drop:
                held = nil
                rest = 0
                return .dropped
            case .accept(let sure):
                held = nil
                return .accepted(score: candidate.score, sure: sure, heldSteps: candidate.after.count)
            }
        }
        guard run >= steps, rest == 0 else { return .none }
        rest = restSteps
        run = 0
        guard case .accept(let sure) = verdict(score: score, after: []) else {
            held = (score, [])
            return .held
        }
        return .accepted(score: score, sure: sure, heldSteps: 0)
    }

    /// Forgets any run, rest and held candidate.
    mutating func reset() {
        run = 0
        rest = 0
        held = nil
    }

    /// The verdict on a candidate that scored `score` when made and `after` in the steps
    /// since: dropped if the score `confirmSteps` later is under `confirmThreshold`; then
    /// counted. A candidate whose `score` is at or above the sure threshold is sure if the
    /// score `sureHoldSteps` later is still at or above `confirmThreshold`; any other is
    /// sure (steady) if the score has settled at or above the sure threshold by the end of its
    /// `steadySteps` next scores: the last two of them are there (the first of three may still
    /// be rising: the candidate is made on the name's rising edge).
    func verdict(score: Double, after: [Double]) -> Verdict {
        if confirmSteps > 0, after.count >= confirmSteps, after[confirmSteps - 1] < confirmThreshold { return .drop }
        guard after.count >= confirmSteps else { return .wait }
        if score >= sureThreshold {
            guard after.count >= sureHoldSteps else { return .wait }
            return .accept(sure: sureHoldSteps == 0 || after[sureHoldSteps - 1] >= confirmThreshold)
        }
        guard after.count >= steadySteps else { return .wait }
        let settled = after.prefix(steadySteps).suffix(Self.settledSteps)
        return .accept(sure: steadySteps > 0 && settled.allSatisfy { $0 >= sureThreshold })
    }
}
