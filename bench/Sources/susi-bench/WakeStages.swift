import Foundation
import SusiModel
import SusiPipeline
import SusiSpeech

/// What each stage of the wake word made of every file of a corpus (`--wake-stages DIR`,
/// `bench/wake-stages.py`), one JSON line per file, so that a missed name can be put on the
/// stage that lost it:
///
/// - the input: samples at full scale (a gain stage or the mix clipped);
/// - the voice gate: `WakeGate`'s decision, made here the same way (voice activity above
///   200 Hz, `marginDB` 6 over the tracked floor, placed per 20 ms, the detector fed from
///   500 ms before the first voice to 1 s after the last, input read 80 ms at a time): how
///   many 20 ms blocks of the name were voice, and whether the whole name was fed;
/// - the head: every step scored (stride 1) on what the gate fed, its highest score from the
///   name's start to 600 ms into the command and where (ms after the name's end), against the
///   threshold; the same on the whole file, ungated;
/// - the decision: the neural detector with the settings' stride, confirmation and
///   steadiness, no verifier: a candidate near the name, and whether it was sure;
/// - the verifier: the detector `susi run` builds (`Hearing.makeWakeDetector`): woke near the
///   name, and how many candidates its re-decoding rejected.
///
/// Extra settings: `gate.margin=DB` (the gate's voice margin), `gate.off=1` (everything fed).
enum WakeStages {
    struct Gate {
        var marginDB = 6.0
        var off = false
    }

    /// One file's figures (written snake_case).
    struct Row: Encodable {
        var id: String
        var clipped: Int
        var peakAbs: Int
        var nameBlocks: Int
        var nameVoicedBlocks: Int
        var floorDb: Double?
        var gateFed: Bool
        var threshold: Double
        var peak: Double
        var peakMs: Int?
        var stepsOver: Int
        var peakUngated: Double
        var headReached: Bool
        var candidate: Bool
        var sure: Bool
        var woke: Bool
        var rejected: Int
        /// Every step's score from the name's start to 600 ms into the command (stride 1, gated).
        var scores: [Double]
    }

    /// Pieces of a file fed to the detector: where each starts in the detector's samples and in the file's.
    struct Fed {
        var samples: [Int16] = []
        var pieces: [(detector: Int, file: Int)] = []
        var name: (voiced: Int, blocks: Int, floor: Double?) = (0, 0, nil)

        /// The file's milliseconds for a detector position in milliseconds (relative to its start on this file).
        func fileMilliseconds(_ detectorMs: Int) -> Int {
            let frame = detectorMs * 16
            let piece = pieces.last { $0.detector <= frame } ?? (0, 0)
            return (piece.file + frame - piece.detector) / 16
        }

        func covers(fromMs: Int, toMs: Int) -> Bool {
            // Contiguous pieces: the name is fed when one piece holds all of it.
            for (index, piece) in pieces.enumerated() {
                let length = (index + 1 < pieces.count ? pieces[index + 1].detector : samples.count) - piece.detector
                if piece.file <= fromMs * 16, piece.file + length >= toMs * 16 { return true }
            }
            return false
        }
    }

    /// What `WakeGate` would feed the detector of `samples`, read 80 ms at a time.
    static func gated(_ samples: [Int16], row: CorpusRow, gate: Gate) -> Fed {
        var fed = Fed()
        var activity = VoiceActivityDetector(marginDB: gate.marginDB)
        let block = 320
        var lastVoice = Int.min / 2
        var fedUntil = 0
        let nameStart = row.wake_ms * 16
        let nameEnd = (row.wake_end_ms ?? row.command_start_ms) * 16
        for chunkStart in stride(from: 0, to: samples.count, by: 1280) {
            let now = min(samples.count, chunkStart + 1280)
            var firstVoice: Int?
            for start in stride(from: chunkStart, to: now, by: block) {
                let end = min(start + block, now)
                if start >= nameStart, end <= nameEnd {
                    fed.name.blocks += 1
                    if fed.name.floor == nil { fed.name.floor = activity.noiseFloorDB }
                }
                guard activity.anyVoiced(samples[start..<end]) || gate.off else { continue }
                if start >= nameStart, end <= nameEnd { fed.name.voiced += 1 }
                firstVoice = firstVoice ?? start
                lastVoice = end
            }
            guard now - lastVoice <= 16_000 else { continue }
            let from = max(fedUntil, (firstVoice ?? chunkStart) - 8000, 0)
            if from < now {
                if fed.pieces.isEmpty || from != fedUntil { fed.pieces.append((fed.samples.count, from)) }
                fed.samples += samples[from..<now]
            }
            fedUntil = now
        }
        return fed
    }

    /// Feeds `samples` 80 ms at a time; the detections, positions relative to this file.
    static func detect(_ detector: any WakeWordDetector, _ samples: [Int16]) throws -> [WakeWordDetection] {
        try detector.reset()
        let offset = detector.position
        var found: [WakeWordDetection] = []
        for start in stride(from: 0, to: samples.count, by: 1280) {
            found += try detector.process(Array(samples[start..<min(samples.count, start + 1280)]))
        }
        return found.map {
            var detection = $0
            detection.endMilliseconds -= offset
            return detection
        }
    }

    /// Every step's score (stride 1) on `samples`: (step end in ms from this file's start, score).
    static func scores(_ scorer: NeuralWakeWordDetector, _ samples: [Int16]) throws -> [(Int, Double)] {
        try scorer.reset()
        let offset = scorer.position
        var result: [(Int, Double)] = []
        var seen = Int.min
        for start in stride(from: 0, to: samples.count, by: 1280) {
            _ = try scorer.process(Array(samples[start..<min(samples.count, start + 1280)]))
            for step in scorer.timedScores(from: seen + 1, through: Int.max) {
                result.append((step.milliseconds - offset, step.score))
                seen = step.milliseconds
            }
        }
        return result
    }

    static func run(corpus: String, models: String, settings: Hearing.Settings, gate: Gate) throws {
        let rows = try Corpus.rows(corpus)
        let files = NeuralWakeWordDetector.files(modelsDirectory: models, phrase: settings.wakePhrase)
        let scorer = try NeuralWakeWordDetector(
            frontEndDirectory: files.frontEnd, headPath: files.head, threshold: 1.01, stride: 1, confirmSteps: 0,
            steadySteps: 0)
        var plain = settings
        plain.verifyWake = false
        guard
            let decider = try Hearing.makeNeuralWakeDetector(modelsDirectory: models, settings: plain) as? NeuralWakeWordDetector
        else { throw SpeechError(.wakeInitFailed, "the neural detector is not available") }
        let threshold = decider.threshold
        let full = try Hearing.makeWakeDetector(config: Config(), modelsDirectory: models, settings: settings)
        let verifier = full as? VerifiedWakeWordDetector
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // The Python side's column names.
        encoder.keyEncodingStrategy = .convertToSnakeCase
        for row in rows {
            let samples = try Corpus.samples(row.file)
            let fed = gated(samples, row: row, gate: gate)
            let nameEnd = row.wake_end_ms ?? row.command_start_ms
            let window = { (ms: Int) in ms >= row.wake_ms && ms <= row.command_start_ms + 600 }
            let near = try scores(scorer, fed.samples).map { (fed.fileMilliseconds($0.0), $0.1) }.filter { window($0.0) }
            let best = near.max { $0.1 < $1.1 }
            let ungated = try scores(scorer, samples).filter { window($0.0) }.map(\.1).max() ?? 0
            let candidates = try detect(decider, fed.samples).filter { window(fed.fileMilliseconds($0.endMilliseconds)) }
            let before = verifier?.rejectedCount ?? 0
            let woke = try detect(full, fed.samples).contains { window(fed.fileMilliseconds($0.endMilliseconds)) }
            let result = Row(
                id: row.id, clipped: samples.filter { $0 == .max || $0 == .min }.count,
                peakAbs: samples.map { abs(Int($0)) }.max() ?? 0, nameBlocks: fed.name.blocks,
                nameVoicedBlocks: fed.name.voiced, floorDb: fed.name.floor.map { ($0 * 10).rounded() / 10 },
                gateFed: fed.covers(fromMs: row.wake_ms, toMs: nameEnd), threshold: threshold,
                peak: ((best?.1 ?? 0) * 1000).rounded() / 1000, peakMs: best.map { $0.0 - nameEnd },
                stepsOver: near.filter { $0.1 >= threshold }.count, peakUngated: (ungated * 1000).rounded() / 1000,
                headReached: (best?.1 ?? 0) >= threshold, candidate: !candidates.isEmpty,
                sure: candidates.contains { decider.isSure($0) }, woke: woke,
                rejected: (verifier?.rejectedCount ?? 0) - before, scores: near.map { ($0.1 * 100).rounded() / 100 })
            print(String(decoding: try encoder.encode(result), as: UTF8.self))
        }
    }
}
