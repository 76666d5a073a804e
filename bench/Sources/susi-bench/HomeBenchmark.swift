import Foundation
import SusiBrain
import SusiModel
import SusiSpeech

/// Home Assistant commands through the recogniser (`bench/home-assistant.sh`): the corpus of
/// `bench/home-corpus.py` (eSpeak NG voices, clean and in pink noise) against a fixed home
/// (`bench/home/names.json`, what `HomeAssistantLink` would have fetched and cached), so the
/// language model holds the home's names as `susi run` builds it.
///
/// A command counts as understood when the brain makes the same `home_assistant` action of the
/// reading as of the text said (command, entities, value): the right thing happens in the home.
/// The column "same skill" is the looser figure of the dev corpus benchmark.
enum HomeBenchmark {
    static func run(corpus: String, names path: String, options: Options, settings: Hearing.Settings) throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let names = try decoder.decode(HomeDirectory.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let cache = options.cache + "/home-bench"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        try names.write(to: cache)
        var config = Config()
        config.homeAssistant.url = names.server
        let recognizer = try Hearing.makeRecognizer(
            config: config, modelsDirectory: options.models, skillsDirectory: options.skills, cacheDirectory: cache,
            settings: settings)
        let brain = try Brain(directory: options.skills, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let context = BrainContext(home: names)
        let local = LocalChatBrain(brain: brain) { context }
        func action(_ text: String) -> String {
            guard !text.isEmpty, let reply = try? brain.answer(text, context: context) else { return "nothing" }
            return "\(reply.skill ?? "none") \(ExampleResult.describe(reply))"
        }
        func skill(_ text: String) -> String? {
            text.isEmpty ? nil : (try? brain.answer(text, context: context))?.skill
        }

        // As `stt.engine whisper` with `stt.whisper_when unsure`: Whisper's reading of the whole
        // command replaces one no skill is sure of.
        // Its deadline is 5 s, not the pipeline's 1.2 s: this measures what it hears, on a shared
        // machine; a failure keeps PocketSphinx's reading, as in the pipeline.
        let whisper = try options.homeWhisper.map { directory throws in
            try WhisperTranscriber(directory: directory, deadlineSeconds: 5)
        }
        var whisperFailures = 0
        var withWhisper: [String: Int] = [:]
        var whisperAlways: [String: Int] = [:]
        let rows = try Corpus.rows(corpus)
        var conditions: [String] = []
        var total: [String: Int] = [:]
        var sameAction: [String: Int] = [:]
        var sameSkill: [String: Int] = [:]
        var words: [String: Int] = [:]
        var errors: [String: Int] = [:]
        var misses: [String] = []
        var checked = Set<String>()
        for row in rows {
            if !conditions.contains(row.condition) { conditions.append(row.condition) }
            let expected = action(row.text)
            // Every text said must itself be a home command with an entity: else the benchmark is wrong.
            if !expected.hasPrefix("home [home_assistant "), !checked.contains(row.text) {
                print("corpus: \"\(row.text)\" gives \(expected), no home command")
            }
            checked.insert(row.text)
            let (reading, transcript, _) = try CommandBenchmark.recognize(
                row, recognizer: recognizer, understanding: local.understanding(of:))
            total[row.condition, default: 0] += 1
            let reference = WordErrors.words(row.text)
            words[row.condition, default: 0] += reference.count
            errors[row.condition, default: 0] += WordErrors.distance(reference, WordErrors.words(reading))
            if action(reading) == expected {
                sameAction[row.condition, default: 0] += 1
            } else {
                misses.append("\(row.id)\t\(row.text)\t\(reading)\t(skills' model: \(transcript.text))")
            }
            if skill(reading) == skill(row.text) { sameSkill[row.condition, default: 0] += 1 }
            if let whisper {
                // `stt.whisper_when always` hears every command with Whisper; `unsure` only those
                // no skill is sure of.
                var whole: String?
                do {
                    let samples = try Corpus.samples(row.file)
                    let text = try whisper.transcribe(
                        Array(samples[max(0, (row.command_start_ms - CommandBenchmark.lead) * 16)...]))
                    whole = text.isEmpty ? nil : text
                } catch {
                    whisperFailures += 1
                }
                let sure = local.understanding(of: reading)?.isSure == true
                if action(sure ? reading : whole ?? reading) == expected { withWhisper[row.condition, default: 0] += 1 }
                if action(whole ?? reading) == expected { whisperAlways[row.condition, default: 0] += 1 }
                if benchDebug { print(row.id, "|", reading, sure ? "(sure)" : "", "|", whole ?? "-") }
            }
        }
        func percent(_ part: Int?, _ whole: Int?) -> String {
            String(format: "%.1f%%", 100 * Double(part ?? 0) / Double(max(1, whole ?? 0)))
        }
        let whisperColumn = whisper == nil ? "" : " with Whisper when unsure | with Whisper always |"
        var table = "| condition | commands | same action (intent) | same skill | command WER |\(whisperColumn)\n"
        table += "|---|---|---|---|---|\(whisper == nil ? "" : "---|---|")\n"
        for condition in conditions {
            table +=
                "| \(condition) | \(total[condition] ?? 0) | \(percent(sameAction[condition], total[condition])) | "
                + "\(percent(sameSkill[condition], total[condition])) | \(percent(errors[condition], words[condition])) |"
                + (whisper == nil
                    ? ""
                    : " \(percent(withWhisper[condition], total[condition])) | \(percent(whisperAlways[condition], total[condition])) |")
                + "\n"
        }
        let all = total.values.reduce(0, +)
        table +=
            "| all | \(all) | \(percent(sameAction.values.reduce(0, +), all)) | \(percent(sameSkill.values.reduce(0, +), all)) | "
            + "\(percent(errors.values.reduce(0, +), words.values.reduce(0, +))) |"
            + (whisper == nil
                ? ""
                : " \(percent(withWhisper.values.reduce(0, +), all)) | \(percent(whisperAlways.values.reduce(0, +), all)) |")
            + "\n"
        print(table)
        if whisper != nil { print("Whisper failed (kept PocketSphinx's reading) on \(whisperFailures) commands") }
        print("misheard (id, said, heard, the skills' model's reading):")
        for miss in misses { print("  " + miss) }
        if let others = options.homeGrammarOthers {
            try grammar(
                rows: rows, others: others, names: names, recognizer: recognizer, understanding: local.understanding(of:),
                action: action)
        }
    }

    /// The home's commands alone heard again (the recogniser's side search,
    /// `Hearing.homeCommandsSearch`) beside the skills' model: per rule, the commands whose
    /// action is right, and of `others` (commands for other skills, or open questions) those
    /// it turns into a home command. The speaker's rule is the last.
    static func grammar(
        rows: [CorpusRow], others: String, names: HomeDirectory, recognizer: SphinxRecognizer,
        understanding: (String) -> CommandUnderstanding?, action: (String) -> String
    ) throws {
        let rules: [(String, (_ lm: String, _ sure: Bool, _ heard: String) -> String)] = [
            ("skills' model alone", { lm, _, _ in lm }),
            ("the home's commands when no skill is sure", { lm, sure, heard in sure ? lm : heard }),
            (
                "the same, when both share a word of a name (the speaker's)",
                { lm, sure, heard in !sure && names.mayBe(heard, heard: lm) ? heard : lm }
            ),
        ]
        /// The skills' model's reading, whether a skill is sure of it, and the home's commands' reading.
        func readings(_ row: CorpusRow) throws -> (String, Bool, String) {
            let (lm, transcript, _) = try CommandBenchmark.recognize(row, recognizer: recognizer, understanding: understanding)
            let sure = transcript.command(understanding: understanding).isSure
            let heard = try recognizer.decodeAgain(withSideSearch: Hearing.homeCommandsSearch)?.text ?? ""
            return (lm, sure, heard)
        }
        var right: [String: [Int]] = [:]
        var total: [String: Int] = [:]
        for row in rows {
            let expected = action(row.text)
            let (lm, sure, heard) = try readings(row)
            total[row.condition, default: 0] += 1
            for (index, rule) in rules.enumerated() where action(rule.1(lm, sure, heard)) == expected {
                right[row.condition, default: [Int](repeating: 0, count: rules.count)][index] += 1
            }
            if benchDebug { print(["ROW", "home", row.id, row.text, lm, "\(sure)", heard].joined(separator: "\t")) }
        }
        var turned = [Int](repeating: 0, count: rules.count)
        let otherRows = try Corpus.rows(others)
        for row in otherRows {
            let (lm, sure, heard) = try readings(row)
            for (index, rule) in rules.enumerated()
            where action(rule.1(lm, sure, heard)).hasPrefix("home [home_assistant ")
                && !action(lm).hasPrefix("home [home_assistant ")
            {
                turned[index] += 1
            }
            if benchDebug { print(["ROW", "other", row.id, row.text, lm, "\(sure)", heard].joined(separator: "\t")) }
        }
        let conditions = total.keys.sorted()
        print("| rule | " + conditions.joined(separator: " | ") + " | all | other commands made home commands |")
        print("|---|" + String(repeating: "---|", count: conditions.count + 2))
        for (index, rule) in rules.enumerated() {
            let counts = conditions.map { right[$0]?[index] ?? 0 }
            let cells = zip(conditions, counts).map {
                String(format: "%.1f%%", 100 * Double($1) / Double(max(1, total[$0] ?? 0)))
            }
            let all = String(format: "%.1f%%", 100 * Double(counts.reduce(0, +)) / Double(max(1, rows.count)))
            print("| \(rule.0) | " + cells.joined(separator: " | ") + " | \(all) | \(turned[index]) of \(otherRows.count) |")
        }
    }
}
