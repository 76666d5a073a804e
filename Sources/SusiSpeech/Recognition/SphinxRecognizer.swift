import SusiCore
import SusiModel

/// Streaming speech recognition with PocketSphinx: an n-gram language model or a JSGF
/// grammar, as `SphinxConfiguration.search` says.
///
/// Not thread-safe (it owns a `SphinxDecoder`): one thread or actor at a time, off the
/// cooperative pool.
public final class SphinxRecognizer: SpeechRecognizer {
    /// Internal so that the wake verifier can decode with its side search while the
    /// recogniser is idle (`VerifiedWakeWordDetector`'s `host`).
    let decoder: SphinxDecoder
    private let logger: Logger
    /// Cleaning in front of the decoder (noise floor, noise suppression); noise estimates
    /// carry over from one utterance to the next.
    private let preprocessors: [any SamplePreprocessor]
    /// Samples fed in the current utterance.
    public private(set) var samplesProcessed = 0
    /// The current utterance's audio as the decoder got it (after the preprocessors), for
    /// `resume`; emptied for good once the utterance is longer than `resumableSamples`.
    private var decoded: [Int16] = []
    private var tooLongToResume = false
    /// The front end as the utterance began, for `resume`.
    private var frontEndAtStart: SphinxDecoder.FrontEndState?
    /// The longest utterance kept for `resume`: 30 s (longer than any command), 1 MB.
    static let resumableSamples = 16_000 * 30

    /// Loads the model and adds the words of `dictionaries` (e.g. the hotword dictionary) to
    /// the decoder's dictionary. Audio passes through `preprocessors` first, in order. Each
    /// utterance first decodes (and discards) the recent audio `start` is given.
    /// `sideSearches` are created in the same decoder for another user of its acoustic model
    /// (the wake verifier: `VerifiedWakeWordDetector.sideSearch`).
    ///
    /// - Throws: `stt-model-missing`, `stt-init-failed`, or `stt-bad-pronunciation` for a bad
    ///   dictionary entry.
    public init(
        configuration: SphinxConfiguration = SphinxConfiguration(),
        dictionaries: [PronunciationDictionary] = [],
        sideSearches: [SphinxDecoder.SideSearch] = [],
        preprocessors: [any SamplePreprocessor] = [],
        logger: Logger = .silent
    ) throws(SpeechError) {
        decoder = try SphinxDecoder(configuration: configuration, dictionaries: dictionaries, sideSearches: sideSearches)
        self.preprocessors = preprocessors
        self.logger = logger
        logger.debug("PocketSphinx ready: \(configuration.acousticModelPath)")
    }

    /// Adds `pronunciation` (space-separated phones such as `S UW Z IY`) for `word`; returns
    /// false when the word already had it. Not during an utterance.
    ///
    /// - Throws: `stt-bad-pronunciation` for an empty pronunciation or unknown phone.
    @discardableResult
    public func addWord(_ word: String, pronunciation: String) throws(SpeechError) -> Bool {
        try decoder.addPronunciation(pronunciation, for: word)
    }

    /// The words of `text` the dictionary lacks.
    public func unknownWords(in text: String) -> [String] {
        decoder.missingWords(text.lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
    }

    /// Replaces the language model or grammar. Not during an utterance.
    ///
    /// - Throws: `stt-model-missing` or `stt-init-failed`.
    public func setSearch(_ search: SphinxConfiguration.Search) throws(SpeechError) {
        try decoder.setSearch(search)
    }

    /// The decoder of `decodeAgain` (the open-question model), when one was added. It hears
    /// the same cleaned audio as the main decoder while the utterance is spoken, on a thread
    /// of its own, so that `decodeAgain` only has its final pass left to run.
    private var second: BackgroundDecoder?
    /// Whether `second` has heard all of the current utterance (it stops following one too
    /// long to resume, as `decoded` does).
    private var secondFollows = false
    /// What `decodeAgain` heard in the current utterance, once asked.
    private var secondTranscript: Transcript?

    /// Whether `decodeAgain` has a decoder to decode with.
    public var hasSecondSearch: Bool { second != nil }

    /// Adds the decoder `decodeAgain` uses (e.g. the open-question model, with its own
    /// dictionary and options), a second PocketSphinx decoder with its own copy of the
    /// acoustic model. From the next `start`, it decodes every utterance beside the main one,
    /// on a thread of its own. Not during an utterance.
    ///
    /// - Throws: as `SphinxDecoder.init`.
    public func setSecondSearch(_ configuration: SphinxConfiguration) throws(SpeechError) {
        guard !decoder.isInUtterance else {
            throw SpeechError(.initFailed, "cannot add a second search during an utterance")
        }
        second = try BackgroundDecoder(configuration: configuration)
        secondFollows = false
        secondTranscript = nil
    }

    /// The utterance `finish` ended, as the second decoder heard it. It decoded the audio as
    /// it came and began its final pass when `finish` was called, so this waits for that
    /// pass to end only; the result is kept until the next `start` or `resume`.
    ///
    /// - Throws: `stt-decode-failed` without a second search, during an utterance, or for an
    ///   utterance too long to keep; PocketSphinx's errors.
    public func decodeAgain() throws(SpeechError) -> Transcript {
        guard let second, !decoder.isInUtterance else {
            throw SpeechError(.decodeFailed, "no finished utterance to decode again with a second search")
        }
        if let secondTranscript { return secondTranscript }
        guard secondFollows else {
            throw SpeechError(.decodeFailed, "the second search did not hear the whole utterance")
        }
        let transcript = try second.finish()
        logger.debug("second search heard \"\(transcript.text)\"")
        secondTranscript = transcript
        return transcript
    }

    /// The utterance `finish` ended, decoded again with the side search `name` (created with
    /// the decoder: `sideSearches`), from the front end's state as it began; nil when the
    /// decoder has no such search. The main search and its front end are left as they were,
    /// so `resume` still continues the utterance. About a tenth of the utterance's length for
    /// a grammar.
    ///
    /// - Throws: `stt-decode-failed` during an utterance or for one too long to keep;
    ///   PocketSphinx's errors.
    public func decodeAgain(withSideSearch name: String) throws(SpeechError) -> Transcript? {
        guard decoder.sideSearchNames.contains(name) else { return nil }
        guard !decoder.isInUtterance, canResume else {
            throw SpeechError(.decodeFailed, "no finished utterance to decode again with \(name)")
        }
        var frontEnd = frontEndAtStart
        let samples = decoded
        return try decoder.withSearch(name, frontEnd: &frontEnd) { side throws(SpeechError) in
            try side.decodeUtterance(samples)
            return Self.transcript(from: side.segments, framesPerSecond: side.configuration.framesPerSecond)
        }
    }

    /// Opens an utterance; transcript times count from here. First decodes `recent` (about
    /// 1 s, a few tens of milliseconds of work) when there is some, and throws the words away.
    ///
    /// PocketSphinx's front end adapts as it hears (live cepstral mean normalisation, noise
    /// and voice-activity levels): without this, the first words of a command would be
    /// decoded with the levels of the previous one. Decoding the wake word's second first cut
    /// command word errors in 10 dB pink noise on the dev corpus (bench/RESULTS.md).
    ///
    /// Known limit: PocketSphinx 5prealpha's n-gram search numbers frames across utterances,
    /// so word times after a recogniser's first utterance come late by roughly the audio
    /// decoded before (`susi transcribe` decodes one utterance; the pipeline uses no word times).
    public func start(adaptingTo recent: [Int16] = []) throws(SpeechError) {
        samplesProcessed = 0
        decoded.removeAll(keepingCapacity: true)
        tooLongToResume = false
        secondTranscript = nil
        // Adapts the front ends to the room; the words are not wanted. The second decoder too
        // (its thread also ends the last utterance's decoding, when nobody asked for it): its
        // noise tracking, not only its cepstral mean, is what counts in noise (with the main
        // decoder's mean alone, key-word recall fell 5 points at 10 dB on the open-question
        // dev split).
        let cleaned = recent.isEmpty ? [] : preprocessors.process(recent) + preprocessors.flush()
        second?.start(adaptingTo: cleaned)
        secondFollows = second != nil
        if !cleaned.isEmpty {
            try decoder.startUtterance()
            try decoder.process(cleaned)
            try decoder.endUtterance()
        }
        frontEndAtStart = decoder.frontEndState
        try decoder.startUtterance()
    }

    /// Decodes the next samples (mono, `SphinxConfiguration.sampleRate`) as they arrive.
    public func process(_ samples: [Int16]) throws(SpeechError) {
        try feed(preprocessors.process(samples))
        samplesProcessed += samples.count
    }

    private func feed(_ cleaned: [Int16]) throws(SpeechError) {
        try decoder.process(cleaned)
        guard !tooLongToResume else { return }
        if decoded.count + cleaned.count > Self.resumableSamples {
            // A long recording (`susi transcribe`), not a command: not worth a copy, nor a
            // second decoding.
            tooLongToResume = true
            secondFollows = false
            decoded = []
        } else {
            if secondFollows, let second { second.process(cleaned) }
            decoded += cleaned
        }
    }

    /// How many of the lattice's best hypotheses a transcript offers as alternatives.
    static let alternativesLimit = 10
    /// How much lower than the best path's score an alternative's may be, in PocketSphinx's
    /// log units (base 1.0001, on the language-model-weighted path score). Further down,
    /// alternatives picked because a skill understood them were mostly wrong on the dev
    /// corpus (bench/RESULTS.md).
    static let alternativesMargin = 600

    /// The best guess so far, words joined by spaces, alternate suffixes removed.
    public var partial: String? {
        guard let hypothesis = decoder.hypothesis else { return nil }
        let words = Self.words(of: hypothesis)
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// The real words of a hypothesis as PocketSphinx spells it, alternate suffixes removed.
    static func words(of hypothesis: String) -> [String] {
        hypothesis.split(separator: " ").map { SphinxDecoder.baseWord(String($0)) }.filter { !isFiller($0) }
    }

    /// The lattice's readings of `decoder` other than `best`, words only, within
    /// `alternativesMargin`.
    static func otherReadings(of decoder: SphinxDecoder, than best: String) -> [String] {
        let readings = decoder.alternatives(limit: alternativesLimit)
        var alternatives: [String] = []
        for reading in SphinxDecoder.texts(of: readings, within: alternativesMargin) {
            let text = Self.words(of: reading).joined(separator: " ")
            if !text.isEmpty, text != best, !alternatives.contains(text) { alternatives.append(text) }
        }
        return alternatives
    }

    /// Whether PocketSphinx's voice activity detector currently hears speech.
    public var isInSpeech: Bool { decoder.isInSpeech }

    /// Closes the utterance and returns its words, fillers and silences left out. The second
    /// decoder's final pass starts at the same time on its own thread, so that `decodeAgain`
    /// after a pause that ends the command has little or nothing left to wait for.
    public func finish() throws(SpeechError) -> Transcript {
        if decoder.isInUtterance { try feed(preprocessors.flush()) }
        if secondFollows { second?.close() }
        try decoder.endUtterance()
        var transcript = Self.transcript(
            from: decoder.segments, framesPerSecond: decoder.configuration.framesPerSecond)
        transcript.alternatives = Self.otherReadings(of: decoder, than: transcript.text)
        for reading in transcript.readings {
            let words = reading.split(separator: " ").map(String.init)
            transcript.unseenWordPairs[reading] = decoder.unseenWordPairs(in: words)
        }
        logger.debug("heard \"\(transcript.text)\" in \(samplesProcessed) samples")
        return transcript
    }

    /// True unless the utterance outgrew `resumableSamples`.
    public var canResume: Bool { !tooLongToResume }

    /// Reopens the utterance `finish` ended and decodes its audio again (about a tenth of its
    /// length in time), from the front end's state as the utterance began, so that more audio
    /// continues it as if it had never been closed; the second decoder too, on its thread.
    public func resume() throws(SpeechError) {
        guard canResume else { throw SpeechError(.decodeFailed, "the utterance is too long to resume") }
        try decoder.reopenUtterance(from: frontEndAtStart, decoding: decoded)
        secondTranscript = nil
        if secondFollows { second?.reopen(decoding: decoded) }
    }

    /// Recognises one whole recording.
    public func transcribe(_ samples: [Int16]) throws(SpeechError) -> Transcript {
        try start()
        try process(samples)
        return try finish()
    }

    /// Recognises one whole recording, which must be 16 kHz mono (convert it with
    /// `AudioConverter` first).
    ///
    /// - Throws: `stt-format-mismatch` for any other format.
    public func transcribe(_ chunk: AudioChunk) throws(SpeechError) -> Transcript {
        let expected = AudioFormat(sampleRate: decoder.configuration.sampleRate, channels: 1)
        guard chunk.format == expected else {
            throw SpeechError(.formatMismatch, "recogniser expects \(expected), got \(chunk.format)")
        }
        return try transcribe(chunk.samples)
    }

    /// The configuration the decoder was created from.
    public var configuration: SphinxConfiguration { decoder.configuration }

    /// The real words of `segments`, times in ms.
    static func transcript(from segments: [SphinxDecoder.Segment], framesPerSecond: Int) -> Transcript {
        let words = segments.compactMap { segment -> Transcript.Word? in
            let word = SphinxDecoder.baseWord(segment.word)
            guard !isFiller(word) else { return nil }
            return Transcript.Word(
                text: word,
                startMilliseconds: segment.startFrame * 1000 / framesPerSecond,
                endMilliseconds: (segment.endFrame + 1) * 1000 / framesPerSecond,
                confidence: segment.confidence)
        }
        var transcript = Transcript(words: words)
        if let first = segments.first, let last = segments.last, last.endFrame >= first.startFrame {
            let frames = last.endFrame - first.startFrame + 1
            transcript.acousticScorePerFrame = Double(segments.reduce(0) { $0 + $1.acousticScore }) / Double(frames)
        }
        return transcript
    }

    /// Sentence markers (`<s>`, `</s>`), silence (`<sil>`) and noise fillers (`[NOISE]`,
    /// `++BREATH++`) are not words anyone said.
    static func isFiller(_ word: String) -> Bool {
        word.isEmpty || (word.hasPrefix("<") && word.hasSuffix(">"))
            || (word.hasPrefix("[") && word.hasSuffix("]"))
            || (word.hasPrefix("++") && word.hasSuffix("++"))
    }
}
