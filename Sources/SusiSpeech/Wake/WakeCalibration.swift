import Foundation
import SusiCore

/// The keyphrase search's threshold worked out for one wake phrase that has no trained head,
/// and how the phrase fared in its check (`WakeCalibrator`).
///
/// Kept as a small JSON file per phrase in the speaker's state directory (beside the config),
/// so that the keyphrase search wakes on the phrase at a threshold fitted to its length
/// instead of the one tuned for "susi", and so that `susi doctor` and the settings page can
/// say how well it did.
public struct WakeCalibration: Codable, Sendable, Equatable {
    /// The phrase, lower case, single spaces.
    public var phrase: String
    /// Phones of its shortest pronunciation (the hotword dictionaries', else cmudict's).
    public var phones: Int
    /// The threshold the phone count gave before the check.
    public var scaledThreshold: Double
    /// The threshold chosen by the check: of those tried without a false wake, the one that
    /// woke on most spoken phrases (the strictest of equals).
    public var threshold: Double
    /// Spoken phrases of the check the detector woke on, and how many there were.
    public var wakes: Int
    public var trials: Int
    /// Wakes on the check's sentences without the phrase, and their length in seconds.
    public var falseWakes: Int
    public var negativeSeconds: Double
    /// Whether the check ran with the verifier behind the keyphrase search (`hotword.verify`).
    public var verified: Bool
    /// The eSpeak NG voices that said the phrase.
    public var voices: [String]
    /// When the check ran (ISO 8601).
    public var date: String

    /// A calibration with these figures (`WakeCalibrator` makes them).
    public init(
        phrase: String, phones: Int, scaledThreshold: Double, threshold: Double, wakes: Int, trials: Int, falseWakes: Int,
        negativeSeconds: Double, verified: Bool, voices: [String], date: String
    ) {
        self.phrase = phrase
        self.phones = phones
        self.scaledThreshold = scaledThreshold
        self.threshold = threshold
        self.wakes = wakes
        self.trials = trials
        self.falseWakes = falseWakes
        self.negativeSeconds = negativeSeconds
        self.verified = verified
        self.voices = voices
        self.date = date
    }

    /// Whether the phrase passed: woke on at least two thirds of the spoken phrases and on no
    /// sentence. Not all: the en-us acoustic model does not hear eSpeak NG's Caribbean voice
    /// (en-029) say "susi" either, and the default "susi" itself wakes on 76% of the dev
    /// corpus (`models/hotword/README.md`).
    public var passed: Bool { trials > 0 && wakes * 3 >= trials * 2 && falseWakes == 0 }

    /// One line for people: "threshold 1e-32 calibrated, woke 6/6 of its check, 0 false
    /// wakes in 32 s".
    public var summary: String {
        let seconds = Int(negativeSeconds.rounded())
        return "threshold \(Self.format(threshold)) calibrated"
            + (passed ? "" : " (check failed)") + ", woke \(wakes)/\(trials) of its check, "
            + "\(falseWakes) false wake\(falseWakes == 1 ? "" : "s") in \(seconds) s"
    }

    /// `1e-32` for 1e-32, `3.2e-20` otherwise.
    public static func format(_ threshold: Double) -> String {
        guard threshold > 0 else { return String(threshold) }
        let exponent = log10(threshold)
        if abs(exponent - exponent.rounded()) < 1e-9 { return "1e\(Int(exponent.rounded()))" }
        return String(format: "%.2g", threshold)
    }

    // MARK: Files

    /// The file name stem of `phrase`: its words joined by `-`, as heads are named
    /// (`hey-computer`).
    public static func fileStem(of phrase: String) -> String {
        phrase.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: "-")
    }

    /// `directory/wake-calibration/<phrase>.json`.
    public static func path(phrase: String, directory: String) -> String {
        directory + "/wake-calibration/" + fileStem(of: phrase) + ".json"
    }

    /// The calibration kept for `phrase` in `directory`, or nil when there is none (or it
    /// cannot be read, or is for another phrase).
    public static func load(phrase: String, directory: String) -> WakeCalibration? {
        guard let data = try? AtomicFile.read(path(phrase: phrase, directory: directory), limit: 1 << 16),
            let calibration = try? JSONDecoder().decode(WakeCalibration.self, from: data),
            calibration.phrase == Keyphrase(phrase).phrase
        else { return nil }
        return calibration
    }

    /// Writes this calibration into `directory` (atomically, mode 0600).
    ///
    /// - Throws: `config-unwritable` when it cannot be written.
    public func save(directory: String) throws(ConfigError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        try AtomicFile.write(data + Data("\n".utf8), to: Self.path(phrase: phrase, directory: directory))
    }

    // MARK: Threshold from the phone count

    /// Phones of "susi" (`S UW Z IY`), for which `Keyphrase.defaultThreshold` was tuned.
    static let tunedPhones = 4

    /// The keyphrase threshold for a phrase of `phones` phones: `Keyphrase.defaultThreshold`
    /// per four phones (1e-4 a phone), as a keyphrase's score is a product over its frames, so
    /// a longer phrase needs a proportionally smaller threshold to be heard as often.
    /// Kept within the config's range (1e-80 to 1).
    public static func scaledThreshold(phones: Int) -> Double {
        let perPhone = log10(Keyphrase.defaultThreshold) / Double(tunedPhones)
        let exponent = max(-80, min(0, perPhone * Double(max(phones, 1))))
        return pow(10, exponent.rounded())
    }

    /// The phones of the shortest pronunciation of `phrase`: each word as the hotword
    /// dictionaries of `modelsDirectory` list it, else as cmudict does.
    ///
    /// - Throws: `wake-unknown-word` naming the words neither lists; `stt-model-missing`
    ///   when a dictionary cannot be read.
    public static func phoneCount(of phrase: String, modelsDirectory: String) throws(SpeechError) -> Int {
        let words = Keyphrase(phrase).words
        var hotwords: [PronunciationDictionary] = []
        for path in PronunciationDictionary.hotwordDictionaries(modelsDirectory: modelsDirectory) {
            hotwords.append(try PronunciationDictionary(contentsOf: path))
        }
        var shortest: [String: Int] = [:]
        for word in words {
            let listed = hotwords.flatMap { $0.pronunciations(of: word) }
            if let count = listed.map({ $0.split(separator: " ").count }).min() { shortest[word] = count }
        }
        let missing = Set(words.filter { shortest[$0] == nil })
        if !missing.isEmpty {
            try PronunciationDictionary.scanLines(of: SphinxConfiguration().dictionaryPath) { word, line in
                guard missing.contains(word) else { return }
                let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).count - 1
                shortest[word] = min(shortest[word] ?? .max, fields)
            }
        }
        let unknown = words.filter { shortest[$0] == nil }
        guard unknown.isEmpty else {
            throw SpeechError(
                .wakeUnknownWord,
                "the pronouncing dictionary has no \(unknown.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return words.compactMap { shortest[$0] }.reduce(0, +)
    }
}
