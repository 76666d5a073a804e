import Foundation

/// The unigram probabilities of a large language model (PocketSphinx's `en-us.lm.bin`), for
/// the generic English under the open model.
///
/// sphinxbase reads a binary model whole (27 MB for `en-us.lm.bin`, which set the peak memory
/// of the run that builds the open model). Its trie format keeps the unigrams near the start
/// of the file and the words at its end, so only those two parts (about 1.5 MB) are read here;
/// a file in any other format is read whole by sphinxbase instead.
public struct GenericUnigrams: Sendable {
    /// The log10 probability of each word; sentence markers and `<UNK>` left out.
    public let log10Probabilities: [String: Double]
    /// Whether the trie's parts were read directly (false: sphinxbase read the file whole).
    public let readDirectly: Bool

    /// Reads the unigrams of the model in `path`.
    ///
    /// - Throws: `stt-model-missing`, or `stt-init-failed` when the model cannot be read.
    public init(contentsOf path: String) throws(SpeechError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw SpeechError(.modelMissing, "language model not found: \(path)")
        }
        let all: [String: Double]
        if let direct = Self.readTrie(path) {
            all = direct
            readDirectly = true
        } else {
            all = try SphinxDecoder.unigrams(ofLanguageModel: path)
            readDirectly = false
        }
        log10Probabilities = all.filter { !$0.key.hasPrefix("<") }
    }

    /// The `limit` likeliest words, most likely first (ties in spelling order).
    public func frequentWords(limit: Int) -> [String] {
        log10Probabilities.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(max(0, limit)).map(\.key)
    }

    /// The format's header, then the order (one byte) and one count per order (UInt32).
    static let trieHeader = Array("Trie Language Model".utf8)
    /// sphinxbase's only quantisation: 16 bits, a table of 2^16 floats per quantised value.
    static let quantisedTableBytes = 65_536 * 4
    /// Probabilities are stored in sphinxbase's log base 1.0001.
    static let toLog10 = log10(1.0001)

    /// The unigrams of a trie-format model, or nil when the file is not one this reader knows
    /// (another format, another quantisation, or parts that do not add up).
    static func readTrie(_ path: String) -> [String: Double]? {
        guard let file = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? file.close() }
        do {
            guard let head = try file.read(upToCount: 64), head.count == 64,
                Array(head.prefix(trieHeader.count)) == trieHeader
            else { return nil }
            let order = Int(head[trieHeader.count])
            guard (1...5).contains(order) else { return nil }
            let countsAt = trieHeader.count + 1
            let unigramCount = Int(head.littleEndianUInt32(at: countsAt))
            guard unigramCount > 0 else { return nil }
            var unigramsAt = countsAt + 4 * order
            if order > 1 {
                // Quantisation type, then a probability and a back-off table for each middle
                // order and a probability table for the longest.
                guard head.littleEndianUInt32(at: unigramsAt) == 1 else { return nil }
                unigramsAt += 4 + (2 * (order - 2) + 1) * quantisedTableBytes
            }
            // Each unigram: probability, back-off (floats), first bigram (UInt32); one more ends the table.
            try file.seek(toOffset: UInt64(unigramsAt))
            guard let table = try file.read(upToCount: unigramCount * 12), table.count == unigramCount * 12 else {
                return nil
            }
            guard let words = try lastStrings(of: file, count: unigramCount) else { return nil }
            var result: [String: Double] = [:]
            result.reserveCapacity(unigramCount)
            for (index, word) in words.enumerated() {
                let probability = Double(Float(bitPattern: table.littleEndianUInt32(at: index * 12)))
                guard probability <= 0, probability.isFinite else { return nil }
                result[word] = probability * toLog10
            }
            return result["<s>"] != nil && result["</s>"] != nil ? result : nil
        } catch {
            return nil
        }
    }

    /// The last `count` NUL-terminated strings of `file` (its word list), read from its end in
    /// growing pieces.
    private static func lastStrings(of file: FileHandle, count: Int) throws -> [String]? {
        let size = try file.seekToEnd()
        var length = UInt64(min(Int(size), count * 16))
        while true {
            try file.seek(toOffset: size - length)
            guard let tail = try file.read(upToCount: Int(length)), tail.last == 0 else { return nil }
            let parts = tail.dropLast().split(separator: 0, omittingEmptySubsequences: false)
            // One more separator than words: the first word's start is inside the piece.
            if parts.count > count {
                return parts.suffix(count).map { String(decoding: $0, as: UTF8.self) }
            }
            guard length < size else { return nil }
            length = min(size, length * 2)
        }
    }
}

extension Data {
    /// The little-endian UInt32 at byte `offset` (from the start of the data).
    fileprivate func littleEndianUInt32(at offset: Int) -> UInt32 {
        let start = startIndex + offset
        return self[start..<start + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
