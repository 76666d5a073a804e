import Foundation
import SusiBrain
import SusiModel
import SusiSpeech

/// The open-question run of `bench/open-questions.py`: this project's recogniser on each file
/// of the question corpus, fed as the pipeline feeds it (the recogniser adapts to the second
/// before and starts 150 ms before the question), and the reading the pipeline
/// would send written out; the script scores it beside the stock setup.
enum QuestionBenchmark {
    /// Writes `id<TAB>reading<TAB>best path<TAB>finish ms` (finish: both passes when there are two) for every row of `corpus` to `output`.
    ///
    /// With `dumpBoth`, each line goes on with the skills' reading, whether a skill is sure of
    /// it, its unchecked words, acoustic score per frame and lowest word confidence, the open
    /// decoder's reading (decoded for every file), its score, confidence and unchecked words,
    /// then the skills of the reference, of the skills' reading and of the open reading, the
    /// reference and the condition.
    static func run(
        corpus: String, output: String, config: Config, settings: Hearing.Settings, options: Options,
        dumpBoth: Bool = false
    ) throws {
        let rows = try Corpus.rows(corpus)
        let recognizer = try Hearing.makeRecognizer(
            config: config, modelsDirectory: options.models, skillsDirectory: options.skills,
            cacheDirectory: options.cache, settings: settings)
        let brain = try Brain(directory: options.skills, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let local = LocalChatBrain(brain: brain)
        var lines = ""
        for row in rows {
            let samples = try Corpus.samples(row.file)
            let from = max(0, (row.command_start_ms - CommandBenchmark.lead) * 16)
            try recognizer.start(adaptingTo: Array(samples[max(0, from - CommandBenchmark.prime * 16)..<from]))
            let audio = Array(samples[from...])
            for start in stride(from: 0, to: audio.count, by: 1600) {
                try recognizer.process(Array(audio[start..<min(audio.count, start + 1600)]))
            }
            let clock = ContinuousClock.now
            let transcript = try recognizer.finish()
            let command = transcript.command(understanding: local.understanding(of:))
            var reading = command.text
            // As the pipeline does: what no skill understands is decoded again for open questions.
            if recognizer.hasSecondSearch, !command.isSure || CommandBenchmark.secondPassAlways {
                let open = try recognizer.decodeAgain().text
                if !open.isEmpty, !CommandBenchmark.secondPassAlways || !local.isCompleteCommand(open) { reading = open }
            }
            let elapsed = ContinuousClock.now - clock
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            if benchDebug { print(row.id, "|", row.text, "|", reading) }
            lines += "\(row.id)\t\(reading)\t\(transcript.text)\t\(String(format: "%.0f", milliseconds))"
            if dumpBoth {
                // Both decoders' readings and what decides between them, for rules tried offline.
                let open = recognizer.hasSecondSearch ? try recognizer.decodeAgain() : Transcript(words: [])
                let understood = local.understanding(of: command.text)
                let openUnderstood = open.isEmpty ? nil : local.understanding(of: open.text)
                func score(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "" }
                func lowest(_ transcript: Transcript) -> String {
                    transcript.words.map(\.confidence).min().map { String(format: "%.3f", $0) } ?? ""
                }
                let fields = [
                    command.text, command.isSure ? "1" : "0", understood.map { "\($0.uncheckedWords)" } ?? "",
                    score(transcript.acousticScorePerFrame), lowest(transcript), open.text,
                    score(open.acousticScorePerFrame), lowest(open), openUnderstood.map { "\($0.uncheckedWords)" } ?? "",
                    CommandBenchmark.skill(of: row.text, brain: brain) ?? "",
                    CommandBenchmark.skill(of: command.text, brain: brain) ?? "",
                    CommandBenchmark.skill(of: open.text, brain: brain) ?? "", row.text, row.condition,
                ]
                lines += "\t" + fields.joined(separator: "\t")
            }
            lines += "\n"
        }
        try lines.write(toFile: output, atomically: true, encoding: .utf8)
    }
}
