import Foundation

/// Words with their pronunciations, read from a CMU-format dictionary file such as
/// `models/hotword/susi.dict`: one `word PH O N E S` per line, `word(2)` for alternates.
///
/// Blank lines and lines starting with `#` or `;;;` are comments.
public struct PronunciationDictionary: Sendable, Equatable {
    /// One pronunciation of one word.
    public struct Entry: Sendable, Equatable, Hashable {
        /// The lower-case word, without an alternate suffix.
        public var word: String
        /// Space-separated upper-case phones of the acoustic model.
        public var phones: String

        /// Creates an entry; the word is lower-cased and its `(2)`-style suffix dropped.
        public init(word: String, phones: String) {
            self.word = SphinxDecoder.baseWord(word.lowercased())
            self.phones = PronunciationDictionary.normalizePhones(phones)
        }
    }

    /// The entries in file order.
    public var entries: [Entry]

    /// A dictionary holding `entries`.
    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// Parses dictionary text; `source` names it in errors.
    ///
    /// - Throws: `stt-bad-pronunciation` for a line with a word but no phones.
    public init(parsing text: String, source: String = "dictionary") throws(SpeechError) {
        var entries: [Entry] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";;;") { continue }
            let fields = trimmed.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 2 else {
                throw SpeechError(.badPronunciation, "\(source):\(index + 1): \"\(trimmed)\" has no phones")
            }
            entries.append(Entry(word: String(fields[0]), phones: fields.dropFirst().joined(separator: " ")))
        }
        self.entries = entries
    }

    /// Reads and parses the dictionary file at `path`.
    ///
    /// - Throws: `stt-model-missing` when the file cannot be read, `stt-bad-pronunciation` for
    ///   a malformed line.
    public init(contentsOf path: String) throws(SpeechError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SpeechError(.modelMissing, "cannot read dictionary \(path)")
        }
        try self.init(parsing: text, source: path)
    }

    /// The phones of `entries` for `word`, in file order.
    public func pronunciations(of word: String) -> [String] {
        let key = word.lowercased()
        return entries.filter { $0.word == key }.map(\.phones)
    }

    /// Upper case, single spaces: the form PocketSphinx prints.
    static func normalizePhones(_ phones: String) -> String {
        phones.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Writes the lines of the CMU-format dictionary at `source` for `words` (with their
    /// alternates) to a new temporary file and returns its path; the caller removes it once
    /// the decoder has read it.
    ///
    /// A decoder that needs a few words (a keyphrase, the wake verifier) loads these instead
    /// of all of cmudict, which costs about 20 MB of memory per decoder. The file is scanned
    /// in place (`scanLines`).
    /// - Throws: `stt-model-missing` when `source` cannot be read or the file not written.
    public static func writeSubset(of source: String, words: Set<String>) throws(SpeechError) -> String {
        var kept: [UInt8] = []
        try scanLines(of: source) { word, line in
            guard words.contains(word) else { return }
            kept += line
            kept.append(UInt8(ascii: "\n"))
        }
        if kept.isEmpty { kept = [UInt8(ascii: "\n")] }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("susi-\(UUID().uuidString).dict").path
        guard FileManager.default.createFile(atPath: path, contents: Data(kept)) else {
            throw SpeechError(.modelMissing, "cannot write a pronunciation dictionary to \(path)")
        }
        return path
    }

    /// Calls `body` with each line of the CMU-format file at `path` that holds a word: the
    /// word, lower case and without an alternate's "(2)", and the line's bytes. The file is
    /// mapped and scanned in place, not read into one string and split into its 135,000
    /// lines (about 10 MB allocated for cmudict).
    ///
    /// - Throws: `stt-model-missing` when the file cannot be read.
    static func scanLines(
        of path: String, _ body: (_ word: String, _ line: Slice<UnsafeBufferPointer<UInt8>>) -> Void
    ) throws(SpeechError) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw SpeechError(.modelMissing, "pronunciation dictionary not found: \(path)")
        }
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                let line = bytes[start..<end]
                start = end + 1
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
                let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[line.startIndex..<space]), as: UTF8.self)
                body(SphinxDecoder.baseWord(word.lowercased()), line)
            }
        }
    }

    /// The `.dict` files in `modelsDirectory/hotword`, sorted by name; empty when there are none.
    public static func hotwordDictionaries(modelsDirectory: String) -> [String] {
        dictionaries(in: modelsDirectory + "/hotword")
    }

    /// The dictionaries the command recogniser prefers to cmudict: the hotword's, then the
    /// `.dict` files of `modelsDirectory/language` (how accents say command words).
    public static func commandDictionaries(modelsDirectory: String) -> [String] {
        hotwordDictionaries(modelsDirectory: modelsDirectory) + dictionaries(in: modelsDirectory + "/language")
    }

    /// The `.dict` files in `directory`, sorted by name.
    private static func dictionaries(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".dict") }.sorted().map { directory + "/" + $0 }
    }
}
