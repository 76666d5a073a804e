import Foundation

/// One compiled pattern alternative: literal words and `*` wildcards.
///
/// A wildcard matches zero or more words, as many as possible, as SUSI's greedy `(.*)` does
/// (so in `* in *` the first takes everything up to the last "in"). The words it took are
/// its capture, `$1$` for the first wildcard and so on.
struct SkillPattern: Sendable {
    enum Token: Sendable, Hashable {
        case word(String)
        case wildcard
    }

    /// The alternative as the skill author wrote it.
    let source: String
    let tokens: [Token]
    /// The literal words, for a quick containment check before matching.
    let literals: [String]
    /// The characters of the literal words (SUSI's "meat size"; see `MatchRank`).
    let literalCharacters: Int

    /// A pattern from its parts (read back from `SkillCache`).
    init(source: String, tokens: [Token]) {
        self.source = source
        self.tokens = tokens
        literals = tokens.compactMap { if case .word(let word) = $0 { word } else { nil } }
        literalCharacters = literals.reduce(0) { $0 + $1.count }
    }

    init?(_ source: String) {
        let words = QueryNormalizer.patternWords(source)
        guard !words.isEmpty else { return nil }
        self.source = source.trimmedBlanks
        tokens = words.map { $0 == "*" ? .wildcard : .word($0) }
        literals = words.filter { $0 != "*" }
        literalCharacters = literals.reduce(0) { $0 + $1.count }
    }

    var wildcardCount: Int { tokens.count - literals.count }

    /// The length SUSI's score measures: the pattern as a regular expression, each `*` being
    /// the four characters `(.*)`.
    var susiSize: Int {
        tokens.reduce(max(0, tokens.count - 1)) { total, token in
            switch token {
            case .word(let word): total + word.count
            case .wildcard: total + 4
            }
        }
    }

    /// A lone `*`: matches anything (SUSI refuses these in skill data).
    var isCatchAll: Bool { tokens == [.wildcard] }

    /// The captures (one string per wildcard) when the words match, else `nil`.
    ///
    /// Linear in tokens times words, however many wildcards: a table of which pattern suffix
    /// can match which query suffix is filled once from the end, then each wildcard takes the
    /// longest span after which the rest still matches (the same captures a backtracking
    /// regular expression's greedy groups find, without its exponential worst case).
    func match(_ words: [String]) -> [String]? {
        let width = words.count + 1
        var reach = [Bool](repeating: false, count: (tokens.count + 1) * width)
        reach[tokens.count * width + words.count] = true
        for tokenIndex in stride(from: tokens.count - 1, through: 0, by: -1) {
            let row = tokenIndex * width
            let nextRow = row + width
            switch tokens[tokenIndex] {
            case .word(let literal):
                for wordIndex in words.indices where words[wordIndex] == literal {
                    reach[row + wordIndex] = reach[nextRow + wordIndex + 1]
                }
            case .wildcard:
                var reachable = false
                for wordIndex in stride(from: words.count, through: 0, by: -1) {
                    reachable = reachable || reach[nextRow + wordIndex]
                    reach[row + wordIndex] = reachable
                }
            }
        }
        guard reach[0] else { return nil }
        var captures: [String] = []
        captures.reserveCapacity(wildcardCount)
        var wordIndex = 0
        for tokenIndex in tokens.indices {
            switch tokens[tokenIndex] {
            case .word:
                wordIndex += 1
            case .wildcard:
                let nextRow = (tokenIndex + 1) * width
                var end = words.count
                while !reach[nextRow + end] { end -= 1 }
                captures.append(words[wordIndex..<end].joined(separator: " "))
                wordIndex = end
            }
        }
        return captures
    }
}

/// How well an intent fits a query, as SUSI orders its ideas; greater is better.
///
/// Compared in this order:
/// 1. a `::prior` intent first;
/// 2. the evidence of the fitting pattern: more literal words, then more literal characters
///    (SUSI's "meat size": `* singapore founded` says more than `how was *`), then fewer
///    wildcards, then fewer words swallowed by them;
/// 3. on equal evidence, the intent of the skill with fewer intents: with every skill equally
///    likely to be meant, each of a focused skill's intents is likelier than each of a
///    58,000-intent chat collection's, so a weather skill's `is it snowing` wins over the same
///    line in a general chat file;
/// 4. then SUSI's own score (`SusiIntent.Score`): the kind of work (a script over a memory
///    condition over a console fetch over a plain answer) and the length of the intent's
///    shortest pattern (its "wholesize");
/// 5. load order.
///
/// SUSI ranks by (4) alone, which does not look at the query; measured on
/// fossasia/susi_skill_data it passes fewer of the skills' own examples (bench/RESULTS.md),
/// so it only breaks ties here. A lone `*` has no literals and ranks last.
struct MatchRank: Comparable, Sendable {
    let prior: Bool
    let size: Int
    let inference: Int
    let literals: Int
    let literalCharacters: Int
    let wildcards: Int
    let capturedWords: Int
    /// The number of intents of the intent's skill.
    let skillIntents: Int

    static func < (lhs: MatchRank, rhs: MatchRank) -> Bool {
        if lhs.prior != rhs.prior { return !lhs.prior }
        if lhs.literals != rhs.literals { return lhs.literals < rhs.literals }
        if lhs.literalCharacters != rhs.literalCharacters { return lhs.literalCharacters < rhs.literalCharacters }
        if lhs.wildcards != rhs.wildcards { return lhs.wildcards > rhs.wildcards }
        if lhs.capturedWords != rhs.capturedWords { return lhs.capturedWords > rhs.capturedWords }
        if lhs.skillIntents != rhs.skillIntents { return lhs.skillIntents > rhs.skillIntents }
        if lhs.inference != rhs.inference { return lhs.inference < rhs.inference }
        return lhs.size < rhs.size
    }
}
