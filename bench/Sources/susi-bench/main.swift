import Foundation
import SusiBrain
import SusiCore
import SusiModel
import SusiSpeech

// The accuracy benchmark: this project's recogniser and wake word (through the SusiSpeech
// factory the speaker uses) side by side with the stock PocketSphinx setup, on the dev
// corpus. bench/accuracy.sh builds the corpus, runs the stock tools and then this.

struct Options {
    var corpus = "bench/out/corpus"
    var negatives = "bench/out/negatives"
    var skills = "models/skills"
    var models = "models"
    var cache = "bench/out/cache"
    /// `pocketsphinx_batch` hypotheses of the stock setup: PREFIX-commands.hyp,
    /// PREFIX-wake.hyp and PREFIX-negatives.hyp.
    var stock: String?
    /// The held-out check corpus (`bench/heldout.py`), measured after the dev corpus when given.
    var heldoutCorpus: String?
    var heldoutNegatives: String?
    var heldoutStock: String?
    /// `bench/one-breath.py`'s files: the wake word said in one breath with the command.
    var breathCorpus: String?
    /// `bench/one-breath.py --after-speech`'s files: the name after other words, in one breath.
    var afterSpeechCorpus: String?
    var results: String?
    var every = 1
    var only: String?
    var settings: [(String, String)] = []
    var dump: String?
    /// `bench/wake-stages.py`'s corpus: what each wake stage made of every file (`WakeStages`).
    var wakeStages: String?
    /// The wake engines side by side (`WakeComparison`) instead of the wake column.
    var wakeCompare = false
    /// `bench/heldout.py --commands`: commands alone after quiet, for false wakes.
    var commandsOnly: String?
    /// `bench/heldout.py --negatives --hours H`: the neural engines' false wakes in the wake
    /// comparison are counted on these (with the dev corpus's negatives) instead of `heldoutNegatives`.
    var wakeNegatives: String?
    var conversationNegatives: String?
    /// `bench/heldout.py --words`: single words after pauses, for false wakes.
    var wordNegatives: String?
    /// The open-question corpus (`bench/open-questions.py`): only it is run, readings to `questionsOut`.
    var questions: String?
    var questionsOut = "bench/out/questions-susi.tsv"
    /// Both decoders' readings of every question file and what decides between them (`QuestionBenchmark`).
    var questionsBoth = false
    /// `bench/home-corpus.py`'s corpus: Home Assistant commands alone (`HomeBenchmark`), with
    /// the home's names from `homeNames`.
    var home: String?
    var homeNames = "bench/home/names.json"
    /// `models/whisper`: also measure with Whisper hearing the commands no skill is sure of.
    var homeWhisper: String?
    /// Also hear every command again with the home's commands alone
    /// (`Hearing.homeCommandsSearch`), and count on this other corpus (the dev corpus, open
    /// questions: no home command) how often each rule would turn a command into a home one.
    var homeGrammarOthers: String?
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        if argument == "--wake-compare" {
            options.wakeCompare = true
            continue
        }
        if argument == "--questions-both" {
            options.questionsBoth = true
            continue
        }
        let value = arguments.popFirst() ?? ""
        switch argument {
        case "--commands-only": options.commandsOnly = value
        case "--wake-negatives": options.wakeNegatives = value
        case "--conversation-negatives": options.conversationNegatives = value
        case "--word-negatives": options.wordNegatives = value
        case "--scores": break
        case "--corpus": options.corpus = value
        case "--negatives": options.negatives = value
        case "--skills": options.skills = value
        case "--models": options.models = value
        case "--cache": options.cache = value
        case "--stock": options.stock = value
        case "--heldout-corpus": options.heldoutCorpus = value
        case "--heldout-negatives": options.heldoutNegatives = value
        case "--heldout-stock": options.heldoutStock = value
        case "--breath-corpus": options.breathCorpus = value
        case "--after-speech-corpus": options.afterSpeechCorpus = value
        case "--results": options.results = value
        case "--every": options.every = max(1, Int(value) ?? 1)
        case "--only": options.only = value
        case "--dump": options.dump = value
        case "--wake-stages": options.wakeStages = value
        case "--questions": options.questions = value
        case "--home": options.home = value
        case "--home-names": options.homeNames = value
        case "--home-whisper": options.homeWhisper = value
        case "--home-grammar": options.homeGrammarOthers = value
        case "--questions-out": options.questionsOut = value
        case "--set":
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            options.settings.append((parts[0], parts.count > 1 ? parts[1] : ""))
        default:
            FileHandle.standardError.write(Data("unknown argument \(argument)\n".utf8))
            exit(2)
        }
    }
    return options
}

/// The factory's settings with `--set key=value` overrides applied.
func hearingSettings(_ overrides: [(String, String)]) -> Hearing.Settings {
    var settings = Hearing.Settings(config: Config())
    for (key, value) in overrides {
        let flag = ["1", "true", "yes", "on"].contains(value)
        switch key {
        case "threshold": settings.wakeThreshold = Double(value) ?? settings.wakeThreshold
        case "plp": settings.wakePhoneLoopProbability = Double(value) ?? settings.wakePhoneLoopProbability
        case "verify": settings.verifyWake = flag
        case "gate.margin", "gate.off":  // the stage benchmark's own (`WakeStages`)
            break
        case "alternatives", "engines", "dev_negatives", "readings", "checker", "baseline_models", "baseline_kernels", "variants",
            "shared_verifier":
            break
        case "xnnpack": settings.neuralWakeAccelerated = flag
        case "wake.stride": settings.neuralWakeStride = Int(value) ?? settings.neuralWakeStride
        case "wake.gate": settings.neuralWakeGate = Double(value) ?? settings.neuralWakeGate
        case "wake.sure": settings.neuralWakeSureThreshold = Double(value)
        case "wake.steady": settings.neuralWakeSteadySteps = Int(value) ?? settings.neuralWakeSteadySteps
        case "wake.hold": settings.neuralWakeSureHoldSteps = Int(value) ?? settings.neuralWakeSureHoldSteps
        case "wake.confirm":
            // STEPS:THRESHOLD, or 0 for none.
            let parts = value.split(separator: ":")
            settings.neuralWakeConfirmSteps = Int(parts.first ?? "0") ?? 0
            if parts.count > 1 { settings.neuralWakeConfirmThreshold = Double(parts[1]) ?? settings.neuralWakeConfirmThreshold }
        case "prior": settings.wakeVerifierPrior = Double(value) ?? settings.wakeVerifierPrior
        case "verify_margin": settings.wakeVerifierMargin = Int(value) ?? settings.wakeVerifierMargin
        case "floor": settings.recognizerNoiseFloor = Double(value)
        case "open": settings.openQuestions = flag
        case "always": CommandBenchmark.secondPassAlways = flag
        case "intent": CommandBenchmark.intentByActions = value == "actions"
        case "whisper":
            // `--set whisper=DIR`: Whisper (tiny.en from DIR, `models/whisper`) hears the commands no
            // skill is sure of, as `susi run` does with `stt.engine whisper` (the default when installed).
            do {
                // Accuracy, not speed: a generous limit, as the machine is shared (the speaker's own
                // is the model's, 1.2 s for tiny.en, past which it keeps PocketSphinx's reading).
                CommandBenchmark.whisper = try WhisperTranscriber(directory: value, deadlineSeconds: 15)
            } catch {
                FileHandle.standardError.write(Data("whisper: \(error.message)\n".utf8))
                exit(2)
            }
        case "generic.words": settings.genericWords = Int(value) ?? settings.genericWords
        case "generic.weight": settings.genericWeight = Double(value) ?? settings.genericWeight
        case "query.weight": settings.queryWeight = Double(value) ?? settings.queryWeight
        case "wake.floor": settings.wakeNoiseFloor = Double(value)
        case "prime": CommandBenchmark.prime = Int(value) ?? 0
        case "lead": CommandBenchmark.lead = Int(value) ?? CommandBenchmark.lead
        case "noisefloor": CommandBenchmark.noiseFloor = Int(value) ?? 0
        case "denoise":
            settings.recognizerPreprocessing = flag ? SpeexPreprocessor.Settings() : nil
            settings.wakePreprocessing = flag ? SpeexPreprocessor.Settings() : nil
        case "rec.denoise": settings.recognizerPreprocessing = flag ? SpeexPreprocessor.Settings() : nil
        case "wake.denoise": settings.wakePreprocessing = flag ? SpeexPreprocessor.Settings() : nil
        case "rec.agc": settings.recognizerPreprocessing = flag ? SpeexPreprocessor.Settings(automaticGain: true) : nil
        case "rec.nsdb":
            settings.recognizerPreprocessing = SpeexPreprocessor.Settings(noiseSuppressionDecibels: Int(value) ?? -15)
        default:
            if key.hasPrefix("rec.-") {
                settings.recognizerOptions[String(key.dropFirst(4))] = value
            } else if key.hasPrefix("open.-") {
                settings.openRecognizerOptions[String(key.dropFirst(5))] = value
            } else if key.hasPrefix("wake.-") {
                settings.wakeOptions[String(key.dropFirst(5))] = value
            } else {
                FileHandle.standardError.write(Data("unknown setting \(key)\n".utf8))
                exit(2)
            }
        }
    }
    return settings
}

/// The conditions of `rows` in the order they first appear.
func conditionsInOrder(_ rows: [CorpusRow]) -> [String] {
    rows.map(\.condition).reduce(into: [String]()) { seen, condition in
        if !seen.contains(condition) { seen.append(condition) }
    }
}

func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

let options = parseOptions()
// `--scores FILE.wav`: the neural detector's highest score on one file (a check that the
// Swift front end computes what bench/wakeword/frontend.py computes).
if let index = CommandLine.arguments.firstIndex(of: "--scores"), index + 1 < CommandLine.arguments.count {
    let files = NeuralWakeWordDetector.files(modelsDirectory: options.models, phrase: "susi")
    let detector = try NeuralWakeWordDetector(frontEndDirectory: files.frontEnd, headPath: files.head, threshold: 1.01)
    _ = try detector.process(try Corpus.samples(CommandLine.arguments[index + 1]))
    print(String(format: "%.6f", detector.highestScore))
    exit(0)
}
let settings = hearingSettings(options.settings)
if let corpus = options.wakeStages {
    var gate = WakeStages.Gate()
    for (key, value) in options.settings {
        if key == "gate.margin" { gate.marginDB = Double(value) ?? gate.marginDB }
        if key == "gate.off" { gate.off = ["1", "true", "yes", "on"].contains(value) }
    }
    try WakeStages.run(corpus: corpus, models: options.models, settings: settings, gate: gate)
    exit(0)
}
if let home = options.home {
    try HomeBenchmark.run(corpus: home, names: options.homeNames, options: options, settings: settings)
    exit(0)
}
let config = Config()
if let questions = options.questions {
    try QuestionBenchmark.run(
        corpus: questions, output: options.questionsOut, config: config, settings: settings, options: options,
        dumpBoth: options.questionsBoth)
    exit(0)
}
let brain = try Brain(directory: options.skills, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })

/// This project's and (with `stock`) the stock setup's figures on one corpus: the table and
/// the summary lines, as markdown. `dump` gets both systems' transcripts, one file per line.
func measure(corpus: String, negativesDirectory: String, stock: String?, dump: String?) throws -> (table: String, summary: String)
{
    let allRows = try Corpus.rows(corpus)
    // Files come in groups of one command in each condition; keep whole groups.
    let rows = allRows.enumerated().filter { ($0.offset / 3) % options.every == 0 }.map(\.element)
    // Commands alone (`--only stt`) need no recordings without the wake word.
    let negatives = options.only == "stt" ? [] : try Corpus.negatives(negativesDirectory)
    // The corpus's conditions in the order they first appear (clean, pink20, pink10 in the dev corpus).
    let conditions = conditionsInOrder(rows)
    let started = Date()

    var ourWake: WakeFigures?
    var ourCommands: CommandFigures?
    if options.only != "stt", !options.wakeCompare {
        ourWake = try WakeBenchmark.run(rows: rows, negatives: negatives) {
            try Hearing.makeWakeDetector(config: config, modelsDirectory: options.models, settings: settings)
        }
    }
    if options.only != "wake" {
        let recognizer = try Hearing.makeRecognizer(
            config: config, modelsDirectory: options.models, skillsDirectory: options.skills,
            cacheDirectory: options.cache, settings: settings)
        // What the pipeline asks of its brain to pick a reading of the audio.
        let local = LocalChatBrain(brain: brain)
        ourCommands = try CommandBenchmark.run(
            rows: rows, recognizer: recognizer, brain: brain,
            understanding: options.settings.contains { $0 == ("alternatives", "0") } ? { _ in nil } : local.understanding(of:))
    }
    let stockWake = stock.map { prefix in
        WakeBenchmark.stock(
            rows: rows, negatives: negatives, positives: StockResults.load(prefix + "-wake.hyp"),
            negativeHyps: StockResults.load(prefix + "-negatives.hyp"))
    }
    let stockCommands = stock.map { prefix in
        CommandBenchmark.stock(rows: rows, hypotheses: StockResults.load(prefix + "-commands.hyp"), brain: brain)
    }

    if let dump, let ourCommands {
        var lines = ""
        for row in rows {
            let stock = stockCommands?.transcripts[row.id] ?? ""
            lines += "\(row.id)\t\(row.text)\t\(ourCommands.transcripts[row.id] ?? "")\t\(stock)\n"
        }
        try lines.write(toFile: dump, atomically: true, encoding: .utf8)
    }

    var table = "| condition | system | wake rate | stray wakes | command WER | intent accuracy |\n|---|---|---|---|---|---|\n"
    for condition in conditions {
        for (name, wake, commands) in [("stock", stockWake, stockCommands), ("susi", ourWake, ourCommands)] {
            guard wake != nil || commands != nil else { continue }
            table += "| \(condition) | \(name) | \(wake.map { percent($0.rate(condition)) } ?? "-") | "
            table += "\(wake.map { String($0.strayWakes[condition] ?? 0) } ?? "-") | "
            table += "\(commands.map { percent($0.wer(condition)) } ?? "-") | "
            table += "\(commands.map { percent($0.intentAccuracy(condition)) } ?? "-") |\n"
        }
    }
    for (name, wake, commands) in [("stock", stockWake, stockCommands), ("susi", ourWake, ourCommands)] {
        guard wake != nil || commands != nil else { continue }
        table += "| all | \(name) | \(wake.map { percent($0.overallRate) } ?? "-") | "
        table += "\(wake.map { String($0.strayWakes.values.reduce(0, +)) } ?? "-") | "
        let words = commands.map { Double($0.errors.values.reduce(0, +)) / Double(max(1, $0.words.values.reduce(0, +))) }
        let intents = commands.map { Double($0.sameSkill.values.reduce(0, +)) / Double(max(1, $0.commands.values.reduce(0, +))) }
        table += "\(words.map(percent) ?? "-") | \(intents.map(percent) ?? "-") |\n"
    }
    var summary = ""
    for (name, wake) in [("stock", stockWake), ("susi", ourWake)] {
        guard let wake else { continue }
        summary += "- \(name): \(wake.negativeWakes) false wakes in \(String(format: "%.1f", wake.negativeSeconds / 60)) min of "
        summary += "speech without the wake word = \(String(format: "%.1f", wake.falseWakesPerHour)) per hour"
        if wake.cpuPerAudioSecond > 0 {
            summary += "; wake detector CPU \(String(format: "%.4f", wake.cpuPerAudioSecond)) s per audio second (on speech)"
        }
        summary += "\n"
    }
    if let ourCommands {
        summary +=
            "- susi: recogniser finish (last audio to transcript) p95 \(String(format: "%.0f", ourCommands.finishP95)) ms\n"
    }
    summary += "- \(rows.count) of \(allRows.count) corpus files\(options.every > 1 ? " (every \(options.every)th)" : ""), "
    summary += "run took \(String(format: "%.0f", Date().timeIntervalSince(started))) s\n"
    return (table, summary)
}

let (table, summary) = try measure(
    corpus: options.corpus, negativesDirectory: options.negatives, stock: options.stock, dump: options.dump)
print(table)
print(summary)
var moreSections = ""
if let corpus = options.heldoutCorpus, let negatives = options.heldoutNegatives {
    let measured = try measure(corpus: corpus, negativesDirectory: negatives, stock: options.heldoutStock, dump: nil)
    moreSections =
        "\n### Held-out check (other voices, brown noise; `bench/heldout.py`)\n\n" + measured.table + "\n" + measured.summary
    print("held-out:\n" + measured.table)
    print(measured.summary)
}
if let corpus = options.breathCorpus, !options.wakeCompare {
    let rows = try Corpus.rows(corpus)
    let figures = try WakeBenchmark.run(rows: rows, negatives: []) {
        try Hearing.makeWakeDetector(config: config, modelsDirectory: options.models, settings: settings)
    }
    let rates = conditionsInOrder(rows)
    var table = "| " + rates.map { "\($0.dropFirst(3)) wpm" }.joined(separator: " | ") + " |\n"
    table += "|" + String(repeating: "---|", count: rates.count) + "\n"
    table += "| " + rates.map { percent(figures.rate($0)) }.joined(separator: " | ") + " |\n"
    moreSections += "\n### Wake word in one breath with the command (`bench/one-breath.py`)\n\n"
    moreSections += "Wake rate by speaking rate (eSpeak NG's default is 175 words per minute), \(rows.count) files:\n\n" + table
    print("one breath:\n" + table)
}
if options.wakeCompare {
    moreSections += try compareWakeEngines()
}
print("settings: \(options.settings.map { "\($0.0)=\($0.1)" }.joined(separator: " "))")

if let results = options.results {
    var machine = ""
    let uname = Process()
    uname.executableURL = URL(fileURLWithPath: "/bin/uname")
    uname.arguments = ["-a"]
    let pipe = Pipe()
    uname.standardOutput = pipe
    try uname.run()
    uname.waitUntilExit()
    machine = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    let cpu =
        ((try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? "").split(separator: "\n")
        .first { $0.hasPrefix("model name") }.map { $0.split(separator: ":", maxSplits: 1).last ?? "" }
        .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown"
    let formatter = ISO8601DateFormatter()
    let kept = keptParts(of: (try? String(contentsOfFile: results, encoding: .utf8)) ?? "")
    var report = kept.head
    report += "Run: \(formatter.string(from: Date())) on `\(machine)`, CPU \(cpu), "
    report += "\(ProcessInfo.processInfo.activeProcessorCount) cores.\n\n"
    report += table + "\n" + summary + moreSections
    report +=
        "\nSettings overridden for this run: \(options.settings.isEmpty ? "none (the defaults)" : options.settings.map { "`\($0.0)=\($0.1)`" }.joined(separator: ", "))\n"
    report += kept.tail
    try report.write(toFile: results, atomically: true, encoding: .utf8)
}

/// What a run keeps of the results file it rewrites: the introduction before the tables it
/// writes (from the "Run:" line through the "Settings overridden" line) and the write-ups
/// after them. A file without those lines keeps nothing.
func keptParts(of earlier: String) -> (head: String, tail: String) {
    guard let run = earlier.range(of: "\nRun: "),
        let settings = earlier.range(of: "\nSettings overridden for this run:", range: run.upperBound..<earlier.endIndex)
    else { return ("# Accuracy benchmark\n\n", "") }
    let tail = earlier[settings.upperBound...].firstIndex(of: "\n").map { earlier.index(after: $0) } ?? earlier.endIndex
    return (String(earlier[..<run.lowerBound]) + "\n", String(earlier[tail...]))
}

/// The wake engines side by side on every corpus given (`WakeComparison`), as a section.
func compareWakeEngines() throws -> String {
    let started = Date()
    // `--every N` keeps every Nth group of files (one command in each condition).
    func every(_ rows: [CorpusRow]) -> [CorpusRow] {
        let group = max(1, conditionsInOrder(rows).count)
        return rows.enumerated().filter { ($0.offset / group) % options.every == 0 }.map(\.element)
    }
    let devNegatives = options.settings.contains { $0 == ("dev_negatives", "0") } ? [] : try Corpus.negatives(options.negatives)
    let corpora = WakeComparison.Corpora(
        dev: every(try Corpus.rows(options.corpus)),
        heldout: every(try options.heldoutCorpus.map(Corpus.rows) ?? []),
        breath: try options.breathCorpus.map(Corpus.rows) ?? [],
        afterSpeech: try options.afterSpeechCorpus.map(Corpus.rows) ?? [],
        commandsOnly: every(try options.commandsOnly.map(Corpus.rows) ?? []),
        negatives: devNegatives + (try options.heldoutNegatives.map(Corpus.negatives) ?? []))
    let neuralNegatives = try options.wakeNegatives.map { devNegatives + (try Corpus.negatives($0)) }
    let checks = [
        ("conversation", try options.conversationNegatives.map(Corpus.negatives) ?? []),
        ("words", try options.wordNegatives.map(Corpus.negatives) ?? []),
    ]
    let engines = Set(
        (options.settings.first { $0.0 == "engines" }?.1 ?? "neural,keyphrase").split(separator: ",").map(String.init))
    var neuralSettings = settings
    neuralSettings.verifyWake = false
    let dictionaries = try PronunciationDictionary.hotwordDictionaries(modelsDirectory: options.models)
        .map { path throws(SpeechError) in try PronunciationDictionary(contentsOf: path) }
    // The recogniser whose decoder holds the verifier's search, for `shared_verifier=1`.
    var sharedVerifierHost: SphinxRecognizer?
    var fanouts: [(Fanout, CandidateTee)] = []
    if options.settings.contains(where: { $0 == ("shared_verifier", "1") }) {
        var hostSettings = settings
        hostSettings.openQuestions = false
        hostSettings.verifyWake = true
        sharedVerifierHost = try Hearing.makeRecognizer(
            config: config, modelsDirectory: options.models, skillsDirectory: options.skills, cacheDirectory: options.cache,
            settings: hostSettings)
    }
    defer {
        for (fanout, tee) in fanouts {
            print(
                String(
                    format: "verifier CPU: own decoder %.2f s, recogniser's decoder %.2f s (candidates' detector %.2f s)",
                    fanout.seconds[0] - tee.seconds, fanout.seconds[1], tee.seconds))
        }
    }
    // Neural, and the same candidates through the verifier, in one pass; `--set
    // baseline_models=DIR` adds another head (DIR's) to the same run, for a before/after, and
    // `--set baseline_kernels=reference` the same head as the detector ran before 2026-12-01's
    // changes (TensorFlow Lite's reference kernels, every step, no confirmation).
    func neuralEngines(
        _ modelsDirectory: String, label: String, settings neuralSettings: Hearing.Settings = neuralSettings
    ) throws -> [(String, EngineFigures)] {
        try WakeComparison.run(corpora, negatives: neuralNegatives, checks: checks) {
            let detector = try Hearing.makeNeuralWakeDetector(
                modelsDirectory: modelsDirectory, settings: neuralSettings,
                logger: benchDebug ? Logger(label: "wake", level: .debug) : .silent)
            let inner = RecordingDetector(detector)
            // `--set checker=HEAD`: another head fed the same stream (it never wakes), its scores logged.
            let checker = try options.settings.first { $0.0 == "checker" }.map { setting in
                try NeuralWakeWordDetector(
                    frontEndDirectory: NeuralWakeWordDetector.files(modelsDirectory: modelsDirectory, phrase: settings.wakePhrase)
                        .frontEnd,
                    headPath: setting.1, threshold: 1.01, stride: neuralSettings.neuralWakeStride,
                    gate: neuralSettings.neuralWakeGate)
            }
            if let neural = detector as? NeuralWakeWordDetector {
                // `--set readings=1`: a verifier of its own reads every candidate (the sure ones too).
                let reader =
                    options.settings.contains { $0 == ("readings", "1") }
                    ? try VerifiedWakeWordDetector(
                        candidates: neural, phrase: settings.wakePhrase, phoneCount: 0, dictionaries: dictionaries,
                        phrasePrior: settings.wakeVerifierPrior) : nil
                // The score at the decision, then the steps from 240 ms before its end to 400 ms after,
                // whether it was sure, the checker's steps over the same span, and with `reader` its
                // best reading, how far below it the best reading holding the phrase is (of 50; "-"
                // for none), and its five best readings.
                inner.describe = { [unowned inner] found in
                    func steps(_ head: NeuralWakeWordDetector) -> String {
                        head.scores(from: found.endMilliseconds - 240, through: found.endMilliseconds + 400)
                            .map { String(format: "%.3f", $0) }.joined(separator: ",")
                    }
                    var text = String(format: "%.3f", neural.score(of: found) ?? -1) + "\t" + steps(neural)
                    text += "\t" + (neural.isSure(found) ? "sure" : "unsure")
                    if let checker { text += "\t" + steps(checker) }
                    if let reader {
                        let audio = inner.audio(from: found.startMilliseconds - 300, to: found.endMilliseconds + 200)
                        let readings = (try? reader.readings(of: audio, limit: 50)) ?? []
                        let best = readings.map(\.score).max() ?? 0
                        let phraseWords = settings.wakePhrase.lowercased().split(separator: " ").map(String.init)
                        let phrase = readings.first { VerifiedWakeWordDetector.contains($0.words, phraseWords) }
                        text +=
                            "\t" + (readings.first?.words.joined(separator: " ") ?? "") + "\t"
                            + (phrase.map { "\(best - $0.score)" } ?? "-") + "\t"
                            + readings.prefix(5).map { "\($0.words.joined(separator: " ")):\(best - $0.score)" }
                            .joined(separator: "|")
                    }
                    return text
                }
            }
            // As Hearing wires it: the neural detector's surest candidates skip the verifier.
            let trusted: (WakeWordDetection) -> Bool = { (detector as? NeuralWakeWordDetector)?.isSure($0) ?? false }
            guard let host = sharedVerifierHost, label.isEmpty else {
                let verified = RecordingDetector(
                    try VerifiedWakeWordDetector(
                        candidates: inner, phrase: settings.wakePhrase, phoneCount: 0, dictionaries: dictionaries,
                        phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin,
                        trusted: trusted))
                let feed: any WakeWordDetector = checker.map { Fanout(verified, [$0]) } ?? verified
                return (feed, [("neural" + label, inner), ("neural + verifier" + label, verified)])
            }
            // `--set shared_verifier=1`: the same candidates also through a verifier that
            // decodes with a recogniser's decoder (as `susi run` since 2026-12-01).
            let tee = CandidateTee(inner)
            let own = RecordingDetector(
                try VerifiedWakeWordDetector(
                    candidates: tee, phrase: settings.wakePhrase, phoneCount: 0, dictionaries: dictionaries,
                    phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin, trusted: trusted))
            let shared = RecordingDetector(
                try VerifiedWakeWordDetector(
                    candidates: Replay(tee), phrase: settings.wakePhrase, phoneCount: 0, host: host,
                    phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin, trusted: trusted))
            let fanout = Fanout(own, [shared] + (checker.map { [$0] } ?? []))
            fanouts.append((fanout, tee))
            return (
                fanout,
                [
                    ("neural" + label, inner), ("neural + verifier (own decoder)", own),
                    ("neural + verifier (recogniser's decoder)", shared),
                ]
            )
        }
    }
    let baseline = options.settings.first { $0.0 == "baseline_models" }?.1
    // The detector as it was before XNNPACK, strides, confirmation and steadiness.
    var referenceSettings = neuralSettings
    referenceSettings.neuralWakeAccelerated = false
    referenceSettings.neuralWakeStride = 1
    referenceSettings.neuralWakeConfirmSteps = 0
    referenceSettings.neuralWakeSteadySteps = 0
    let reference =
        options.settings.contains { $0 == ("baseline_kernels", "reference") }
        ? try neuralEngines(
            options.models, label: " (before: reference kernels, every step, unconfirmed)", settings: referenceSettings) : []
    // `--set variants=1,3:0.05,2:0.1:2:0.5` adds the same head with other settings:
    // STRIDE[:GATE[:CONFIRM_STEPS[:CONFIRM_THRESHOLD[:STEADY_STEPS[:SURE_HOLD_STEPS]]]]] each.
    var variants: [(String, Hearing.Settings)] = []
    for item in (options.settings.first { $0.0 == "variants" }?.1 ?? "").split(separator: ",") {
        let parts = item.split(separator: ":").map(String.init)
        var variant = neuralSettings
        variant.neuralWakeStride = Int(parts[0]) ?? 1
        if parts.count > 1 { variant.neuralWakeGate = Double(parts[1]) ?? variant.neuralWakeGate }
        if parts.count > 2 { variant.neuralWakeConfirmSteps = Int(parts[2]) ?? variant.neuralWakeConfirmSteps }
        if parts.count > 3 { variant.neuralWakeConfirmThreshold = Double(parts[3]) ?? variant.neuralWakeConfirmThreshold }
        if parts.count > 4 { variant.neuralWakeSteadySteps = Int(parts[4]) ?? variant.neuralWakeSteadySteps }
        if parts.count > 5 { variant.neuralWakeSureHoldSteps = Int(parts[5]) ?? variant.neuralWakeSureHoldSteps }
        var label = " (stride \(variant.neuralWakeStride), gate \(variant.neuralWakeGate)"
        label +=
            variant.neuralWakeConfirmSteps > 0
            ? ", confirmed \(variant.neuralWakeConfirmSteps) steps later at \(variant.neuralWakeConfirmThreshold)"
            : ", unconfirmed"
        label += variant.neuralWakeSteadySteps > 0 ? ", sure if steady \(variant.neuralWakeSteadySteps) steps" : ""
        label += ", sure held \(variant.neuralWakeSureHoldSteps) steps)"
        variants.append((label, variant))
    }
    let neural =
        !engines.contains("neural")
        ? []
        : try (baseline.map { try neuralEngines($0, label: " (baseline head)") } ?? []) + reference
            + variants.flatMap { try neuralEngines(options.models, label: $0.0, settings: $0.1) }
            + neuralEngines(options.models, label: "")
    print("neural engines measured after \(Int(Date().timeIntervalSince(started))) s")
    let keyphrase =
        !engines.contains("keyphrase")
        ? []
        : try WakeComparison.run(corpora) {
            guard let host = sharedVerifierHost else {
                let detector = RecordingDetector(
                    try Hearing.makeKeyphraseWakeDetector(config: config, modelsDirectory: options.models, settings: settings))
                return (detector, [("keyphrase + verifier (before)", detector)])
            }
            // The spotter's candidates through both verifiers (`shared_verifier=1`).
            var spotterSettings = settings
            spotterSettings.verifyWake = false
            let spotter = try Hearing.makeKeyphraseWakeDetector(
                config: config, modelsDirectory: options.models, settings: spotterSettings)
            guard let keyphrase = spotter as? SphinxWakeWordDetector else { throw SpeechError(.wakeInitFailed, "no spotter") }
            let phones = VerifiedWakeWordDetector.phoneCount(of: settings.wakePhrase, spottedBy: keyphrase)
            let spotted = RecordingDetector(spotter)
            let tee = CandidateTee(spotted)
            let own = RecordingDetector(
                try VerifiedWakeWordDetector(
                    candidates: tee, phrase: settings.wakePhrase, phoneCount: phones, dictionaries: dictionaries,
                    phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin))
            let shared = RecordingDetector(
                try VerifiedWakeWordDetector(
                    candidates: Replay(tee), phrase: settings.wakePhrase, phoneCount: phones, host: host,
                    phrasePrior: settings.wakeVerifierPrior, readingsMargin: settings.wakeVerifierMargin))
            let fanout = Fanout(own, [shared])
            fanouts.append((fanout, tee))
            return (
                fanout,
                [
                    ("keyphrase spotter", spotted), ("keyphrase + verifier (own decoder)", own),
                    ("keyphrase + verifier (recogniser's decoder)", shared),
                ]
            )
        }
    var stock: EngineFigures?
    if let prefix = options.stock {
        var figures = EngineFigures()
        for (corpus, rows, negatives, stockPrefix) in [
            ("dev", corpora.dev, devNegatives, prefix),
            ("held-out", corpora.heldout, try options.heldoutNegatives.map(Corpus.negatives) ?? [], options.heldoutStock ?? ""),
        ] where !rows.isEmpty {
            let wake = WakeBenchmark.stock(
                rows: rows, negatives: negatives, positives: StockResults.load(stockPrefix + "-wake.hyp"),
                negativeHyps: StockResults.load(stockPrefix + "-negatives.hyp"))
            for condition in conditionsInOrder(rows) {
                figures.rates["\(corpus)/\(condition)"] = (wake.hits[condition] ?? 0, wake.files[condition] ?? 0)
            }
            figures.negativeWakes += wake.negativeWakes
        }
        stock = figures
    }
    let table = WakeComparison.report(neural + keyphrase, corpora: corpora, stock: stock)
    print(table)
    return "\n### Wake word engines side by side (one run, \(Int(Date().timeIntervalSince(started))) s)\n\n" + table
}
