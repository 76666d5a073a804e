import Foundation

/// Hypotheses written by `pocketsphinx_batch -hyp FILE`: one line per utterance,
/// `words (uttid score)`.
enum StockResults {
    /// Hypothesis text by utterance id; missing file gives an empty table.
    static func load(_ path: String?) -> [String: String] {
        guard let path, let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let open = line.lastIndex(of: "(") else { continue }
            let words = line[..<open].trimmingCharacters(in: .whitespaces)
            let inner = line[line.index(after: open)...].split(separator: " ")
            guard let id = inner.first else { continue }
            result[String(id)] = words
        }
        return result
    }
}
