import SusiSpeech

/// Word error counting: substitutions + deletions + insertions over reference words, after
/// both sides are brought to one form (lower case, apostrophes dropped, digits spelled out).
enum WordErrors {
    /// Comparable words of a text.
    static func words(_ text: String) -> [String] {
        SkillSentences.words(of: text).map { $0.replacingOccurrences(of: "'", with: "") }
    }

    /// The edit distance between the word sequences.
    static func distance(_ reference: [String], _ hypothesis: [String]) -> Int {
        var previous = Array(0...hypothesis.count)
        for (i, word) in reference.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: hypothesis.count)
            for (j, other) in hypothesis.enumerated() {
                current[j + 1] = min(previous[j] + (word == other ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return previous[hypothesis.count]
    }
}
