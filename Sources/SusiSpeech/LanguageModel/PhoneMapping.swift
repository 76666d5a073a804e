/// Maps eSpeak NG's English phoneme mnemonics (`s'u:zi`, as `espeak-ng -x` prints them) to
/// the CMU phone set of the PocketSphinx en-us acoustic model (`S UW Z IY`).
///
/// eSpeak NG's English phonemes are finer than CMU's (it has `I2`, `a#`, `@2` for reduced
/// vowels, `i@` for "ea" in "caribbean"); each maps to the nearest CMU phone(s). Stress and
/// syllable marks are dropped: the acoustic model has no stress.
enum PhoneMapping {
    /// eSpeak NG mnemonic to CMU phones.
    static let table: [String: [String]] = [
        // Vowels and diphthongs.
        "a": ["AE"], "a#": ["AH"], "aa": ["AE"], "A:": ["AA"], "A@": ["AA", "R"], "A#": ["AA"],
        "aI": ["AY"], "aI@": ["AY", "ER"], "aI3": ["AY", "ER"], "aU": ["AW"], "aU@": ["AW", "ER"],
        "@": ["AH"], "@2": ["AH"], "@5": ["AH"], "@@": ["ER"], "@L": ["AH", "L"], "@r": ["ER"],
        "3": ["ER"], "3:": ["ER"], "e": ["EH"], "e@": ["EH", "R"], "eI": ["EY"], "E": ["EH"],
        "E2": ["EH"], "E@": ["EH", "R"], "i": ["IY"], "i:": ["IY"], "i@": ["IY", "AH"], "i@3": ["IH", "R"],
        "I": ["IH"], "I#": ["IH"], "I2": ["IH"], "I@": ["IH", "R"], "0": ["AA"], "02": ["AA"], "O": ["AO"],
        "O:": ["AO"], "O@": ["AO", "R"], "o@": ["AO", "R"], "OI": ["OY"], "oU": ["OW"], "oU#": ["OW"],
        "o": ["OW"], "U": ["UH"], "u": ["UW"], "u:": ["UW"], "U@": ["UH", "R"], "V": ["AH"],
        // Consonants.
        "b": ["B"], "d": ["D"], "D": ["DH"], "dZ": ["JH"], "f": ["F"], "g": ["G"], "h": ["HH"], "j": ["Y"],
        "k": ["K"], "l": ["L"], "m": ["M"], "n": ["N"], "N": ["NG"], "p": ["P"], "r": ["R"], "r-": ["R"],
        "s": ["S"], "S": ["SH"], "t": ["T"], "T": ["TH"], "tS": ["CH"], "v": ["V"], "w": ["W"], "z": ["Z"],
        "Z": ["ZH"], "x": ["K"], "t#": ["T"], "d#": ["D"], "n-": ["N"], "l-": ["L"], "m-": ["M"], "z#": ["Z"],
        "*": ["D"], "l/": ["L"], "l^": ["L"], "n^": ["N"], "hw": ["W"], "C": ["HH"], "?": [],
    ]

    /// CMU phones for eSpeak NG phoneme names given one per element (as `espeak_TextToPhonemes`
    /// gives them with a separator). Unknown names are matched by their longest known prefix,
    /// skipping characters that match nothing (stress marks); nil when nothing is left.
    static func cmuPhones(fromESpeak names: [String]) -> [String]? {
        var phones: [String] = []
        for raw in names {
            var name = Substring(raw)
            while let first = name.first, ["'", ",", "%", "="].contains(first) { name = name.dropFirst() }
            while !name.isEmpty {
                var matched = false
                for length in stride(from: min(3, name.count), through: 1, by: -1) {
                    let piece = String(name.prefix(length))
                    if let mapped = table[piece] {
                        phones += mapped
                        name = name.dropFirst(length)
                        matched = true
                        break
                    }
                }
                if !matched {
                    // A mark or a phoneme this table lacks: skip it rather than invent a sound.
                    name = name.dropFirst()
                }
            }
        }
        return phones.isEmpty ? nil : phones
    }
}
