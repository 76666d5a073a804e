/// A phrase to spot in a stream, with how sure PocketSphinx must be before it reports it.
///
/// `threshold` is the likelihood ratio of the phrase against the phone loop that a detection
/// must exceed: larger is stricter (fewer false wakes, more misses). PocketSphinx's own default
/// of 1 (with its phone-loop prior) rarely fires; useful values lie between 1e-10 (strict) and 1e-40 (eager), and
/// longer phrases need smaller values.
public struct Keyphrase: Sendable, Equatable, Hashable {
    /// Lower-case words separated by single spaces, each in the decoder's dictionary.
    public var phrase: String
    /// Detection threshold (`/1e-20/` in a PocketSphinx keyword file); positive.
    public var threshold: Double
    /// The pronunciations to spot for some of the words (phones such as `S UW Z IY`); a word
    /// not listed is spotted in every pronunciation the dictionary has.
    public var pronunciations: [String: [String]]

    /// The threshold tuned for "susi" in its four pronunciations (`models/hotword/susi.dict`)
    /// with the detector's phone-loop prior of 1e-2 and the verifier behind it, on the dev
    /// corpus (bench/RESULTS.md): 1e-18 and 1e-20 found 1-2% more wake words and twice the
    /// false wakes.
    public static let defaultThreshold = 1e-16

    /// Creates a keyphrase; the phrase is lower-cased and its whitespace collapsed.
    public init(_ phrase: String, threshold: Double = Keyphrase.defaultThreshold, pronunciations: [String: [String]] = [:]) {
        self.phrase = phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        self.threshold = threshold
        self.pronunciations = pronunciations
    }

    /// The words of the phrase.
    public var words: [String] { phrase.split(separator: " ").map(String.init) }
}
