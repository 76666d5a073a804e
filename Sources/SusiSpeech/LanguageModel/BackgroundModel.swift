import Foundation

/// A small bigram model of generic English for the words the recogniser can hear: an
/// excerpt of PocketSphinx's large `en-us.lm.bin` (its unigrams over that vocabulary, and its
/// bigrams after the most frequent words), written as ARPA text with back-off weights that
/// make each history's distribution sum to one again.
///
/// The whole generic model costs about 27 MB of memory loaded; this excerpt a few hundred
/// kB, so mixing it in keeps `susi run` small.
enum BackgroundModel {
    /// ARPA text of the excerpt `unigrams` (log10, renormalised over the listed words) and
    /// `bigrams` (log10, by history), for `vocabulary` (words without an unigram get the
    /// smallest listed one).
    static func arpa(unigrams: [String: Double], bigrams: [String: [String: Double]]) -> String {
        let words = unigrams.keys.filter { $0 != NGramModel.sentenceStart }.sorted()
        let total = words.reduce(0.0) { sum, word in sum + pow(10, unigrams[word] ?? -99) }
        let normaliser = log10(max(total, 1e-30))
        var unigram: [String: Double] = [:]
        for word in words { unigram[word] = (unigrams[word] ?? -99) - normaliser }
        var backoff: [String: Double] = [:]
        var listed: [String: [(word: String, probability: Double)]] = [:]
        for (history, followers) in bigrams where history == NGramModel.sentenceStart || unigram[history] != nil {
            let kept = followers.filter { unigram[$0.key] != nil }.sorted { $0.key < $1.key }
            guard !kept.isEmpty else { continue }
            let seen = kept.reduce(0.0) { $0 + pow(10, $1.value) }
            let lower = kept.reduce(0.0) { $0 + pow(10, unigram[$1.key] ?? -99) }
            // Listed bigrams can hold more than the vocabulary's share: scale them to 99%.
            let scale = seen > 0.99 ? log10(0.99 / seen) : 0
            let seenScaled = min(seen, 0.99)
            backoff[history] = log10(max(1e-12, 1 - seenScaled) / max(1e-12, 1 - min(lower, 0.999)))
            listed[history] = kept.map { ($0.key, $0.value + scale) }
        }
        let bigramCount = listed.values.reduce(0) { $0 + $1.count }
        var text = "\\data\\\nngram 1=\(words.count + 1)\nngram 2=\(bigramCount)\n\n\\1-grams:\n"
        text += "-99.000000\t\(NGramModel.sentenceStart)\t\(String(format: "%.6f", backoff[NGramModel.sentenceStart] ?? 0))\n"
        for word in words {
            text += String(format: "%.6f", unigram[word] ?? -99) + "\t" + word
            text += "\t" + String(format: "%.6f", backoff[word] ?? 0) + "\n"
        }
        text += "\n\\2-grams:\n"
        for history in listed.keys.sorted() {
            for (word, probability) in listed[history] ?? [] {
                text += String(format: "%.6f", probability) + "\t\(history) \(word)\n"
            }
        }
        return text + "\n\\end\\\n"
    }
}
