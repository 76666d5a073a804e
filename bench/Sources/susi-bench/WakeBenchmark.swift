import Foundation
import SusiModel

/// Wake word figures per noise condition, and false wakes on speech without the wake word.
struct WakeFigures {
    /// Files per condition, and how many of them woke at the wake word.
    var files: [String: Int] = [:]
    var hits: [String: Int] = [:]
    /// Detections away from the wake word in the positive files.
    var strayWakes: [String: Int] = [:]
    /// Detections in the negative recordings and their length.
    var negativeWakes = 0
    var negativeSeconds = 0.0
    /// CPU seconds spent per second of audio on the negatives.
    var cpuPerAudioSecond = 0.0

    func rate(_ condition: String) -> Double {
        Double(hits[condition] ?? 0) / Double(max(1, files[condition] ?? 0))
    }

    var overallRate: Double {
        Double(hits.values.reduce(0, +)) / Double(max(1, files.values.reduce(0, +)))
    }

    var falseWakesPerHour: Double { Double(negativeWakes) / max(1e-9, negativeSeconds / 3600) }
}

enum WakeBenchmark {
    /// Feeds every file, one after another as one stream, to one detector (as a microphone
    /// would), 100 ms at a time; a detection ending between the wake word's start and 600 ms
    /// into the command is a hit.
    static func run(
        rows: [CorpusRow], negatives: [NegativeRow], make: () throws -> any WakeWordDetector
    ) throws -> WakeFigures {
        var figures = WakeFigures()
        let detector = try make()
        for row in rows {
            let samples = try Corpus.samples(row.file)
            let offset = detector.position
            var detections: [WakeWordDetection] = []
            for start in stride(from: 0, to: samples.count, by: 1600) {
                detections += try detector.process(Array(samples[start..<min(samples.count, start + 1600)]))
            }
            figures.files[row.condition, default: 0] += 1
            var hit = false
            if benchDebug {
                print(
                    row.id, row.wake_ms, row.command_start_ms,
                    detections.map { ($0.startMilliseconds - offset, $0.endMilliseconds - offset) })
            }
            for detection in detections {
                let end = detection.endMilliseconds - offset
                if !hit, end >= row.wake_ms, end <= row.command_start_ms + 600 {
                    hit = true
                } else {
                    figures.strayWakes[row.condition, default: 0] += 1
                }
            }
            if hit { figures.hits[row.condition, default: 0] += 1 }
        }
        let negativeDetector = try make()
        let cpuStart = cpuSeconds()
        for negative in negatives {
            let samples = try Corpus.samples(negative.file)
            let offset = negativeDetector.position
            for start in stride(from: 0, to: samples.count, by: 1600) {
                let found = try negativeDetector.process(Array(samples[start..<min(samples.count, start + 1600)]))
                figures.negativeWakes += found.count
                if benchDebug {
                    for detection in found {
                        print("NEG", negative.file, detection.startMilliseconds - offset, detection.endMilliseconds - offset)
                    }
                }
            }
            figures.negativeSeconds += Double(samples.count) / 16_000
        }
        figures.cpuPerAudioSecond = (cpuSeconds() - cpuStart) / max(1, figures.negativeSeconds)
        return figures
    }

    /// The stock figures from `pocketsphinx_batch` keyphrase hypotheses: each file is one
    /// utterance, and each spotted "susi" one word of its hypothesis.
    static func stock(rows: [CorpusRow], negatives: [NegativeRow], positives: [String: String], negativeHyps: [String: String])
        -> WakeFigures
    {
        var figures = WakeFigures()
        for row in rows {
            figures.files[row.condition, default: 0] += 1
            let count = (positives[row.id] ?? "").split(separator: " ").count
            if count > 0 { figures.hits[row.condition, default: 0] += 1 }
            if count > 1 { figures.strayWakes[row.condition, default: 0] += count - 1 }
        }
        for negative in negatives {
            let id = URL(fileURLWithPath: negative.file).deletingPathExtension().lastPathComponent
            figures.negativeWakes += (negativeHyps[id] ?? "").split(separator: " ").count
            figures.negativeSeconds += negative.seconds
        }
        return figures
    }

    /// User plus system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
