import SusiCore
import SusiModel

/// Wake word spotting with PocketSphinx's keyphrase search.
///
/// A phrase word that the given dictionaries (`models/hotword/*.dict`) list is spotted in the
/// pronunciations listed there only; any other word in every pronunciation PocketSphinx's
/// dictionary has. Not thread-safe: one thread or actor at a time, off the cooperative pool.
public final class SphinxWakeWordDetector: WakeWordDetector {
    /// The phrases listened for.
    public let keyphrases: [Keyphrase]
    private let decoder: SphinxDecoder
    private let logger: Logger
    /// Cleaning in front of the keyphrase search (noise floor, noise suppression).
    private let preprocessors: [any SamplePreprocessor]
    /// Where recent input is left for the recogniser.
    private let sampleRate: Int
    private let framesPerSecond: Int
    /// Samples consumed since creation.
    private var samplesConsumed = 0
    /// Stream position, in samples, where the current utterance began.
    private var utteranceStart = 0

    /// Audio is fed to PocketSphinx in slices this long (32 ms at 16 kHz) so that, after a
    /// detection, little audio is lost before the search restarts.
    private let sliceLength = 512
    /// A long quiet stretch without a detection restarts the search, so its state does not
    /// grow for hours; measured in samples.
    private let restartAfter: Int

    /// Prior of the phone loop that keyphrases compete against (`-kws_plp`), used unless the
    /// configuration's `extraOptions` set it. PocketSphinx's own default is 1e-1; the keyphrase
    /// threshold was chosen with this one (`models/hotword/README.md`, "The keyphrase engine").
    public static let defaultPhoneLoopProbability = 1e-2

    /// Loads the model, adds the words of `dictionaries`, and starts spotting `keyphrases`.
    ///
    /// The configuration's own search is ignored. Pronunciations a keyphrase sets itself win
    /// over the dictionaries'. Audio passes through `preprocessors` first, in order
    /// (detection times then lag by less than its 20 ms frame).
    ///
    /// - Throws: `wake-init-failed` (model missing, bad option, bad dictionary, no phrase),
    ///   `wake-unknown-word` naming phrase words the dictionary lacks.
    public init(
        keyphrases: [Keyphrase] = [Keyphrase("susi")],
        configuration: SphinxConfiguration = SphinxConfiguration(),
        dictionaries: [PronunciationDictionary] = [],
        preprocessors: [any SamplePreprocessor] = [],
        logger: Logger = .silent
    ) throws(SpeechError) {
        self.preprocessors = preprocessors
        let keyphrases = keyphrases.map { keyphrase in
            var chosen = keyphrase
            for word in keyphrase.words where chosen.pronunciations[word] == nil {
                let listed = dictionaries.flatMap { $0.pronunciations(of: word) }
                if !listed.isEmpty { chosen.pronunciations[word] = listed }
            }
            return chosen
        }
        var configuration = configuration
        configuration.search = .keyphrases(keyphrases)
        if configuration.extraOptions["-kws_plp"] == nil {
            configuration.extraOptions["-kws_plp"] = "\(Self.defaultPhoneLoopProbability)"
        }
        do {
            decoder = try SphinxDecoder(configuration: configuration, dictionaries: dictionaries)
            try decoder.startUtterance()
        } catch {
            throw Self.wakeError(error)
        }
        self.keyphrases = keyphrases
        self.logger = logger
        sampleRate = configuration.sampleRate
        framesPerSecond = configuration.framesPerSecond
        restartAfter = configuration.sampleRate * 60
        let names = keyphrases.map { "\"\($0.phrase)\" at \($0.threshold)" }.joined(separator: ", ")
        logger.debug("listening for \(names)")
    }

    /// Milliseconds of audio consumed since creation.
    public var position: Int { samplesConsumed * 1000 / sampleRate }

    /// Consumes the next 16 kHz mono samples; returns the phrases that ended in them.
    public func process(_ samples: [Int16]) throws(SpeechError) -> [WakeWordDetection] {
        let samples = preprocessors.process(samples)
        var detections: [WakeWordDetection] = []
        var offset = 0
        while offset < samples.count {
            let end = min(offset + sliceLength, samples.count)
            do {
                try decoder.process(Array(samples[offset..<end]))
            } catch {
                throw Self.wakeError(error)
            }
            samplesConsumed += end - offset
            offset = end
            if decoder.hypothesis != nil {
                let found = currentDetections()
                detections += found
                for detection in found {
                    logger.info("heard \"\(detection.phrase)\" ending at \(detection.endMilliseconds) ms")
                }
                try restart()
            } else if samplesConsumed - utteranceStart > restartAfter, !decoder.isInSpeech {
                try restart()
            }
        }
        return detections
    }

    /// Forgets any partly heard phrase; positions keep counting.
    public func reset() throws(SpeechError) {
        try restart()
    }

    private func restart() throws(SpeechError) {
        do {
            try decoder.endUtterance()
            try decoder.startUtterance()
        } catch {
            throw Self.wakeError(error)
        }
        utteranceStart = samplesConsumed
    }

    /// The spotted phrases of the current utterance, mapped back from pronunciation variants
    /// (`susi(2)`) to the configured phrase. Variants of one phrase often fire together on
    /// the same audio; overlapping ones are one detection.
    ///
    /// The keyphrase search numbers frames from its own start, not the utterance's (and
    /// skips what voice activity detection drops), so times are placed by counting back
    /// from the frames decoded so far: the phrase ended `frameCount - endFrame` frames ago.
    private func currentDetections() -> [WakeWordDetection] {
        let frameMs = 1000 / framesPerSecond
        let lastFrame = decoder.segments.map(\.endFrame).max() ?? 0
        let nowFrame = max(lastFrame + 1, decoder.frameCount)
        var detections: [WakeWordDetection] = []
        for segment in decoder.segments.sorted(by: { $0.startFrame < $1.startFrame }) {
            let endMs = position - (nowFrame - segment.endFrame - 1) * frameMs
            let startMs = endMs - (segment.endFrame + 1 - segment.startFrame) * frameMs
            let spoken = segment.word.split(separator: " ").map { SphinxDecoder.baseWord(String($0)) }
                .joined(separator: " ")
            let phrase = keyphrases.first { $0.phrase == spoken }?.phrase ?? spoken
            let detection = WakeWordDetection(
                phrase: phrase,
                startMilliseconds: max(0, startMs),
                endMilliseconds: endMs,
                decidedAtMilliseconds: position)
            if let last = detections.last, last.phrase == phrase, detection.startMilliseconds < last.endMilliseconds {
                detections[detections.count - 1].endMilliseconds = max(last.endMilliseconds, detection.endMilliseconds)
            } else {
                detections.append(detection)
            }
        }
        return detections
    }

    /// The decoder speaks for recognition; a detector's failures belong to the wake stage.
    private static func wakeError(_ error: SpeechError) -> SpeechError {
        switch error.kind {
        case .unknownWord, .wakeUnknownWord: return SpeechError(.wakeUnknownWord, error.message)
        case .decodeFailed, .wakeDecodeFailed: return SpeechError(.wakeDecodeFailed, error.message)
        default: return SpeechError(.wakeInitFailed, error.message)
        }
    }
}
