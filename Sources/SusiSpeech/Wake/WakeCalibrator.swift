import Foundation
import SusiCore
import SusiModel

/// Works out the keyphrase search's threshold for a wake phrase that has no trained head, and
/// checks it: the phrase said by a few eSpeak NG voices must wake the detector, a few
/// sentences without it must not.
///
/// The keyphrase threshold tuned for "susi" (1e-16, four phones) is far too strict for a
/// longer phrase: "computer" (eight phones) never woke at it. The start is that threshold
/// scaled by the phrase's phone count (`WakeCalibration.scaledThreshold`); the check then
/// loosens it while spoken phrases are missed, or tightens it while a sentence wakes it.
///
/// Synthetic voices are not a person in a room: the check proves the phrase can wake the
/// speaker at all, not how often it will in use. Blocks for a few seconds (synthesis and
/// several decoders); call it off the cooperative pool.
public struct WakeCalibrator {
    /// The voices that say the phrase (eSpeak NG accents and variants; never the held-out
    /// ones of `bench/heldout.py`, nor Festival or flite's reserved voices).
    public var voices: [VoiceSettings] = [
        VoiceSettings(name: "en-us"), VoiceSettings(name: "en-gb"), VoiceSettings(name: "en-gb-scotland"),
        VoiceSettings(name: "en-029"), VoiceSettings(name: "en-us", variant: "f3"),
        VoiceSettings(name: "en-gb", variant: "m3", rate: 200),
    ]
    /// Sentences a room hears that must not wake the speaker; those that hold a word of the
    /// phrase are left out.
    public var sentences = [
        "what time is it in london right now",
        "could you please turn the music down a little",
        "the weather will be sunny with a light breeze this afternoon",
        "we should buy some bread and milk on the way home",
        "this is a nice day in the city",
        "she read the whole book in one evening",
        "remind me to call my sister tomorrow morning",
        "the train to the airport leaves every twenty minutes",
    ]
    /// Voices that say the sentences.
    public var sentenceVoices: [VoiceSettings] = [VoiceSettings(name: "en-us"), VoiceSettings(name: "en-gb", variant: "f3")]
    /// How far one step of the search moves the threshold when it loosens (a factor of 1e-4,
    /// one "susi" phone's worth) and when it tightens (1e2).
    public var looserStep = 1e-4
    public var stricterStep = 1e2
    /// The most thresholds tried either way from the scaled one.
    public var maximumSteps = 8

    /// Converts eSpeak NG's 22,050 Hz to the detector's 16 kHz (SusiAudio's speex resampler).
    public var resampler: SampleRateConverterMaker

    /// A calibrator with the default voices and sentences, resampling with `resampler`.
    public init(resampler: @escaping SampleRateConverterMaker) {
        self.resampler = resampler
    }

    /// Calibrates `phrase` for the keyphrase detector `config` would make (`hotword.verify`
    /// and its settings; `hotword.threshold` is what is worked out), with the dictionaries
    /// of `modelsDirectory`.
    ///
    /// - Throws: `wake-unknown-word` when a word of the phrase has no pronunciation,
    ///   `wake-init-failed` when the detector or the voices cannot be made.
    public func calibrate(
        _ phrase: String, config: Config, modelsDirectory: String, logger: Logger = .silent
    ) throws(SpeechError) -> WakeCalibration {
        let keyphrase = Keyphrase(phrase)
        let phones = try WakeCalibration.phoneCount(of: keyphrase.phrase, modelsDirectory: modelsDirectory)
        let scaled = WakeCalibration.scaledThreshold(phones: phones)
        let words = Set(keyphrase.words)
        let positives = try voices.map { voice throws(SpeechError) in try spoken(keyphrase.phrase, voice: voice) }
        var negatives: [[Int16]] = []
        for (index, sentence) in sentences.enumerated()
        where words.isDisjoint(with: sentence.split(separator: " ").map(String.init)) {
            negatives.append(try spoken(sentence, voice: sentenceVoices[index % max(sentenceVoices.count, 1)]))
        }
        var settings = Hearing.Settings(config: config)
        settings.wakePhrase = keyphrase.phrase
        var tried: [Double: (wakes: Int, falseWakes: Int)] = [:]
        func run(_ threshold: Double) throws(SpeechError) -> (wakes: Int, falseWakes: Int) {
            if let known = tried[threshold] { return known }
            settings.wakeThreshold = threshold
            let detector = try Hearing.makeKeyphraseWakeDetector(
                config: config, modelsDirectory: modelsDirectory, settings: settings)
            let woke = try Self.woken(positives, phrase: keyphrase.phrase, detector: detector)
            let result = (wakes: woke.count, falseWakes: try Self.woken(negatives, phrase: nil, detector: detector).count)
            let missed = voices.indices.filter { !woke.contains($0) }.map { voices[$0].name + "+" + voices[$0].variant }
            logger.debug(
                "wake check of \"\(keyphrase.phrase)\" at \(WakeCalibration.format(threshold)): "
                    + "\(result.wakes)/\(positives.count) woke (missed: \(missed.joined(separator: ", "))), "
                    + "\(result.falseWakes) false wakes")
            tried[threshold] = result
            return result
        }
        var threshold = scaled
        var result = try run(threshold)
        var steps = 0
        // Looser while phrases are missed and nothing else wakes it; stricter while something does.
        while result.falseWakes == 0, result.wakes < positives.count, steps < maximumSteps, threshold * looserStep >= 1e-80 {
            threshold *= looserStep
            result = try run(threshold)
            steps += 1
        }
        steps = 0
        while result.falseWakes > 0, steps < maximumSteps, threshold * stricterStep <= 1 {
            threshold *= stricterStep
            result = try run(threshold)
            steps += 1
        }
        // Of the thresholds without a false wake, the one that woke most (the strictest of
        // equals); the scaled one when every threshold tried woke on a sentence.
        let clean = tried.filter { $0.value.falseWakes == 0 }
        let best = clean.max { a, b in
            a.value.wakes != b.value.wakes ? a.value.wakes < b.value.wakes : a.key < b.key
        }
        let chosen = best?.key ?? scaled
        let figures = tried[chosen] ?? (0, 0)
        let seconds = Double(negatives.reduce(0) { $0 + $1.count }) / Double(AudioFormat.speech.sampleRate)
        return WakeCalibration(
            phrase: keyphrase.phrase, phones: phones, scaledThreshold: scaled, threshold: chosen, wakes: figures.wakes,
            trials: positives.count, falseWakes: figures.falseWakes, negativeSeconds: (seconds * 10).rounded() / 10,
            verified: settings.verifyWake,
            voices: voices.map { $0.variant.isEmpty ? $0.name : $0.name + "+" + $0.variant },
            date: ISO8601DateFormatter().string(from: Date()))
    }

    /// The indices of the `clips` that woke `detector`: on `phrase`, or on anything when nil.
    private static func woken(_ clips: [[Int16]], phrase: String?, detector: any WakeWordDetector) throws(SpeechError)
        -> Set<Int>
    {
        var woken = Set<Int>()
        for (index, clip) in clips.enumerated() {
            var woke = false
            do {
                try detector.reset()
                var offset = 0
                while offset < clip.count {
                    let end = min(offset + 1_600, clip.count)
                    let heard = try detector.process(Array(clip[offset..<end]))
                    if heard.contains(where: { phrase == nil || $0.phrase == phrase }) { woke = true }
                    offset = end
                }
            } catch let error as SpeechError {
                throw error
            } catch {
                throw SpeechError(.wakeDecodeFailed, "\(error)")
            }
            if woke { woken.insert(index) }
        }
        return woken
    }

    /// `text` said by `voice` at 16 kHz, with half a second of quiet before and a second after
    /// (for the verifier's look at what follows), over a faint deterministic noise floor (about
    /// ±8, a quiet room's microphone).
    public func spoken(_ text: String, voice: VoiceSettings) throws(SpeechError) -> [Int16] {
        let speech: [Int16]
        do {
            let chunk = try ESpeakEngine.shared().synthesizeAll(text, voice: voice)
            speech = try AudioConverter.convert(chunk, to: .speech, resampler: resampler).samples
        } catch {
            throw SpeechError(.wakeInitFailed, "cannot say \"\(text)\" for the wake check: \(error)")
        }
        let before = [Int16](repeating: 0, count: AudioFormat.speech.frames(milliseconds: 500))
        let after = [Int16](repeating: 0, count: AudioFormat.speech.frames(milliseconds: 1000))
        var state: UInt64 = 42
        return (before + speech + after).map { sample in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(clamping: Int(sample) + Int((state >> 33) % 17) - 8)
        }
    }
}
