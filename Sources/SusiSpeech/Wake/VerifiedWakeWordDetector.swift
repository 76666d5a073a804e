import Foundation
import SusiCore

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
    private let verifier: SphinxDecoder
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
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        let keyphrase = spotter.keyphrases.first { $0.phrase == words.joined(separator: " ") }
        // The phones of the phrase's shortest pronunciation.
        let phoneCount = words.map { word in
            (keyphrase?.pronunciations[word] ?? []).map { $0.split(separator: " ").count }.min() ?? 0
        }.reduce(0, +)
        try self.init(
            candidates: spotter, phrase: phrase, phoneCount: phoneCount, dictionaries: dictionaries,
            phrasePrior: phrasePrior, readingsMargin: readingsMargin, logger: logger)
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
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        phraseWords = words
        minimumMilliseconds = phoneCount * Self.millisecondsPerPhone
        marginMinimumMilliseconds = phoneCount * Self.marginMillisecondsPerPhone
        let garbage = Self.commonWords.filter { !words.contains($0) }
        let others = 1 - phrasePrior
        let sentences =
            [(words: words, weight: phrasePrior * Double(garbage.count) / others)]
            + garbage.map { (words: [$0], weight: 1.0) }
        let model = NGramModel(sentences: sentences, order: 1)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("susi-verify-\(UUID().uuidString).arpa")
        do {
            try model.arpa.write(to: file, atomically: false, encoding: .utf8)
        } catch {
            throw SpeechError(.wakeInitFailed, "cannot write the wake verifier's model to \(file.path)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            var configuration = SphinxConfiguration(search: .languageModel(path: file.path))
            configuration.extraOptions = ["-fwdflat": "no", "-bestpath": "no"]
            // Only the model's words, not all of cmudict (about 20 MB less).
            let dictionary = try PronunciationDictionary.writeSubset(
                of: configuration.dictionaryPath, words: Set(words + garbage))
            defer { try? FileManager.default.removeItem(atPath: dictionary) }
            configuration.dictionaryPath = dictionary
            verifier = try SphinxDecoder(configuration: configuration, dictionaries: dictionaries)
        } catch {
            throw SpeechError(.wakeInitFailed, "wake word verifier: \(error.message)")
        }
    }

    /// Milliseconds of audio consumed so far.
    public var position: Int { spotter.position }

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
        while let candidate = pending.first,
            AudioFormat.speech.frames(milliseconds: candidate.endMilliseconds) + marginAfter <= consumed
        {
            pending.removeFirst()
            if try verify(candidate) {
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

    /// Whether `candidate` lasts long enough, and the verifier hears the phrase in the audio
    /// around it.
    private func verify(_ candidate: WakeWordDetection) throws(SpeechError) -> Bool {
        guard candidate.endMilliseconds - candidate.startMilliseconds >= minimumMilliseconds else { return false }
        let historyStart = consumed - history.count
        let from = max(historyStart, AudioFormat.speech.frames(milliseconds: candidate.startMilliseconds) - marginBefore)
        let to = min(consumed, AudioFormat.speech.frames(milliseconds: candidate.endMilliseconds) + marginAfter)
        guard to > from else { return false }
        let words = try decode(Array(history[(from - historyStart)..<(to - historyStart)]))
        if Self.contains(words, phraseWords) { return true }
        let spotted = candidate.endMilliseconds - candidate.startMilliseconds
        guard readingsMargin > 0, spotted >= marginMinimumMilliseconds else { return false }
        return Self.holds(verifier.alternatives(limit: Self.readingsLimit), phraseWords, margin: readingsMargin)
    }

    /// Whether a reading within `margin` of the best one's score has `phrase` in it.
    static func holds(_ readings: [(text: String, score: Int)], _ phrase: [String], margin: Int) -> Bool {
        SphinxDecoder.texts(of: readings, within: margin).contains { contains(SphinxRecognizer.words(of: $0), phrase) }
    }

    /// The words the verifier hears in `samples` (alternate suffixes and fillers removed).
    func decode(_ samples: [Int16]) throws(SpeechError) -> [String] {
        do {
            try verifier.startUtterance()
            try verifier.process(samples)
            try verifier.endUtterance()
        } catch {
            throw SpeechError(.wakeDecodeFailed, "wake word verifier: \(error.message)")
        }
        return SphinxRecognizer.words(of: verifier.hypothesis ?? "")
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
    static func contains(_ words: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, words.count >= needle.count else { return false }
        return (0...(words.count - needle.count)).contains { Array(words[$0..<($0 + needle.count)]) == needle }
    }
}
