import Foundation
import SusiCore
import SusiModel

/// A wake word detector that double-checks: each phrase the keyphrase spotter reports is
/// decoded again, from recent audio, by a recogniser choosing between the phrase and a few
/// hundred common short English words; it counts only when that recogniser hears the
/// phrase too.
///
/// A keyphrase search only asks whether "susi" fits better than a loop of phones, which
/// ordinary speech ("so he", "see", "who is") often does; a recogniser that may also choose
/// real English words takes those instead. The second decoding costs a few tens of
/// milliseconds per candidate and nothing while no candidate is heard, so idle listening
/// costs what the spotter costs. Not thread-safe: one thread at a time.
public final class VerifiedWakeWordDetector: WakeWordDetector {
    private let spotter: any WakeWordDetector
    /// The decoder the verifier decodes with: its own, or the recogniser's (`sharedSearch`).
    private let verifier: SphinxDecoder
    /// The verifier's side search in the recogniser's decoder; nil with a decoder of its own.
    private let sharedSearch: String?
    /// The verifier's own cepstral-mean estimate while it shares the recogniser's decoder.
    private var sharedFrontEnd: SphinxDecoder.FrontEndState?
    private let phraseWords: [String]
    private let logger: Logger
    /// Recent raw input, newest last; at most `historyLength` samples.
    private var history: [Int16] = []
    private var consumed = 0
    /// Candidates spotted whose following audio has not all arrived yet, oldest first.
    private var pending: [WakeWordDetection] = []
    private let historyLength = 16_000 * 3
    /// Audio taken before the spotted start and after its end, so the verifier hears whole
    /// words around the phrase; in samples.
    private let marginBefore = 16_000 * 3 / 10
    private let marginAfter = 16_000 * 2 / 10

    /// The shortest a spotted phrase may last: `millisecondsPerPhone` for each phone of its
    /// shortest pronunciation. Ordinary speech that fits "susi" often does so in a squeezed
    /// stretch (down to 170 ms: "the sea shore"); the name itself takes about 300-500 ms
    /// said on its own, and the spotter places it in 210-220 ms when it is said quickly with
    /// the command in one breath (`bench/one-breath.py`).
    private let minimumMilliseconds: Int
    /// How short a phone can be, even in quick speech (about 20 phones per second).
    static let millisecondsPerPhone = 50
    /// The same for a phrase found only in the verifier's other readings (a readings
    /// margin): weaker evidence, so the phrase must have been spotted at a slower pace.
    static let marginMillisecondsPerPhone = 60
    /// `minimumMilliseconds` at `marginMillisecondsPerPhone`.
    private let marginMinimumMilliseconds: Int

    /// How far below the verifier's best reading (PocketSphinx log units) another reading that
    /// holds the phrase still confirms it; 0 for the best reading only.
    private let readingsMargin: Int
    /// The verifier's readings considered with a margin.
    static let readingsLimit = 10

    /// Candidates that need no second decoding (a neural detector's surest); nil for none.
    private let trusted: ((WakeWordDetection) -> Bool)?

    /// Candidates rejected so far (for logs and benchmarks).
    public private(set) var rejectedCount = 0

    /// Wraps `spotter`; `phrase` is its wake phrase, whose words `dictionaries` (or cmudict)
    /// must pronounce. `phrasePrior` is the phrase's share of the verifier's unigram model:
    /// larger accepts more. `readingsMargin` also accepts the phrase in the verifier's other
    /// likely readings down to that far below its best (`hotword.verify_margin`).
    ///
    /// - Throws: `wake-init-failed` when the verifier's model cannot be loaded.
    public convenience init(
        spotter: SphinxWakeWordDetector, phrase: String, dictionaries: [PronunciationDictionary] = [],
        phrasePrior: Double = 0.3, readingsMargin: Int = 0, logger: Logger = .silent
    ) throws(SpeechError) {
        try self.init(
            candidates: spotter, phrase: phrase, phoneCount: Self.phoneCount(of: phrase, spottedBy: spotter),
            dictionaries: dictionaries, phrasePrior: phrasePrior, readingsMargin: readingsMargin, logger: logger)
    }

    /// The keyphrase init, decoding with `host`'s decoder (see the `host` init).
    ///
    /// - Throws: `wake-init-failed` when `host` holds no verifier search for the phrase.
    public convenience init(
        spotter: SphinxWakeWordDetector, phrase: String, host: SphinxRecognizer, phrasePrior: Double = 0.3,
        readingsMargin: Int = 0, logger: Logger = .silent
    ) throws(SpeechError) {
        try self.init(
            candidates: spotter, phrase: phrase, phoneCount: Self.phoneCount(of: phrase, spottedBy: spotter), host: host,
            phrasePrior: phrasePrior, readingsMargin: readingsMargin, logger: logger)
    }

    /// The phones of the shortest pronunciation `spotter` spots `phrase` with: the keyphrase
    /// inits' `phoneCount`.
    public static func phoneCount(of phrase: String, spottedBy spotter: SphinxWakeWordDetector) -> Int {
        let words = words(of: phrase)
        let keyphrase = spotter.keyphrases.first { $0.phrase == words.joined(separator: " ") }
        return words.map { word in
            (keyphrase?.pronunciations[word] ?? []).map { $0.split(separator: " ").count }.min() ?? 0
        }.reduce(0, +)
    }

    /// Wraps any detector whose candidates are to be confirmed; `phoneCount` sets the
    /// shortest a candidate may last (`millisecondsPerPhone` each; 0 for no such check, as
    /// for a detector whose start times are estimates). A candidate `trusted` accepts counts
    /// at once, without a second decoding. Otherwise as the keyphrase init.
    ///
    /// - Throws: `wake-init-failed` when the verifier's model cannot be loaded.
    public init(
        candidates spotter: any WakeWordDetector, phrase: String, phoneCount: Int,
        dictionaries: [PronunciationDictionary] = [], phrasePrior: Double = 0.3, readingsMargin: Int = 0,
        trusted: ((WakeWordDetection) -> Bool)? = nil, logger: Logger = .silent
    ) throws(SpeechError) {
        self.spotter = spotter
        self.trusted = trusted
        self.readingsMargin = readingsMargin
        self.logger = logger
        let words = Self.words(of: phrase)
        phraseWords = words
        minimumMilliseconds = phoneCount * Self.millisecondsPerPhone
        marginMinimumMilliseconds = phoneCount * Self.marginMillisecondsPerPhone
        sharedSearch = nil
        let vocabulary = Self.vocabulary(words)
        let file = try Self.writeModel(words: words, phrasePrior: phrasePrior, prefix: "")
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            var configuration = SphinxConfiguration(search: .languageModel(path: file.path))
            configuration.extraOptions = Self.searchOptions
            // Only the model's words, not all of cmudict (about 20 MB less).
            let dictionary = try PronunciationDictionary.writeSubset(
                of: configuration.dictionaryPath, words: Set(vocabulary))
            defer { try? FileManager.default.removeItem(atPath: dictionary) }
            configuration.dictionaryPath = dictionary
            verifier = try SphinxDecoder(configuration: configuration, dictionaries: dictionaries)
        } catch {
            throw SpeechError(.wakeInitFailed, "wake word verifier: \(error.message)")
        }
    }

    /// Like the init above, but decodes with `host`'s decoder, which must have been created
    /// with `sideSearch(phrase:dictionaries:phrasePrior:)`'s search for the same phrase and
    /// prior: one acoustic model for the recogniser and the verifier (about 8 MB less than a
    /// decoder of its own).
    ///
    /// The recogniser is idle whenever a candidate is checked (the pipeline hears the wake
    /// word only while no command is being heard); an utterance an error left open is ended.
    /// The verifier keeps its own cepstral-mean estimate; PocketSphinx's acoustic options
    /// (`-topn`) and the front end's noise tracking are the recogniser's. Both must be used
    /// from the same thread.
    ///
    /// - Throws: `wake-init-failed` when `host` has no such search.
    public init(
        candidates spotter: any WakeWordDetector, phrase: String, phoneCount: Int, host: SphinxRecognizer,
        phrasePrior: Double = 0.3, readingsMargin: Int = 0, trusted: ((WakeWordDetection) -> Bool)? = nil,
        logger: Logger = .silent
    ) throws(SpeechError) {
        let name = Self.searchName(phrase: phrase, phrasePrior: phrasePrior)
        guard host.decoder.sideSearchNames.contains(name) else {
            throw SpeechError(.wakeInitFailed, "the recogniser holds no wake verifier search for \"\(phrase)\"")
        }
        self.spotter = spotter
        self.trusted = trusted
        self.readingsMargin = readingsMargin
        self.logger = logger
        phraseWords = Self.words(of: phrase)
        minimumMilliseconds = phoneCount * Self.millisecondsPerPhone
        marginMinimumMilliseconds = phoneCount * Self.marginMillisecondsPerPhone
        verifier = host.decoder
        sharedSearch = name
    }

    /// The verifier's decoding options beside the decoder's defaults: one pass, no lattice
    /// search (it only asks which word the candidate is).
    static let searchOptions = ["-fwdflat": "no", "-bestpath": "no"]

    /// Marks the verifier's words in a shared decoder's dictionary, so that they are apart
    /// from the recogniser's own (which may have other pronunciations of the same words).
    static let sharedWordPrefix = "_wake_"

    /// The lower-case words of `phrase`.
    private static func words(of phrase: String) -> [String] {
        phrase.lowercased().split(separator: " ").map(String.init)
    }

    /// The phrase's words and the common words that compete with it.
    private static func vocabulary(_ words: [String]) -> [String] {
        words + commonWords.filter { !words.contains($0) }
    }

    /// The verifier's search's name in a shared decoder, for `phrase` at `phrasePrior`.
    static func searchName(phrase: String, phrasePrior: Double) -> String {
        "wake-verifier:\(words(of: phrase).joined(separator: " ")):\(phrasePrior)"
    }

    /// Writes the verifier's unigram model (words prefixed with `prefix`) to a temporary
    /// ARPA file, which the caller removes once a decoder has read it.
    private static func writeModel(words: [String], phrasePrior: Double, prefix: String) throws(SpeechError) -> URL {
        let garbage = commonWords.filter { !words.contains($0) }
        let others = 1 - phrasePrior
        let sentences =
            [(words: words.map { prefix + $0 }, weight: phrasePrior * Double(garbage.count) / others)]
            + garbage.map { (words: [prefix + $0], weight: 1.0) }
        let model = NGramModel(sentences: sentences, order: 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("susi-verify-\(UUID().uuidString).arpa")
        do {
            try model.arpa.write(to: file, atomically: false, encoding: .utf8)
        } catch {
            throw SpeechError(.wakeInitFailed, "cannot write the wake verifier's model to \(file.path)")
        }
        return file
    }

    /// The verifier's search for a recogniser to hold (`SphinxRecognizer`'s `sideSearches`),
    /// with the pronunciations it needs (`dictionaries`' and cmudict's, under the words'
    /// prefixed names) and its model file, which the caller removes once the recogniser has
    /// been created.
    ///
    /// - Throws: `wake-init-failed` when cmudict cannot be read or the model not written.
    public static func sideSearch(
        phrase: String, dictionaries: [PronunciationDictionary] = [], phrasePrior: Double = 0.3,
        modelDirectory: String = SphinxConfiguration.defaultModelDirectory
    ) throws(SpeechError) -> (search: SphinxDecoder.SideSearch, words: PronunciationDictionary, modelFile: String) {
        let words = words(of: phrase)
        let vocabulary = vocabulary(words)
        var entries: [PronunciationDictionary.Entry] = []
        do {
            let cmudict = SphinxConfiguration(modelDirectory: modelDirectory).dictionaryPath
            let subset = try PronunciationDictionary.writeSubset(of: cmudict, words: Set(vocabulary))
            defer { try? FileManager.default.removeItem(atPath: subset) }
            entries = try PronunciationDictionary(contentsOf: subset).entries
        } catch {
            throw SpeechError(.wakeInitFailed, "wake word verifier: \(error.message)")
        }
        entries += dictionaries.flatMap(\.entries).filter { vocabulary.contains($0.word) }
        let prefixed = entries.map { PronunciationDictionary.Entry(word: sharedWordPrefix + $0.word, phones: $0.phones) }
        let file = try writeModel(words: words, phrasePrior: phrasePrior, prefix: sharedWordPrefix)
        let search = SphinxDecoder.SideSearch(
            name: searchName(phrase: phrase, phrasePrior: phrasePrior), search: .languageModel(path: file.path),
            options: searchOptions)
        return (search, PronunciationDictionary(entries: prefixed), file.path)
    }

    /// Milliseconds of audio consumed so far.
    public var position: Int { spotter.position }

    /// The spotter's next decision, or the check of the oldest candidate waiting for its
    /// audio if that comes first.
    public var framesToNextDecision: Int? {
        let spotted = spotter.framesToNextDecision
        guard let candidate = pending.first else { return spotted }
        let check = max(1, checkEnd(of: candidate) - consumed)
        return min(spotted ?? check, check)
    }

    /// Consumes the next 16 kHz mono samples; returns the phrases spotted and confirmed.
    ///
    /// A candidate is checked once the audio after it has arrived (`marginAfter`), because
    /// the spotter often fires before the last sound of the word ends: so a detection comes
    /// back from a later call, a fifth of a second after the phrase, with its own times.
    public func process(_ samples: [Int16]) throws(SpeechError) -> [WakeWordDetection] {
        history += samples
        consumed += samples.count
        if history.count > historyLength { history.removeFirst(history.count - historyLength) }
        var confirmed: [WakeWordDetection] = []
        do {
            for candidate in try spotter.process(samples) {
                if trusted?(candidate) == true { confirmed.append(candidate) } else { pending.append(candidate) }
            }
        } catch {
            throw Self.wakeError(error)
        }
        while var candidate = pending.first, checkEnd(of: candidate) <= consumed {
            pending.removeFirst()
            if try verify(candidate) {
                // Decided once the audio the check needs had arrived, whatever came with it.
                candidate.decidedAtMilliseconds = max(
                    candidate.decidedAtMilliseconds, AudioFormat.speech.milliseconds(frames: checkEnd(of: candidate)))
                confirmed.append(candidate)
            } else {
                rejectedCount += 1
                logger.debug("wake candidate at \(candidate.endMilliseconds) ms rejected by the verifier")
            }
        }
        return confirmed
    }

    /// Forgets any partly heard phrase, and candidates not yet checked; positions keep counting.
    public func reset() throws(SpeechError) {
        pending.removeAll()
        do {
            try spotter.reset()
        } catch {
            throw Self.wakeError(error)
        }
    }

    /// The wrapped detector's failure as a wake-stage error.
    private static func wakeError(_ error: any Error) -> SpeechError {
        (error as? SpeechError) ?? SpeechError(.wakeDecodeFailed, "\(error)")
    }

    /// Where the audio the check of `candidate` reads ends, in frames fed: `marginAfter` past it.
    private func checkEnd(of candidate: WakeWordDetection) -> Int {
        AudioFormat.speech.frames(milliseconds: candidate.endMilliseconds) + marginAfter
    }

    /// Whether `candidate` lasts long enough, and the verifier hears the phrase in the audio
    /// around it.
    private func verify(_ candidate: WakeWordDetection) throws(SpeechError) -> Bool {
        guard candidate.endMilliseconds - candidate.startMilliseconds >= minimumMilliseconds else { return false }
        let historyStart = consumed - history.count
        let from = max(historyStart, AudioFormat.speech.frames(milliseconds: candidate.startMilliseconds) - marginBefore)
        let to = min(consumed, checkEnd(of: candidate))
        guard to > from else { return false }
        let spotted = candidate.endMilliseconds - candidate.startMilliseconds
        let readings = readingsMargin > 0 && spotted >= marginMinimumMilliseconds
        return try decode(Array(history[(from - historyStart)..<(to - historyStart)])) { decoder in
            if Self.contains(Self.words(heardIn: decoder.hypothesis ?? ""), phraseWords) { return true }
            guard readings else { return false }
            return Self.holds(decoder.alternatives(limit: Self.readingsLimit), phraseWords, margin: readingsMargin)
        }
    }

    /// Whether a reading within `margin` of the best one's score has `phrase` in it.
    static func holds(_ readings: [(text: String, score: Int)], _ phrase: [String], margin: Int) -> Bool {
        SphinxDecoder.texts(of: readings, within: margin).contains { contains(words(heardIn: $0), phrase) }
    }

    /// The words the verifier hears in `samples` (alternate suffixes and fillers removed).
    func decode(_ samples: [Int16]) throws(SpeechError) -> [String] {
        try decode(samples) { Self.words(heardIn: $0.hypothesis ?? "") }
    }

    /// The verifier's likely readings of `samples`, best first, up to `limit`, as words without
    /// alternate suffixes, fillers or prefix, with their PocketSphinx scores (for benchmarks).
    public func readings(of samples: [Int16], limit: Int) throws(SpeechError) -> [(words: [String], score: Int)] {
        try decode(samples) { decoder in
            decoder.alternatives(limit: limit).map { (Self.words(heardIn: $0.text), $0.score) }
        }
    }

    /// Decodes `samples` with the verifier's search and asks `result` of the decoder while
    /// that search's hypothesis and lattice are at hand.
    private func decode<Result>(_ samples: [Int16], _ result: (SphinxDecoder) -> Result) throws(SpeechError) -> Result {
        do {
            guard let sharedSearch else { return try Self.decode(samples, with: verifier, result) }
            return try verifier.withSearch(sharedSearch, frontEnd: &sharedFrontEnd) { decoder throws(SpeechError) in
                try Self.decode(samples, with: decoder, result)
            }
        } catch {
            throw SpeechError(.wakeDecodeFailed, "wake word verifier: \(error.message)")
        }
    }

    private static func decode<Result>(
        _ samples: [Int16], with decoder: SphinxDecoder, _ result: (SphinxDecoder) -> Result
    ) throws(SpeechError) -> Result {
        try decoder.decodeUtterance(samples)
        return result(decoder)
    }

    /// The real words of a verifier's hypothesis, without alternate suffixes, fillers or the
    /// shared decoder's prefix.
    static func words(heardIn hypothesis: String) -> [String] {
        SphinxRecognizer.words(of: hypothesis).map { word in
            word.hasPrefix(sharedWordPrefix) ? String(word.dropFirst(sharedWordPrefix.count)) : word
        }
    }

    /// Short, frequent English words, some close to "susi" ("see", "so", "sue", "easy"): the
    /// verifier's alternatives to the phrase.
    static let commonWords: [String] = """
        a about after all also an and any are as at be because been but by can come could day did do does
        down even first for from get give go good had has have he her here him his how i if in into is it
        its just know like look make me more most my new no not now of on one only or other our out over
        people say see she so some take than that the their them then there these they think this time to
        two up us use very want was way we well what when which who will with work would year you your
        sue zoo see sea say so soon seen season easy busy cozy daisy lazy crazy is his has was does these
        those whose choose news music use user sushi suzy susan city sunny silly see saw sees seize sees
        sir soup super student stupid suit sweet sweetie sixty seesaw uzi issue tissue jesus juicy
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// Whether `needle` occurs in `words` as consecutive words.
    public static func contains(_ words: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, words.count >= needle.count else { return false }
        return (0...(words.count - needle.count)).contains { Array(words[$0..<($0 + needle.count)]) == needle }
    }
}
