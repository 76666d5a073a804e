import Foundation
import SusiModel

extension Transcript {
    /// `susi transcribe --json` from PocketSphinx: `{"engine": "pocketsphinx", "text", "words":
    /// [{"word", "start_ms", "end_ms", "confidence"}]}` on one line, keys sorted.
    public func jsonLine() throws -> String {
        let words: [[String: Any]] = words.map {
            ["word": $0.text, "start_ms": $0.startMilliseconds, "end_ms": $0.endMilliseconds, "confidence": $0.confidence]
        }
        let data = try JSONSerialization.data(
            withJSONObject: ["engine": "pocketsphinx", "text": text, "words": words], options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
