import Foundation

/// How a transcriber writes the wake phrase it heard: "susi" comes out as "Susi", "Suzy",
/// "Susie", "Sushi", "So see", ... A command heard whole from the end of the wake word may
/// still begin with its tail, and a transcript of the wake word itself should hold it.
public enum WakeNames {
    /// The spellings of "susi" that Whisper and people write, lower case, words split.
    static let susi: [[String]] = [
        "susi", "suzy", "susie", "suzie", "suzi", "sussi", "susy", "sushi", "soozie", "suusi", "sue see", "so see", "su si",
        "sue sea", "suzee", "susi's",
    ].map { $0.split(separator: " ").map(String.init) }

    /// The spellings of `phrase`, each as lower-case words.
    public static func spellings(of phrase: String) -> [[String]] {
        let words = phrase.lowercased().split(separator: " ").map(String.init)
        return words == ["susi"] ? susi : [words]
    }

    /// `text` without a leading "hey" and the wake phrase in any of its spellings, and the
    /// punctuation after it ("Susi, what time is it?" is "what time is it?").
    public static func withoutName(_ text: String, phrase: String) -> String {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        let plain = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        let starts = ["hey", "hi", "okay"].contains(plain.first ?? "") ? [0, 1] : [0]
        for start in starts {
            for spelling in spellings(of: phrase)
            where plain.count >= start + spelling.count && Array(plain[start..<start + spelling.count]) == spelling {
                let rest = words[(start + spelling.count)...].joined(separator: " ")
                return rest.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)).isEmpty ? "" : rest
            }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
