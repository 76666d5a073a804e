import Foundation
import SusiBrain
import SusiCore
import SusiSpeech

/// The open-question run of `bench/open-questions.py`: this project's recogniser on each file
/// of the question corpus, fed as the pipeline feeds it (the recogniser adapts to the second
/// before and starts 150 ms before the question), and the reading the pipeline
/// would send written out; the script scores it beside the stock setup.
enum QuestionBenchmark {
    /// Writes `id<TAB>reading<TAB>best path<TAB>finish ms` (finish: both passes when there are two) for every row of `corpus` to `output`.
    static func run(corpus: String, output: String, config: Config, settings: Hearing.Settings, options: Options) throws {
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
            lines += "\(row.id)\t\(reading)\t\(transcript.text)\t\(String(format: "%.0f", milliseconds))\n"
        }
        try lines.write(toFile: output, atomically: true, encoding: .utf8)
    }
}
