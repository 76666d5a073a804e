import SusiCore
import SusiModel

/// A command as heard: its words, and where its speech ended.
struct HeardCommand {
    /// The reading chosen (the first one a skill understands, else the best); may be empty.
    var text: String
    /// Whether a skill understands `text` without owing it to loose wildcards
    /// (`CommandUnderstanding.isSure`); otherwise the open-question model may hear it better.
    var isSure: Bool
    /// Where the speech ended; nil when nobody spoke.
    var speechEnd: SamplePosition?
}

/// Hears the command after the wake word and decides when it has ended (endpointing).
///
/// Fed chunk by chunk by the pipeline. A command ends after a trailing silence whose length
/// depends on how finished the words so far sound (`CommandEnding`): whether a skill is sure
/// of them (not only through loose wildcards) is asked cheaply (`ChatBrain.isCompleteCommand`,
/// which never fetches or renders) at three points of a pause only: `decisionLeadMs` before
/// the short silence that ends a complete command, at that silence, and at the one that ends
/// an undecided command. Other readings come only from a final decoding: a lattice search
/// mid-utterance can crash PocketSphinx. Used from the pipeline's thread.
final class CommandListener {
    /// How much speech a command needs before a pause gets the recogniser's final decoding
    /// when no quick reading reaches a skill.
    static let earlyFinishSpeechMs = 400
    /// How long before the short silence that ends a complete command its final decoding
    /// starts (it takes 50-150 ms).
    static let decisionLeadMs = 100

    private let recognizer: any SpeechRecognizer
    private let brain: any ChatBrain
    /// The command as the second recogniser hears it (`PipelineEnvironment.transcribeAgain`),
    /// once the recogniser's utterance is closed; nil without one.
    private let hearAgain: () throws -> String?
    /// The endpointing of the next command (the current one keeps what it began with).
    var settings: EndpointerSettings {
        didSet { weighingPoints = Self.weighingPoints(settings) }
    }
    private let logger: Logger

    /// Where the command began (the end of the wake word).
    private var start = SamplePosition.start
    private var endpointer: Endpointer
    private var ending = CommandEnding.unfinished
    /// The latest point of the current pause weighed; 0 while the person speaks.
    private var weighedAt = 0
    /// The final decoding had in this pause, when the command is to end with it; the audio
    /// after it is held back, and decoded only if the person goes on.
    private var finalAtPause: Transcript?
    private var held: [Int16] = []
    /// Whether a quick reading held more than a lead-in ("in", "hey": the end of the wake word
    /// decoded alone); until then a pause after the name does not end the command.
    private var begun = false
    /// What skills made of each reading weighed in this command (readings repeat from one
    /// weighing point to the next).
    private var understood: [String: CommandUnderstanding?] = [:]
    /// The silences at which a pause is weighed, in ms: the decision point, the short silence
    /// and the undecided one.
    private var weighingPoints: [Int]

    init(
        recognizer: any SpeechRecognizer, brain: any ChatBrain, settings: EndpointerSettings, logger: Logger,
        hearAgain: @escaping () throws -> String? = { nil }
    ) {
        self.recognizer = recognizer
        self.brain = brain
        self.hearAgain = hearAgain
        self.settings = settings
        self.logger = logger
        endpointer = Endpointer(settings: settings)
        weighingPoints = Self.weighingPoints(settings)
    }

    private static func weighingPoints(_ settings: EndpointerSettings) -> [Int] {
        let endpointer = Endpointer(settings: settings)
        let short = endpointer.silenceMs(for: .complete)
        return [max(10, short - decisionLeadMs), short, endpointer.silenceMs(for: .undecided)]
    }

    /// Begins a command at `start` with the audio heard since (the start of a command said in
    /// one breath with the wake word), after `before` (the recogniser adapts to it);
    /// `noiseFloorDB` is the room's level heard while idle. True when the command has already
    /// ended.
    func begin(at start: SamplePosition, after before: [Int16], with heardSince: [Int16], noiseFloorDB: Double?)
        throws -> Bool
    {
        try recognizer.start(adaptingTo: before)
        self.start = start
        endpointer = Endpointer(settings: settings, noiseFloorDB: noiseFloorDB)
        ending = .unfinished
        begun = false
        weighedAt = 0
        finalAtPause = nil
        held = []
        understood = [:]
        return try hear(heardSince)
    }

    /// Hears the next chunk of the command; true once the command has ended.
    func hear(_ samples: [Int16]) throws -> Bool {
        if finalAtPause == nil { try recognizer.process(samples) } else { held += samples }
        let silence = endpointer.trailingSilenceMs
        if silence > 0, finalAtPause == nil,
            let point = weighingPoints.last(where: {
                $0 > weighedAt && silence + SamplePosition.format.milliseconds(frames: samples.count) >= $0
            })
        {
            weighedAt = point
            try weigh(at: point, silence: silence)
        }
        if case .ended = endpointer.process(samples, ending: ending) { return true }
        if endpointer.trailingSilenceMs == 0 {
            // The person goes on.
            if finalAtPause != nil {
                finalAtPause = nil
                try recognizer.resume()
                try recognizer.process(held)
            }
            held = []
            weighedAt = 0
            ending = .unfinished
        }
        return false
    }

    /// Weighs the pause at `point` ms of silence into `ending`.
    private func weigh(at point: Int, silence: Int) throws {
        let (decision, short) = (weighingPoints[0], weighingPoints[1])
        let reached = weighReading(silence)
        // The quick reading reaches a skill ahead of the short silence: the final decoding is
        // had now, so the answer is ready when that silence is over.
        let ahead = point == decision && reached
        // The quick reading reaches no skill at the short silence: the final decoding often
        // hears better. When it reaches no skill either, the command still waits for the
        // longer silence, and ends with this decoding unless the person goes on. Not in the
        // first moments of speech: the end of the wake word, decoded alone, is often "hey".
        let instead = point == short && !reached && endpointer.speechMs >= Self.earlyFinishSpeechMs
        guard ahead || instead, recognizer.canResume else { return }
        let transcript = try recognizer.finish()
        logger.trace("\(silence) ms into a pause, final decoding: \(transcript.readings)")
        finalAtPause = transcript
        // Complete only when a skill is sure of the reading: among the many readings of a long
        // question paused on in noise, one often reaches a skill through loose wildcards ("how
        // have you been" in "how many people live ..."), and ending there after the short
        // silence cut the question (bench/pause-after-name.py). With an open-question model,
        // its reading is asked even when a skill is sure of the skills' reading: that model
        // hears the first part of a question paused on as it is, where the skills' model
        // hears the nearest whole command ("how far is paris" as "how are you"; --kind mid).
        // When no skill is sure of its reading, the command waits a little longer
        // (`disputed`), not the undecided silence: on short commands the open model is the
        // one that mishears ("hello" as "little"), and the skills' reading is answered then.
        // How long an unsure command waits is judged on that reading too ("what room are we
        // in", not "what do a your").
        let skills = ahead || transcript.command(understanding: understanding(of:)).isSure
        guard let open = openReading() else {
            ending = skills ? .complete : .of(transcript.text, matchesSkill: false, atStart: !begun)
            return
        }
        if isSure(open) {
            ending = .complete
        } else if skills {
            ending = .disputed
        } else {
            ending = .of(open, matchesSkill: false, atStart: !begun)
        }
    }

    /// The second recogniser's reading of the words so far (the reading the pipeline sends
    /// when no skill is sure of the first recogniser's); nil without one, or when it fails
    /// (the pipeline reports that failure if it asks again when the command ends). Asked at
    /// a pause once the recogniser's utterance is closed: its final pass began then
    /// (`SpeechRecognizer.finish`), and is needed once the command ends anyway.
    private func openReading() -> String? {
        do {
            guard let again = try hearAgain(), !again.isEmpty else { return nil }
            logger.trace("the second recogniser heard \"\(again)\"")
            return again
        } catch {
            logger.debug("the second recogniser failed at a pause: \(error)")
            return nil
        }
    }

    /// Weighs the recogniser's quick reading into `ending`; true when a skill is sure of it
    /// (`CommandUnderstanding.isSure`: one taken only through loose wildcards, "what is *",
    /// may be the start of a longer question).
    private func weighReading(_ silence: Int) -> Bool {
        let words = recognizer.partial ?? ""
        if !begun, CommandEnding.isLeadIn(words) {
            ending = .leadIn
            logger.trace("\(silence) ms into a pause after the name: \"\(words)\"")
            return false
        }
        begun = true
        let reached = isSure(words)
        ending = .of(words, matchesSkill: reached)
        logger.trace("\(silence) ms into a pause: \(ending) \"\(words)\"")
        return reached
    }

    /// Whether a skill understands `text` without owing it to loose wildcards.
    private func isSure(_ text: String) -> Bool { understanding(of: text)?.isSure == true }

    /// How a skill understands `text`, asked of the brain once per command and reading.
    private func understanding(of text: String) -> CommandUnderstanding? {
        if let known = understood[text] { return known }
        let answer = brain.understanding(of: text)
        understood[text] = answer
        return answer
    }

    /// Ends the command (when the endpointer ended it, or the input did) and returns what was
    /// heard.
    func finish() throws -> HeardCommand {
        let transcript = try finalAtPause ?? recognizer.finish()
        finalAtPause = nil
        let reading = transcript.command(understanding: understanding(of:))
        let spoke = endpointer.state != .ended(.noSpeech) && endpointer.speechStartMs != nil
        let end = start.advanced(byMilliseconds: endpointer.lastVoiceMs ?? endpointer.elapsedMs)
        return HeardCommand(text: reading.text, isSure: reading.isSure, speechEnd: spoke ? end : nil)
    }
}
