import Foundation
import SusiCore
import SusiModel
import SusiSpeech

/// A detector that passes everything through and keeps what its inner detector reported,
/// with the stream position at which each came back: so one run through a verified
/// detector gives the figures of the verifier's input and of its output.
final class RecordingDetector: WakeWordDetector {
    let inner: any WakeWordDetector
    private(set) var heard: [(detection: WakeWordDetection, returnedAt: Int)] = []
    /// For `BENCH_CANDIDATES`: a description of a detection (a neural detector's scores
    /// around it), asked once the file it is in has been fed.
    var describe: ((WakeWordDetection) -> String)?

    init(_ inner: any WakeWordDetector) { self.inner = inner }

    /// The last 3 s of input, newest last, for `describe` to read the audio around a detection.
    private(set) var recent: [Int16] = []
    private var fed = 0

    /// The input from `from` to `to` milliseconds (stream positions), as much as `recent` holds.
    func audio(from: Int, to: Int) -> [Int16] {
        let first = fed - recent.count
        let lower = max(first, AudioFormat.speech.frames(milliseconds: from))
        let upper = min(fed, AudioFormat.speech.frames(milliseconds: to))
        return upper > lower ? Array(recent[(lower - first)..<(upper - first)]) : []
    }

    /// `describe`'s text of each detection, by when it was decided: asked once 500 ms of audio
    /// after its end have been fed (or at the end of its file), while the detector still
    /// remembers the scores around it.
    private(set) var descriptions: [Int: String] = [:]

    func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
        if describe != nil {
            recent += samples
            fed += samples.count
            if recent.count > 48_000 { recent.removeFirst(recent.count - 48_000) }
        }
        let found = try inner.process(samples)
        heard += found.map { ($0, inner.position) }
        if let describe {
            for (detection, _) in heard.suffix(4)
            where descriptions[detection.decidedAtMilliseconds] == nil && inner.position >= detection.endMilliseconds + 500 {
                descriptions[detection.decidedAtMilliseconds] = describe(detection)
            }
        }
        return found
    }

    /// The description of `detection` (see `descriptions`).
    func description(of detection: WakeWordDetection) -> String? {
        guard let describe else { return nil }
        return descriptions[detection.decidedAtMilliseconds] ?? describe(detection)
    }

    func reset() throws { try inner.reset() }
    var position: Int { inner.position }
}

/// The false-wake sets nothing is chosen on, in the report's order: the name `WakeComparison.run`
/// gets each by, and its column's heading.
let checkColumns: [(name: String, heading: String)] = [("conversation", "in conversation"), ("words", "single words")]

/// Figures of one engine over every corpus of the comparison.
struct EngineFigures {
    /// Wake rate per "corpus/condition" (and "one-breath/wpmN").
    var rates: [String: (hits: Int, files: Int)] = [:]
    var strayWakes = 0
    var negativeWakes = 0
    var negativeSeconds = 0.0
    /// False wakes in each set nothing is chosen on (by its name in `checkColumns`), and its seconds.
    var checkWakes: [String: (wakes: Int, seconds: Double)] = [:]
    /// Command-only clips with a wake, and how many clips.
    var commandWakes: [String: (woke: Int, files: Int)] = [:]
    /// Milliseconds from the end of "susi" to the call that returned the wake.
    var latencies: [Int] = []
    /// Where each wake placed the end of "susi", in milliseconds after its true end (negative:
    /// before it), where the corpus says where it ends (the held-out one).
    var endErrors: [Int] = []
    var cpuSpeech = 0.0
    var cpuQuiet = 0.0

    func rate(_ key: String) -> String {
        guard let value = rates[key], value.files > 0 else { return "-" }
        return percent(Double(value.hits) / Double(value.files))
    }
}

/// The wake word engines side by side in one run: neural, neural with the PocketSphinx
/// verifier, today's keyphrase engine (verified), and the stock keyphrase search
/// (`pocketsphinx_batch`, dev and held-out corpora only).
enum WakeComparison {
    struct Corpora {
        var dev: [CorpusRow]
        var heldout: [CorpusRow]
        var breath: [CorpusRow]
        /// The name after other words in the same breath (not in the summary table).
        var afterSpeech: [CorpusRow] = []
        var commandsOnly: [CorpusRow]
        var negatives: [NegativeRow]
    }

    /// `BENCH_CANDIDATES=FILE`: every candidate of a view that can describe its own, one
    /// line each (view, corpus, file, condition, where it ended after the name's start or,
    /// in a file without the name, "@" and where it ended in the file,
    /// which views reported it, the description), for offline analysis; one file for the
    /// whole run, every engine set's candidates in it.
    static let candidateLog = ProcessInfo.processInfo.environment["BENCH_CANDIDATES"].flatMap {
        _ = FileManager.default.createFile(atPath: $0, contents: nil)
        return FileHandle(forWritingAtPath: $0)
    }

    /// Runs `make` (the fed detector and the recorders whose figures are wanted, by name)
    /// over all corpora; the false wakes over `corpora.negatives`, or `negatives` when given
    /// (`--wake-negatives`: a longer set for the neural engines), and apart from them over
    /// each of `checks` (sets nothing is chosen on, by their column's name: `checkColumns`).
    static func run(
        _ corpora: Corpora, negatives: [NegativeRow]? = nil, checks: [(String, [NegativeRow])] = [],
        make: () throws -> (feed: any WakeWordDetector, views: [(String, RecordingDetector)])
    ) throws -> [(String, EngineFigures)] {
        var probe = try make()
        var figures = probe.views.map { ($0.0, EngineFigures()) }
        func log(
            _ corpus: String, _ file: String, _ condition: String, _ offset: Int, _ wakeMs: Int?,
            _ heard: [[(detection: WakeWordDetection, returnedAt: Int)]]
        ) {
            guard let candidateLog = Self.candidateLog else { return }
            for (index, view) in probe.views.enumerated() where view.1.describe != nil {
                for (detection, _) in heard[index] {
                    let reportedBy = probe.views.indices.filter { other in
                        heard[other].contains { $0.detection.decidedAtMilliseconds == detection.decidedAtMilliseconds }
                    }.map { probe.views[$0].0 }
                    let fields = [
                        view.0, corpus, file, condition,
                        wakeMs.map { "\(detection.endMilliseconds - offset - $0)" } ?? "@\(detection.endMilliseconds - offset)",
                        reportedBy.joined(separator: ","), view.1.description(of: detection) ?? "",
                    ]
                    candidateLog.write(Data((fields.joined(separator: "\t") + "\n").utf8))
                }
            }
        }
        func feed(_ samples: [Int16]) throws -> [[(detection: WakeWordDetection, returnedAt: Int)]] {
            let before = probe.views.map { $0.1.heard.count }
            for start in stride(from: 0, to: samples.count, by: 1600) {
                _ = try probe.feed.process(Array(samples[start..<min(samples.count, start + 1600)]))
            }
            return probe.views.enumerated().map { index, view in Array(view.1.heard[before[index]...]) }
        }
        for (corpus, rows) in [
            ("dev", corpora.dev), ("held-out", corpora.heldout), ("one-breath", corpora.breath),
            ("after-speech", corpora.afterSpeech),
        ] {
            for row in rows {
                let offset = probe.feed.position
                let heard = try feed(try Corpus.samples(row.file))
                log(corpus, row.file, row.condition, offset, row.wake_ms, heard)
                for (index, found) in heard.enumerated() {
                    let key = "\(corpus)/\(row.condition)"
                    var hit = false
                    for (detection, returnedAt) in found {
                        let end = detection.endMilliseconds - offset
                        if !hit, end >= row.wake_ms, end <= row.command_start_ms + 600 {
                            hit = true
                            if let wakeEnd = row.wake_end_ms {
                                figures[index].1.latencies.append(returnedAt - offset - wakeEnd)
                                figures[index].1.endErrors.append(end - wakeEnd)
                            }
                        } else {
                            figures[index].1.strayWakes += 1
                        }
                    }
                    figures[index].1.rates[key, default: (0, 0)].files += 1
                    if hit { figures[index].1.rates[key, default: (0, 0)].hits += 1 }
                }
            }
        }
        for row in corpora.commandsOnly {
            let heard = try feed(try Corpus.samples(row.file))
            log("commands", row.file, row.condition, 0, nil, heard)
            for (index, found) in heard.enumerated() {
                figures[index].1.commandWakes[row.condition, default: (0, 0)].files += 1
                if !found.isEmpty { figures[index].1.commandWakes[row.condition, default: (0, 0)].woke += 1 }
            }
        }
        /// Feeds `rows` (speech without the name), logged as `corpus`: each view's wakes, and
        /// the seconds fed.
        func falseWakes(_ rows: [NegativeRow], _ corpus: String) throws -> (wakes: [Int], seconds: Double) {
            var wakes = [Int](repeating: 0, count: probe.views.count)
            var seconds = 0.0
            for negative in rows {
                let samples = try Corpus.samples(negative.file)
                let offset = probe.feed.position
                let heard = try feed(samples)
                log(corpus, negative.file, "-", offset, nil, heard)
                for (index, found) in heard.enumerated() { wakes[index] += found.count }
                seconds += Double(samples.count) / 16_000
                if benchDebug { print(negative.file, heard.map(\.count)) }
            }
            return (wakes, seconds)
        }
        // Continuous speech: a fresh detector, its CPU time measured.
        probe = try make()
        var start = WakeBenchmark.cpuSeconds()
        let speech = try falseWakes(negatives ?? corpora.negatives, "negatives")
        let speechCPU = (WakeBenchmark.cpuSeconds() - start) / max(1, speech.seconds)
        let checked = try checks.map { name, rows in (name, try falseWakes(rows, name)) }
        // A quiet room: 60 s of a faint noise floor, fed without the pipeline's voice gate.
        probe = try make()
        var generator = SystemRandomNumberGenerator()
        let quiet = (0..<(16_000 * 60)).map { _ in Int16.random(in: -8...8, using: &generator) }
        start = WakeBenchmark.cpuSeconds()
        _ = try feed(quiet)
        let quietCPU = (WakeBenchmark.cpuSeconds() - start) / 60
        for index in figures.indices {
            figures[index].1.negativeWakes = speech.wakes[index]
            figures[index].1.negativeSeconds = speech.seconds
            for (name, found) in checked {
                figures[index].1.checkWakes[name] = (found.wakes[index], found.seconds)
            }
            figures[index].1.cpuSpeech = speechCPU
            figures[index].1.cpuQuiet = quietCPU
        }
        return figures
    }

    /// `wakes` per hour of `seconds`, and how many in how many hours.
    private static func perHour(_ wakes: Int, seconds: Double) -> String {
        let hours = seconds / 3600
        return "\(String(format: "%.2f", Double(wakes) / max(1e-9, hours))) (\(wakes) in \(String(format: "%.2f", hours)) h)"
    }

    /// The markdown section: one row per engine.
    static func report(_ engines: [(String, EngineFigures)], corpora: Corpora, stock: EngineFigures?) -> String {
        let devConditions = conditionsInOrder(corpora.dev).map { "dev/\($0)" }
        let heldConditions = conditionsInOrder(corpora.heldout).map { "held-out/\($0)" }
        let breath = conditionsInOrder(corpora.breath).filter { $0 != "wpm300" }
        let columns = devConditions + heldConditions
        var out = "| engine | " + columns.joined(separator: " | ")
        let checkHeadings = checkColumns.map { "\($0.heading) | " }.joined()
        out +=
            " | one breath 150-260 wpm | false wakes per hour | \(checkHeadings)command-only clips woken | CPU s per audio s (speech / quiet) | latency median / p95 |\n"
        out += "|---|" + String(repeating: "---|", count: columns.count + 5 + checkColumns.count) + "\n"
        // Each engine's own hours (the neural engines may have run on `--wake-negatives`).
        let shortHours = corpora.negatives.reduce(0) { $0 + $1.seconds } / 3600
        var rows = engines
        if let stock { rows.insert(("stock keyphrase (pocketsphinx_batch)", stock), at: 0) }
        for (name, figures) in rows {
            out += "| \(name) | " + columns.map { figures.rate($0) }.joined(separator: " | ")
            let breathFiles = breath.map { figures.rates["one-breath/\($0)"] ?? (0, 0) }
            let breathHits = breathFiles.reduce(0) { $0 + $1.hits }
            let breathTotal = breathFiles.reduce(0) { $0 + $1.files }
            out += " | \(breathTotal > 0 ? percent(Double(breathHits) / Double(breathTotal)) : "-")"
            let hours = figures.negativeSeconds > 0 ? figures.negativeSeconds / 3600 : shortHours
            out += " | " + perHour(figures.negativeWakes, seconds: hours * 3600)
            for (name, _) in checkColumns {
                let found = figures.checkWakes[name] ?? (0, 0)
                out += " | " + (found.seconds > 0 ? perHour(found.wakes, seconds: found.seconds) : "-")
            }
            let command = figures.commandWakes.values.reduce((0, 0)) { ($0.0 + $1.woke, $0.1 + $1.files) }
            out +=
                " | \(command.1 > 0 ? "\(percent(Double(command.0) / Double(command.1))) (\(command.0) of \(command.1))" : "-")"
            out +=
                figures.cpuSpeech > 0
                ? " | \(String(format: "%.4f / %.4f", figures.cpuSpeech, figures.cpuQuiet))" : " | -"
            let sorted = figures.latencies.sorted()
            out +=
                sorted.isEmpty
                ? " | - |\n"
                : " | \(sorted[sorted.count / 2]) / \(sorted[min(sorted.count - 1, sorted.count * 95 / 100)]) ms |\n"
        }
        out += "\nFalse wakes: per hour of speech without the wake word (in brackets: how many, in how many hours): "
        out += "the dev corpus's negatives and `bench/heldout.py --negatives` (\(String(format: "%.2f", shortHours)) h), "
        out += "or for the engines run on `--wake-negatives` those (the dev corpus's negatives and "
        out += "`bench/heldout.py --negatives --hours H`). In conversation: two voices taking turns over a room's "
        out += "noise (`bench/heldout.py --conversation`); single words: one voice saying single words after "
        out += "pauses over the same noise (`bench/heldout.py --words`), words training never says: sets no setting "
        out += "was chosen on. Command-only clips: "
        out += "\(corpora.commandsOnly.count) (`bench/heldout.py --commands`), by condition:\n\n"
        let conditions = conditionsInOrder(corpora.commandsOnly)
        out +=
            "| engine | " + conditions.joined(separator: " | ") + " |\n|---|" + String(repeating: "---|", count: conditions.count)
            + "\n"
        for (name, figures) in engines {
            out +=
                "| \(name) | "
                + conditions.map { c in
                    let v = figures.commandWakes[c] ?? (0, 0)
                    return "\(v.woke) of \(v.files)"
                }.joined(separator: " | ") + " |\n"
        }
        out += "\nWhere the wake placed the end of \"susi\" (held-out files, milliseconds after its true end, "
        out += "as the detector places it; `susi run` moves it to where the voice stops if that is near):\n\n"
        out += "| engine | 10th percentile | median | 90th percentile |\n|---|---|---|---|\n"
        for (name, figures) in engines where !figures.endErrors.isEmpty {
            let sorted = figures.endErrors.sorted()
            out +=
                "| \(name) | " + [0.1, 0.5, 0.9].map { "\(sorted[Int(Double(sorted.count - 1) * $0)])" }.joined(separator: " | ")
                + " |\n"
        }
        /// Each engine's wake rate per condition of `rows` (of `corpus`), under `title`.
        func table(_ title: String, corpus: String, _ rows: [CorpusRow], heading: (String) -> String) -> String {
            let conditions = conditionsInOrder(rows)
            var out = "\n\(title):\n\n| engine | " + conditions.map(heading).joined(separator: " | ") + " |\n|---|"
            out += String(repeating: "---|", count: conditions.count) + "\n"
            for (name, figures) in engines {
                out += "| \(name) | " + conditions.map { figures.rate("\(corpus)/\($0)") }.joined(separator: " | ") + " |\n"
            }
            return out
        }
        out += table(
            "One breath by speaking rate (`bench/one-breath.py`)", corpus: "one-breath", corpora.breath,
            heading: { "\($0.dropFirst(3)) wpm" })
        if !corpora.afterSpeech.isEmpty {
            out += table(
                "After other words in the same breath (`bench/one-breath.py --after-speech`; lead-in words)",
                corpus: "after-speech", corpora.afterSpeech, heading: { "\($0.dropFirst(4))" })
        }
        return out
    }
}

/// Passes samples to its source and keeps what it reported last, for a `Replay` to hand the
/// same candidates to a second verifier; times the source.
final class CandidateTee: WakeWordDetector {
    let source: any WakeWordDetector
    private(set) var last: [WakeWordDetection] = []
    private(set) var seconds = 0.0

    init(_ source: any WakeWordDetector) { self.source = source }

    func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
        let start = WakeBenchmark.cpuSeconds()
        last = try source.process(samples)
        seconds += WakeBenchmark.cpuSeconds() - start
        return last
    }

    func reset() throws { try source.reset() }
    var position: Int { source.position }
}

/// The candidates a `CandidateTee` got for the same samples (it must be fed first).
final class Replay: WakeWordDetector {
    let tee: CandidateTee
    init(_ tee: CandidateTee) { self.tee = tee }
    func process(_ samples: [Int16]) throws -> [WakeWordDetection] { tee.last }
    func reset() throws {}
    var position: Int { tee.position }
}

/// Feeds `primary`, then each of `others` with the same samples; returns the primary's
/// detections. Times each (the primary's time includes its tee'd source).
final class Fanout: WakeWordDetector {
    let primary: any WakeWordDetector
    let others: [any WakeWordDetector]
    private(set) var seconds: [Double]

    init(_ primary: any WakeWordDetector, _ others: [any WakeWordDetector]) {
        self.primary = primary
        self.others = others
        seconds = Array(repeating: 0, count: others.count + 1)
    }

    func process(_ samples: [Int16]) throws -> [WakeWordDetection] {
        var start = WakeBenchmark.cpuSeconds()
        let found = try primary.process(samples)
        seconds[0] += WakeBenchmark.cpuSeconds() - start
        for (index, other) in others.enumerated() {
            start = WakeBenchmark.cpuSeconds()
            _ = try other.process(samples)
            seconds[index + 1] += WakeBenchmark.cpuSeconds() - start
        }
        return found
    }

    func reset() throws {
        try primary.reset()
        for other in others { try other.reset() }
    }

    var position: Int { primary.position }
}
