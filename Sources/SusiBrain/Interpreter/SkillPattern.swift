import Foundation

/// One compiled pattern alternative: literal words and `*` wildcards.
///
/// A wildcard matches zero or more words, as few as possible (so with two wildcards the first
/// takes the shortest span that lets the rest match). The words it took are its capture,
/// `$1$` for the first wildcard and so on.
struct SkillPattern: Sendable {
    enum Token: Sendable, Equatable {
        case word(String)
        case wildcard
    }

    /// The alternative as the skill author wrote it.
    let source: String
    let tokens: [Token]
    /// The literal words, for a quick containment check before matching.
    let literals: [String]

    init?(_ source: String) {
        let words = QueryNormalizer.patternWords(source)
        guard !words.isEmpty else { return nil }
        self.source = source.trimmingCharacters(in: .whitespaces)
        tokens = words.map { $0 == "*" ? .wildcard : .word($0) }
        literals = words.filter { $0 != "*" }
    }

    var wildcardCount: Int { tokens.count - literals.count }

    /// The captures (one string per wildcard) when the words match, else `nil`.
    func match(_ words: [String]) -> [String]? {
        var captures: [String] = []
        captures.reserveCapacity(wildcardCount)
        return matchFrom(0, 0, words, &captures) ? captures : nil
    }

    private func matchFrom(
        _ tokenIndex: Int, _ wordIndex: Int, _ words: [String], _ captures: inout [String]
    ) -> Bool {
        guard tokenIndex < tokens.count else { return wordIndex == words.count }
        switch tokens[tokenIndex] {
        case .word(let literal):
            guard wordIndex < words.count, words[wordIndex] == literal else { return false }
            return matchFrom(tokenIndex + 1, wordIndex + 1, words, &captures)
        case .wildcard:
            if tokenIndex == tokens.count - 1 {
                captures.append(words[wordIndex...].joined(separator: " "))
                return true
            }
            for end in wordIndex...words.count {
                captures.append(words[wordIndex..<end].joined(separator: " "))
                if matchFrom(tokenIndex + 1, end, words, &captures) { return true }
                captures.removeLast()
            }
            return false
        }
    }
}

/// How well a pattern fits a query; greater is more specific.
///
/// More literal words win; then fewer wildcards; then fewer words swallowed by wildcards. A
/// lone `*` has no literals and so ranks below everything else.
struct MatchRank: Comparable, Sendable {
    let literals: Int
    let wildcards: Int
    let capturedWords: Int

    static func < (lhs: MatchRank, rhs: MatchRank) -> Bool {
        if lhs.literals != rhs.literals { return lhs.literals < rhs.literals }
        if lhs.wildcards != rhs.wildcards { return lhs.wildcards > rhs.wildcards }
        return lhs.capturedWords > rhs.capturedWords
    }
}
