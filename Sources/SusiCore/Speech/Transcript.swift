/// What a recogniser heard in one utterance: the text and its words with timing.
///
/// Times are milliseconds from the start of the utterance (`SpeechRecognizer.start()`).
/// Silences, fillers (`[NOISE]`) and sentence markers are left out, and alternate
/// pronunciation suffixes (`read(2)`) removed.
public struct Transcript: Sendable, Equatable, Codable {
    /// One recognised word.
    public struct Word: Sendable, Equatable, Codable {
        /// The word, lower case.
        public var text: String
        /// Where it starts, in ms from the start of the utterance.
        public var startMilliseconds: Int
        /// Where it ends (exclusive), in ms from the start of the utterance.
        public var endMilliseconds: Int
        /// Posterior probability 0...1; low values mark likely misrecognitions.
        public var confidence: Double

        /// Creates a word.
        public init(text: String, startMilliseconds: Int, endMilliseconds: Int, confidence: Double) {
            self.text = text
            self.startMilliseconds = startMilliseconds
            self.endMilliseconds = endMilliseconds
            self.confidence = confidence
        }
    }

    /// The words in order.
    public var words: [Word]

    /// Creates a transcript of `words`.
    public init(words: [Word]) {
        self.words = words
    }

    /// The words joined by single spaces; empty when nothing was recognised.
    public var text: String { words.map(\.text).joined(separator: " ") }

    /// Whether nothing was recognised.
    public var isEmpty: Bool { words.isEmpty }
}
