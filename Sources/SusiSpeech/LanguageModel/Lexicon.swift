import Foundation

/// Pronunciations for the words of a language model: cmudict's when it has the word (in
/// any of its spellings: "whats" is cmudict's "what's"), else one made from eSpeak NG's
/// phonemes mapped to the CMU phone set.
struct Lexicon {
    /// cmudict's pronunciations by word, alternates in file order.
    private var pronunciations: [String: [String]] = [:]
    /// Words with apostrophes by their spelling without them ("whats" to "what's").
    private var apostropheForms: [String: String] = [:]
    /// Words given a pronunciation from eSpeak NG, with it.
    private(set) var generated: [String: String] = [:]

    /// Reads the entries of a CMU-format dictionary (`cmudict-en-us.dict`) that `words` need:
    /// their own and those of their spellings with or without apostrophes. Keeping only
    /// those (a few hundred of cmudict's 135,000) keeps the memory of a model build small.
    ///
    /// - Throws: `stt-model-missing` when it cannot be read.
    init(cmudictPath: String, words: Set<String>) throws(SpeechError) {
        let plainWords = Set(words.map { $0.replacingOccurrences(of: "'", with: "") })
        var pronunciations: [String: [String]] = [:]
        var apostropheForms: [String: String] = [:]
        try PronunciationDictionary.scanLines(of: cmudictPath) { word, line in
            let plain = word.replacingOccurrences(of: "'", with: "")
            guard plainWords.contains(plain), let space = line.firstIndex(of: UInt8(ascii: " ")) else { return }
            let rest = String(decoding: UnsafeBufferPointer(rebasing: line[(space + 1)...]), as: UTF8.self)
            let phones = rest.split(separator: " ").joined(separator: " ")
            guard !phones.isEmpty else { return }
            pronunciations[word, default: []].append(phones)
            if word.contains("'"), apostropheForms[plain] == nil { apostropheForms[plain] = word }
        }
        self.pronunciations = pronunciations
        self.apostropheForms = apostropheForms
    }

    /// Adds entries (e.g. the hotword dictionary) ahead of cmudict's for their words.
    mutating func prefer(_ dictionary: PronunciationDictionary) {
        var replaced: Set<String> = []
        for entry in dictionary.entries {
            if replaced.insert(entry.word).inserted { pronunciations[entry.word] = [] }
            pronunciations[entry.word, default: []].append(entry.phones)
        }
    }

    /// The spelling to use for `word`: itself when known, its apostrophe form when only that
    /// is known ("didnt" becomes "didn't"), else itself.
    func canonical(_ word: String) -> String {
        if pronunciations[word] != nil { return word }
        let plain = word.replacingOccurrences(of: "'", with: "")
        if pronunciations[plain] != nil { return plain }
        return apostropheForms[plain] ?? word
    }

    /// The known pronunciations of `word`; empty when it needs one generated.
    func known(_ word: String) -> [String] {
        pronunciations[word] ?? []
    }

    /// The pronunciations of `word`, generating one with `phonemize` (eSpeak NG) when cmudict
    /// lacks it, and adding British ones with `phonemizeBritish` (see `withBritishYod`).
    /// Empty when none is known or made.
    mutating func pronounce(
        _ word: String, phonemize: (String) -> [String], phonemizeBritish: (String) -> [String] = { _ in [] }
    ) -> [String] {
        let spoken = Self.spoken(word)
        if let listed = pronunciations[word], !listed.isEmpty {
            let british = PhoneMapping.cmuPhones(fromESpeak: phonemizeBritish(spoken)) ?? []
            let all = Self.withBritishYod(listed, british: british)
            pronunciations[word] = all
            return all
        }
        guard let phones = PhoneMapping.cmuPhones(fromESpeak: phonemize(spoken)) else { return [] }
        let joined = phones.joined(separator: " ")
        pronunciations[word] = [joined]
        generated[word] = joined
        return [joined]
    }

    /// `word` as eSpeak NG is given it: without apostrophes.
    static func spoken(_ word: String) -> String {
        word.replacingOccurrences(of: "'", with: "")
    }

    /// Consonants after which British English keeps a "y" before "oo" that American English
    /// drops: "resume" is R IH Z UW M in cmudict, R IH Z Y UW M in Britain ("new", "tune",
    /// "duke" alike).
    static let yodConsonants: Set<String> = ["T", "D", "N", "S", "Z", "L", "TH"]

    /// `listed` (cmudict's, American) followed by each of them with the "y" put back where
    /// the British pronunciation `british` (CMU phones) has it after the same consonant.
    static func withBritishYod(_ listed: [String], british: [String]) -> [String] {
        let before = british.indices.dropFirst(2).filter { british[$0 - 1] == "Y" && british[$0] == "UW" }
        let keptAfter = Set(before.map { british[$0 - 2] }).intersection(yodConsonants)
        guard !keptAfter.isEmpty else { return listed }
        var all = listed
        for pronunciation in listed {
            var phones: [String] = []
            for phone in pronunciation.split(separator: " ").map(String.init) {
                if phone == "UW", let last = phones.last, keptAfter.contains(last) { phones.append("Y") }
                phones.append(phone)
            }
            let variant = phones.joined(separator: " ")
            if !all.contains(variant) { all.append(variant) }
        }
        return all
    }
}
