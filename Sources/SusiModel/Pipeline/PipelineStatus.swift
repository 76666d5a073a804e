import Foundation
import SusiCore
import Synchronization

/// What the voice pipeline is doing: the `state` of the control API's `/status`.
public enum PipelinePhase: String, Sendable, CaseIterable {
    /// Waiting for the wake word (planned answers may still be spoken from here).
    case idle
    /// Hearing the command after the wake word.
    case listening
    /// Asking the brain and performing what it answered, between sentences.
    case thinking
    /// Saying an answer, an apology or a planned answer.
    case speaking
}

/// Where a running pipeline is: its phase and its position in the input, and whether it was
/// asked to stop.
///
/// The pipeline writes it from its own thread; anyone may read it from any thread (the control
/// server's `/status`, events raised outside the pipeline, a signal handler). One status may
/// outlive a pipeline and serve the next one (a microphone that comes back), so those readers
/// never need to know which pipeline runs now.
public final class PipelineStatus: Sendable {
    private struct State {
        var phase = PipelinePhase.idle
        var position = SamplePosition.start
        var level = 0.0
        var stopRequested = false
    }

    private let state = Mutex(State())

    /// A status in `idle` at the start of the input.
    public init() {}

    /// The pipeline's phase now.
    public var phase: PipelinePhase { state.withLock { $0.phase } }

    /// How much input the pipeline has consumed.
    public var position: SamplePosition { state.withLock { $0.position } }

    /// `position` in milliseconds: the `audio_ms` of events raised now.
    public var audioMs: Int { position.milliseconds }

    /// The input's loudness in the newest chunk, 0 (silence) to 1 (full scale): its RMS in
    /// dBFS mapped from -60...0 dB onto 0...1, so speech at a few metres reads about 0.3-0.7.
    /// For a level meter; updated with `position`, one lock per chunk.
    public var level: Double { state.withLock { $0.level } }

    /// Whether `requestStop` was called; a pipeline checks it between chunks and sentences.
    public var isStopRequested: Bool { state.withLock { $0.stopRequested } }

    /// Asks every pipeline using this status to end its run soon (within one chunk of audio
    /// or one chunk of speech). Safe from any thread, signal handlers' queues included.
    public func requestStop() {
        state.withLock { $0.stopRequested = true }
    }

    package func enter(_ phase: PipelinePhase) {
        state.withLock { $0.phase = phase }
    }

    package func advance(to position: SamplePosition, level: Double) {
        state.withLock {
            $0.position = position
            $0.level = level
        }
    }

    /// `level` of `samples` (16-bit PCM): RMS in dBFS, -60...0 dB mapped onto 0...1.
    public static func level(of samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return 0 }
        var sum = 0.0
        for sample in samples {
            let value = Double(sample)
            sum += value * value
        }
        let rms = (sum / Double(samples.count)).squareRoot() / 32768
        guard rms > 0 else { return 0 }
        let decibels = 20 * log10(rms)
        return min(max((decibels + 60) / 60, 0), 1)
    }
}
