import SusiCore
import SusiModel

/// A wake phrase heard, placed in the whole input.
struct WakeHeard {
    var phrase: String
    /// Where the phrase ended.
    var end: SamplePosition
}

/// Decides which input the wake word detector hears, and places what it heard in the input.
///
/// Keyword spotting costs most of the idle CPU, so the detector runs only around voice
/// activity: from `preroll` before the chunk with the first voiced frame until `hangover`
/// after the last one. The detector's own positions count only the audio it was given; the
/// gate maps them back onto the whole input. Used from the pipeline's thread.
struct WakeGate {
    /// The detector keeps running this long after the last voice...
    static let hangoverMs = 1000
    /// ...and starts this far before the first voice, so the word's soft onset is kept.
    static let prerollMs = 500
    /// Voice is placed to within this, however much input arrives at once: where the detector
    /// starts hearing sets where its steps fall, and so what it hears.
    static let voicePlacingMs = 20
    private static let voicePlacingFrames = SamplePosition.format.frames(milliseconds: voicePlacingMs)
    private static let hangoverFrames = SamplePosition.format.frames(milliseconds: hangoverMs)
    /// A pause this long ends a stretch of voice (words within a phrase are closer).
    static let pauseMs = 300
    private static let pauseFrames = SamplePosition.format.frames(milliseconds: pauseMs)
    /// The name's end is looked for up to this far (two of the neural detector's steps) after
    /// where the detector placed it...
    static let endSearchMs = 160
    /// ...as the start of a pause at least this long, in the audio heard by the decision: it
    /// comes 80-160 ms after the placed end, so a pause is only partly heard then (50 ms
    /// missed one that had begun 40 ms after the placed end).
    static let endPauseMs = 30

    private var detector: any WakeWordDetector
    /// Voice activity while idle; its noise floor seeds each command's endpointer.
    private var activity = VoiceActivityDetector(marginDB: 6)
    /// Where voice was last heard.
    private var lastVoice = SamplePosition(frames: Int.min / 2)
    /// Where the stretch of voice that `lastVoice` ends began: after a pause of `pauseMs`.
    private var voiceSince = SamplePosition(frames: Int.min / 2)
    /// Where the next feed starts after a `restart` that kept a voice going on: earlier
    /// than the gate's own start.
    private var refeedFrom: SamplePosition?
    /// How far into the input the detector has been fed.
    private var fedUntil = SamplePosition.start
    /// Frames handed to the detector so far (it skips what the gate holds back).
    private var fedFrames = 0
    /// Whether the detector heard the last chunk (voice within the hangover).
    private var feeding = false

    init(detector: any WakeWordDetector) {
        self.detector = detector
    }

    /// The background level heard while idle, in dBFS.
    var noiseFloorDB: Double? { activity.noiseFloorDB }

    /// Listens for the wake word in `chunk`, the newest input, which `history` already holds.
    mutating func hear(_ chunk: [Int16], in history: AudioHistory) throws -> WakeHeard? {
        let now = history.end
        let chunkStart = now.advanced(by: -chunk.count)
        var firstVoice: SamplePosition?
        for start in stride(from: 0, to: chunk.count, by: Self.voicePlacingFrames) {
            let end = min(start + Self.voicePlacingFrames, chunk.count)
            guard activity.anyVoiced(chunk[start..<end]) else { continue }
            let voiced = chunkStart.advanced(by: start)
            firstVoice = firstVoice ?? voiced
            if voiced.frames(since: lastVoice) > Self.pauseFrames { voiceSince = voiced }
            lastVoice = chunkStart.advanced(by: end)
        }
        feeding = now.frames(since: lastVoice) <= Self.hangoverFrames
        guard feeding else {
            refeedFrom = nil
            return nil
        }
        let lead = (firstVoice ?? chunkStart).advanced(byMilliseconds: -Self.prerollMs)
        let from = max(fedUntil, lead)
        let unheard = history.samples(from: refeedFrom.map { min($0, from) } ?? from)
        refeedFrom = nil
        fedUntil = now
        fedFrames += unheard.count
        guard let detection = try detector.process(unheard).first else { return nil }
        // The detector's times are its own, which lack what the gate held back.
        func placed(_ milliseconds: Int) -> SamplePosition {
            now.advanced(by: SamplePosition.format.frames(milliseconds: milliseconds) - fedFrames)
        }
        let end = nameEnd(
            near: placed(detection.endMilliseconds), heardUntil: placed(detection.decidedAtMilliseconds), in: history)
        return WakeHeard(phrase: detection.phrase, end: end)
    }

    /// How much input to read next while idle, in ms: while the detector hears the input, up
    /// to where it can next decide, so a decision is made as soon as its audio has arrived
    /// (an 80 ms read that ended 20-60 ms after a step held the `wake` event back that long,
    /// `bench/RESULTS.md`). Rounded up to `voicePlacingMs`, so that input resampled from
    /// another rate, a sample short, does not make a read of one sample. `otherwise` while
    /// the gate holds the input back or the detector may decide anywhere; at most `longest`.
    func nextReadMilliseconds(otherwise: Int, longest: Int) -> Int {
        guard feeding, let frames = detector.framesToNextDecision else { return otherwise }
        let parts = max(1, (frames + Self.voicePlacingFrames - 1) / Self.voicePlacingFrames)
        return min(longest, parts * Self.voicePlacingMs)
    }

    /// Where the name ended, near the detector's `estimate`. The neural detector places the
    /// end to within its 80 ms step, on the held-out voices a median 85 ms before the true end
    /// (`bench/RESULTS.md`); a command begun inside the name's last sound was heard differently
    /// from starts 10 ms apart ("ten seconds" or "two seconds"). So when the voice is still on
    /// at the estimate and stops within `endSearchMs` after it, for at least `endPauseMs`, the
    /// name ended there. Said in one breath with the command, the estimate is kept. Only the
    /// audio up to the decision (`heardUntil`) counts, however much more input has arrived:
    /// looking further found stops inside the command's first word.
    private func nameEnd(
        near estimate: SamplePosition, heardUntil decision: SamplePosition, in history: AudioHistory
    ) -> SamplePosition {
        let frame = VoiceActivityDetector.frameSamples
        let pause = SamplePosition.format.frames(milliseconds: Self.endPauseMs) / frame
        let latest = SamplePosition.format.frames(milliseconds: Self.endSearchMs) / frame
        var voiced: [Bool] = []
        // Judged against the room's level heard so far, frames starting at the estimate.
        var probe = VoiceActivityDetector(noiseFloorDB: activity.noiseFloorDB, marginDB: activity.marginDB)
        probe.process(history.samples(from: estimate, to: min(decision, estimate.advanced(by: (latest + pause) * frame)))) {
            voiced.append($0)
        }
        guard voiced.first == true, voiced.count > pause else { return estimate }
        // The first frame that starts a long enough pause (the voice was on at the estimate).
        let stop = (1...min(latest, voiced.count - pause)).first { !voiced[$0..<($0 + pause)].contains(true) }
        return estimate.advanced(by: (stop ?? 0) * frame)
    }

    /// Listens with `detector` from `now` on; the voice activity heard so far is kept.
    mutating func replace(_ detector: any WakeWordDetector, at now: SamplePosition) {
        self.detector = detector
        fedUntil = now
        fedFrames = 0
        feeding = false
    }

    /// Starts afresh after an interaction: the detector forgets what it partly heard, and
    /// hears nothing of the interaction's audio, which ended at `interactionEnd` (the wake
    /// word and command's end, or the end of what the speaker said). A voice begun after that and going
    /// on now is heard again from its start: it may be the name, said as the interaction
    /// ended (under load, the player's start can end it in the middle of a name).
    mutating func restart(at now: SamplePosition, interactionEnd: SamplePosition) {
        try? detector.reset()
        fedUntil = now
        refeedFrom = nil
        if now.frames(since: lastVoice) <= Self.hangoverFrames, voiceSince >= interactionEnd {
            refeedFrom = max(interactionEnd, voiceSince.advanced(byMilliseconds: -Self.prerollMs))
        }
    }
}
