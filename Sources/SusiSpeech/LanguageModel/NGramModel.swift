import Foundation

/// A back-off n-gram language model estimated from weighted sentences with interpolated
/// Witten-Bell discounting, written in the ARPA text format PocketSphinx reads.
///
/// Witten-Bell suits a small, generated corpus: it needs no count-of-counts (which
/// Kneser-Ney and Good-Turing estimate badly from a few thousand sentences) and works with
/// fractional counts. Each order is interpolated with the one below, down to a uniform
/// distribution over the vocabulary; the ARPA back-off weights are then computed so that
/// every history's distribution sums to one (as SRILM's `-wbdiscount -interpolate` does).
public struct NGramModel: Sendable {
    /// The n-gram order (3 for a trigram model).
    public let order: Int
    /// The vocabulary, sorted, including `<s>` and `</s>`.
    public let vocabulary: [String]
    /// log10 probabilities and back-off weights per n-gram, by order (index 0: unigrams).
    private let entries: [[[String]: (probability: Double, backoff: Double?)]]

    static let sentenceStart = "<s>"
    static let sentenceEnd = "</s>"

    /// Estimates a model of `order` (1...5) from `sentences` (words without sentence markers,
    /// and a count weight each).
    ///
    /// `background` (probabilities of words, e.g. a generic model's unigrams) replaces the
    /// uniform distribution at the bottom of the interpolation: its words join the vocabulary,
    /// and the mass Witten-Bell leaves for unseen words goes to them in proportion (mixed
    /// half and half with uniform, so the sentences' own rare words keep a share).
    /// `backgroundWeight` (0..<1) then mixes `background` into every n-gram the model lists,
    /// P(w | h) = (1 - weight) P(w | h) + weight P_background(w); other words reach a history
    /// by back-off, with the back-off weights renormalised. Its words then get more than the
    /// small mass the sentences leave unseen.
    public init(
        sentences: [(words: [String], weight: Double)], order: Int = 3, background: [String: Double] = [:],
        backgroundWeight: Double = 0
    ) {
        let order = min(5, max(1, order))
        self.order = order
        // counts[n-1]: weighted counts of the n-grams; <s> is only ever a history.
        var counts = [[[String]: Double]](repeating: [:], count: order)
        for sentence in sentences where !sentence.words.isEmpty && sentence.weight > 0 {
            let tokens = [Self.sentenceStart] + sentence.words + [Self.sentenceEnd]
            for end in 1..<tokens.count {
                for n in 1...order where end - n + 1 >= 0 {
                    counts[n - 1][Array(tokens[(end - n + 1)...end]), default: 0] += sentence.weight
                }
            }
        }
        var vocabularySet = Set(counts[0].keys.compactMap(\.first)).union(background.keys)
        vocabularySet.insert(Self.sentenceStart)
        vocabularySet.insert(Self.sentenceEnd)
        vocabulary = vocabularySet.sorted()

        // History statistics: total count and number of distinct followers.
        var historyTotals = [[[String]: Double]](repeating: [:], count: order)
        var historyTypes = [[[String]: Double]](repeating: [:], count: order)
        for n in 1...order {
            for (gram, count) in counts[n - 1] {
                let history = Array(gram.dropLast())
                historyTotals[n - 1][history, default: 0] += count
                historyTypes[n - 1][history, default: 0] += 1
            }
        }

        // Interpolated probabilities of every seen n-gram, lowest order first.
        let predictable = vocabulary.filter { $0 != Self.sentenceStart }
        let uniform = 1.0 / Double(max(1, predictable.count))
        let backgroundTotal = predictable.reduce(0.0) { $0 + (background[$1] ?? 0) }
        /// The bottom of the interpolation: uniform, or half uniform and half `background`.
        func base(_ word: String) -> Double {
            guard backgroundTotal > 0 else { return uniform }
            return 0.5 * uniform + 0.5 * (background[word] ?? 0) / backgroundTotal
        }
        var probabilities = [[[String]: Double]](repeating: [:], count: order)
        func lower(_ gram: [String]) -> Double {
            if gram.count == 1 { return base(gram[0]) }
            return probabilities[gram.count - 2][Array(gram.dropFirst())]
                ?? Self.interpolated(
                    Array(gram.dropFirst()), probabilities: probabilities, counts: counts, totals: historyTotals,
                    types: historyTypes, uniform: uniform)
        }
        for n in 1...order {
            for (gram, count) in counts[n - 1] where gram.last != Self.sentenceStart {
                let history = Array(gram.dropLast())
                let total = historyTotals[n - 1][history] ?? 0
                let types = historyTypes[n - 1][history] ?? 0
                probabilities[n - 1][gram] = (count + types * lower(gram)) / (total + types)
            }
        }
        // Background words never seen in a sentence still need a unigram: their share of the
        // unseen mass.
        if let total = historyTotals[0][[]], let types = historyTypes[0][[]] {
            for word in predictable where probabilities[0][[word]] == nil {
                probabilities[0][[word]] = types * base(word) / (total + types)
            }
        }
        if backgroundWeight > 0, backgroundTotal > 0 {
            let weight = min(0.99, backgroundWeight)
            for n in 1...order {
                for (gram, probability) in probabilities[n - 1] {
                    let word = gram[gram.count - 1]
                    probabilities[n - 1][gram] =
                        (1 - weight) * probability + weight * (background[word] ?? 0) / backgroundTotal
                }
            }
        }
        // Unigrams never seen as words still need an entry: only <s> here.
        var result = [[[String]: (probability: Double, backoff: Double?)]](repeating: [:], count: order)
        for n in 1...order {
            for (gram, probability) in probabilities[n - 1] {
                result[n - 1][gram] = (log10(probability), nil)
            }
        }
        result[0][[Self.sentenceStart]] = (-99, nil)

        // Back-off weights: the mass left for unseen followers, renormalised over what the
        // lower order gives those followers (as a decoder reads the model: listed, else backed off).
        func effective(_ gram: [String]) -> Double {
            if let probability = probabilities[gram.count - 1][gram] { return probability }
            guard gram.count > 1 else { return base(gram[0]) }
            let history = Array(gram.dropLast())
            let backoff = result[history.count - 1][history]?.backoff.map { pow(10, $0) } ?? 1
            return backoff * effective(Array(gram.dropFirst()))
        }
        for n in 1..<order {
            var seenMass: [[String]: Double] = [:]
            var lowerMass: [[String]: Double] = [:]
            for (gram, probability) in probabilities[n] {
                let history = Array(gram.dropLast())
                seenMass[history, default: 0] += probability
                lowerMass[history, default: 0] += effective(Array(gram.dropFirst()))
            }
            for (history, mass) in seenMass {
                guard result[n - 1][history] != nil else { continue }
                let numerator = max(1e-12, 1 - mass)
                let denominator = max(1e-12, 1 - (lowerMass[history] ?? 0))
                result[n - 1][history]?.backoff = log10(numerator / denominator)
            }
        }
        entries = result
    }

    /// The lower-order probability of an n-gram that was not seen itself, by backing off.
    private static func interpolated(
        _ gram: [String], probabilities: [[[String]: Double]], counts: [[[String]: Double]],
        totals: [[[String]: Double]], types: [[[String]: Double]], uniform: Double
    ) -> Double {
        if gram.count == 1 { return probabilities[0][gram] ?? uniform }
        let history = Array(gram.dropLast())
        let lowerValue = interpolated(
            Array(gram.dropFirst()), probabilities: probabilities, counts: counts, totals: totals, types: types,
            uniform: uniform)
        guard let total = totals[gram.count - 1][history], let typeCount = types[gram.count - 1][history] else {
            return lowerValue
        }
        return typeCount * lowerValue / (total + typeCount)
    }

    /// How many n-grams of each order the model lists.
    public var counts: [Int] { entries.map(\.count) }

    /// log10 probability of `word` after `history` (the last `order - 1` words count), backing
    /// off as a decoder does; nil for a word outside the vocabulary.
    public func logProbability(of word: String, after history: [String]) -> Double? {
        guard entries[0][[word]] != nil else { return nil }
        var context = Array(history.suffix(order - 1))
        var backoffSum = 0.0
        while true {
            if let entry = entries[context.count][context + [word]] {
                return entry.probability + backoffSum
            }
            guard !context.isEmpty else { return nil }
            backoffSum += entries[context.count - 1][context]?.backoff ?? 0
            context.removeFirst()
        }
    }

    /// The model as ARPA text.
    public var arpa: String {
        var text = "\\data\\\n"
        for n in 1...order { text += "ngram \(n)=\(entries[n - 1].count)\n" }
        for n in 1...order {
            text += "\n\\\(n)-grams:\n"
            for gram in entries[n - 1].keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                guard let entry = entries[n - 1][gram] else { continue }
                text += String(format: "%.6f", entry.probability) + "\t" + gram.joined(separator: " ")
                if n < order, let backoff = entry.backoff {
                    text += "\t" + String(format: "%.6f", backoff)
                }
                text += "\n"
            }
        }
        text += "\n\\end\\\n"
        return text
    }
}
