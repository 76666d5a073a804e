import Foundation
import SusiBrain
import SusiModel
import SusiSpeech

/// Command recognition figures per noise condition.
struct CommandFigures {
    var words: [String: Int] = [:]
    var errors: [String: Int] = [:]
    var commands: [String: Int] = [:]
    var sameSkill: [String: Int] = [:]
    /// Milliseconds from the last audio to the transcript, per command.
    var finishMilliseconds: [Double] = []
    /// Recognised text by row id, for inspection.
    var transcripts: [String: String] = [:]

    func wer(_ condition: String) -> Double {
        Double(errors[condition] ?? 0) / Double(max(1, words[condition] ?? 0))
    }

    func intentAccuracy(_ condition: String) -> Double {
        Double(sameSkill[condition] ?? 0) / Double(max(1, commands[condition] ?? 0))
    }

    var finishP95: Double {
        let sorted = finishMilliseconds.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    }

    mutating func add(row: CorpusRow, hypothesis: String, brain: Brain) {
        let reference = WordErrors.words(row.text)
        words[row.condition, default: 0] += reference.count
        errors[row.condition, default: 0] += WordErrors.distance(reference, WordErrors.words(hypothesis))
        commands[row.condition, default: 0] += 1
        if CommandBenchmark.skill(of: hypothesis, brain: brain) == CommandBenchmark.skill(of: row.text, brain: brain) {
            sameSkill[row.condition, default: 0] += 1
        }
        transcripts[row.id] = hypothesis
    }
}

enum CommandBenchmark {
    /// Milliseconds of audio before the command's start that both systems are given, as the
    /// pipeline starts recognising at the end of the wake word.
    nonisolated(unsafe) static var lead = 150
    /// Amplitude of white noise added to every file (0: none), for experiments.
    nonisolated(unsafe) static var noiseFloor = 0
    /// Milliseconds of audio before the lead that the recogniser adapts to first, as the
    /// pipeline gives it the second before the command (`SpeechRecognizer.start(adaptingTo:)`;
    /// 0: none).
    nonisolated(unsafe) static var prime = 1_000
    /// Experiment: decode every command again, and take the open reading unless a skill understands it.
    nonisolated(unsafe) static var secondPassAlways = false
    /// `--set intent=actions`: the same intent is the same skill and the same action types
    /// (`list_add` is not `list_remove`), not the same skill alone.
    nonisolated(unsafe) static var intentByActions = false
    /// `--set whisper=DIR`: hears the commands no skill is sure of, whole, from the command's
    /// start (less `lead`) to 250 ms after its speech, as the pipeline's `stt.whisper_when unsure`.
    nonisolated(unsafe) static var whisper: WhisperTranscriber?

    /// Recognises each command, from just before its start to the end of the file, after
    /// adapting to the `prime` ms before.
    static func run(
        rows: [CorpusRow], recognizer: SphinxRecognizer, brain: Brain,
        understanding: (String) -> CommandUnderstanding?
    ) throws -> CommandFigures {
        var figures = CommandFigures()
        for row in rows {
            let (reading, transcript, elapsed) = try recognize(row, recognizer: recognizer, understanding: understanding)
            figures.finishMilliseconds.append(
                Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            if benchDebug {
                let same = skill(of: reading, brain: brain) == skill(of: row.text, brain: brain)
                print(
                    same ? "OK " : "BAD", row.id, "|", reading, "|", transcript.text, "|",
                    transcript.alternatives.joined(separator: " / "))
            }
            figures.add(row: row, hypothesis: reading, brain: brain)
        }
        return figures
    }

    /// One command's reading as the pipeline would take it (the skills' reading a skill
    /// understands, else the open decoder's), its transcript, and how long the final pass took.
    static func recognize(
        _ row: CorpusRow, recognizer: SphinxRecognizer, understanding: (String) -> CommandUnderstanding?
    ) throws -> (reading: String, transcript: Transcript, finish: Duration) {
        var samples = try Corpus.samples(row.file)
        if noiseFloor > 0 {
            var state: UInt64 = 1
            samples = samples.map { sample in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int16(clamping: Int(sample) + Int((state >> 33) % UInt64(2 * noiseFloor + 1)) - noiseFloor)
            }
        }
        let from = max(0, (row.command_start_ms - lead) * 16)
        try recognizer.start(adaptingTo: Array(samples[max(0, from - prime * 16)..<from]))
        let audio = Array(samples[from...])
        for start in stride(from: 0, to: audio.count, by: 1600) {
            try recognizer.process(Array(audio[start..<min(audio.count, start + 1600)]))
        }
        let clock = ContinuousClock.now
        let transcript = try recognizer.finish()
        let elapsed = ContinuousClock.now - clock
        let command = transcript.command(understanding: understanding)
        var reading = command.text
        if let whisper, !command.isSure {
            // As the pipeline does with Whisper: its reading replaces an unsure one.
            let end = min(samples.count, (row.speech_end_ms + 250) * 16)
            do {
                let heard = try whisper.transcribe(Array(samples[from..<max(from, end)]))
                if !heard.isEmpty { reading = heard }
            } catch {
                // As the pipeline does: the failure is reported, PocketSphinx's reading kept.
                print("whisper failed on \(row.id): \(error.message)")
            }
        } else if recognizer.hasSecondSearch, !command.isSure || secondPassAlways {
            // As the pipeline does: what no skill understands is decoded again for open questions.
            let open = try recognizer.decodeAgain().text
            if !open.isEmpty, !secondPassAlways || understanding(open) == nil { reading = open }
        }
        return (reading, transcript, elapsed)
    }

    /// The stock figures from `pocketsphinx_batch` hypotheses.
    static func stock(rows: [CorpusRow], hypotheses: [String: String], brain: Brain) -> CommandFigures {
        var figures = CommandFigures()
        for row in rows { figures.add(row: row, hypothesis: hypotheses[row.id] ?? "", brain: brain) }
        return figures
    }

    /// The skill the brain answers `text` with (with `intentByActions`, and the types of its
    /// actions); nil when nothing answers.
    static func skill(of text: String, brain: Brain) -> String? {
        guard !text.isEmpty, let reply = try? brain.answer(text) else { return nil }
        guard intentByActions else { return reply.skill }
        return ([reply.skill ?? ""] + reply.actions.map(\.type)).joined(separator: " ")
    }
}
