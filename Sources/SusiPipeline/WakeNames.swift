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
        after(phrase, in: text, startingWithin: 1) ?? text.trimmingCharacters(in: .whitespaces)
    }

    /// What follows the wake phrase in `text`, when a spelling of it starts within its first
    /// `words` words, not counting a leading "hey" (a transcript heard from a little before the
    /// name may begin with the end of the word before it); nil when it does not.
    public static func after(_ phrase: String, in text: String, startingWithin words: Int) -> String? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        let plain = parts.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        let greeting = ["hey", "hi", "okay"].contains(plain.first ?? "") ? 1 : 0
        for start in 0..<min(plain.count, words + greeting) {
            for spelling in spellings(of: phrase)
            where plain.count >= start + spelling.count && Array(plain[start..<start + spelling.count]) == spelling {
                let rest = parts[(start + spelling.count)...].joined(separator: " ")
                return rest.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)).isEmpty ? "" : rest
            }
        }
        return nil
    }
}
