/// A phrase to spot in a stream, with how sure PocketSphinx must be before it reports it.
///
/// `threshold` is the likelihood ratio of the phrase against the phone loop that a detection
/// must exceed: larger is stricter (fewer false wakes, more misses). PocketSphinx's own default
/// of 1 almost never fires; useful values lie between 1e-10 (strict) and 1e-40 (eager), and
/// longer phrases need smaller values.
public struct Keyphrase: Sendable, Equatable, Hashable {
    /// Lower-case words separated by single spaces, each in the decoder's dictionary.
    public var phrase: String
    /// Detection threshold (`/1e-20/` in a PocketSphinx keyword file); positive.
    public var threshold: Double

    /// The threshold tuned for the two-syllable "susi" with both of its pronunciations in the
    /// dictionary (see `models/hotword/README.md`): 1e-20 caught it in every eSpeak NG accent
    /// but one and raised no false wake on the negative sentences; 1e-22 and below began to
    /// fire on "the sun is shining", 1e-18 and above missed British voices.
    public static let defaultThreshold = 1e-20

    /// Creates a keyphrase; the phrase is lower-cased and its whitespace collapsed.
    public init(_ phrase: String, threshold: Double = Keyphrase.defaultThreshold) {
        self.phrase = phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        self.threshold = threshold
    }

    /// The words of the phrase.
    public var words: [String] { phrase.split(separator: " ").map(String.init) }
}
