import Foundation

/// The phrasings the skills know: each intent's patterns and `!example:` queries, read from
/// the skill files (`models/skills/*.txt`) without interpreting answers or consoles.
///
/// SusiSpeech cannot depend on SusiBrain, so this reads just enough of the skill language:
/// blocks end at blank lines; in a block the first plain line holds `|`-separated patterns;
/// `!example:` lines are sample queries; `#` and `::` lines, answers and `!console:` JSON
/// (up to `eol`) are skipped.
public struct SkillPhrasings: Sendable, Equatable {
    /// One intent block of one skill.
    public struct Intent: Sendable, Equatable {
        /// The skill's id (its file name without `.txt`).
        public var skill: String
        /// The pattern alternatives as written (`*` for wildcards).
        public var patterns: [String]
        /// The `!example:` queries as written.
        public var examples: [String]

        /// Creates an intent.
        public init(skill: String, patterns: [String], examples: [String]) {
            self.skill = skill
            self.patterns = patterns
            self.examples = examples
        }
    }

    /// Every intent, in file-name order, then file order.
    public var intents: [Intent]
    /// A 64-bit FNV-1a hash of the skill files' names and contents, as 16 hex digits: what
    /// the language model cache is keyed by.
    public var contentHash: String

    /// Creates phrasings from intents already read.
    public init(intents: [Intent], contentHash: String) {
        self.intents = intents
        self.contentHash = contentHash
    }

    /// Reads every `*.txt` file of `directory`.
    ///
    /// - Throws: `stt-model-missing` when the directory cannot be listed; unreadable files are
    ///   skipped, as the brain skips them.
    public init(directory: String) throws(SpeechError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw SpeechError(.modelMissing, "cannot read skills directory \(directory)")
        }
        var hash = FNV1a()
        var intents: [Intent] = []
        for name in names.sorted() where name.hasSuffix(".txt") && !name.hasPrefix(".") {
            let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            hash.add(Array(name.utf8))
            hash.add([0])
            hash.add(Array(data))
            hash.add([0])
            let text = String(decoding: data, as: UTF8.self)
            intents += Self.parse(text, skill: String(name.dropLast(4)))
        }
        self.init(intents: intents, contentHash: hash.hex)
    }

    /// The intents of one skill file's text.
    public static func parse(_ text: String, skill: String) -> [Intent] {
        var intents: [Intent] = []
        var patterns: [String]?
        var examples: [String] = []
        var inConsoleJSON = false
        func flush() {
            if let found = patterns, !found.isEmpty {
                intents.append(Intent(skill: skill, patterns: found, examples: examples))
            }
            patterns = nil
            examples = []
        }
        // Any line ending: in a Swift string "\r\n" is one Character, which a split on "\n" never
        // finds, and a third of susi_skill_data's English files end their lines so.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if inConsoleJSON {
                if line == "eol" { inConsoleJSON = false }
                continue
            }
            if line.isEmpty || line.hasPrefix("#") {
                flush()
                continue
            }
            if line.hasPrefix("::") { continue }
            if line.hasPrefix("!example:") {
                examples.append(String(line.dropFirst("!example:".count)))
            } else if line.hasPrefix("!console:") {
                inConsoleJSON = true
            } else if line.hasPrefix("!") {
                continue
            } else if patterns == nil {
                patterns = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            }
        }
        flush()
        return intents
    }
}

/// 64-bit FNV-1a: a stable, dependency-free hash for cache keys (not for security).
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }

    mutating func add(_ text: String) { add(Array(text.utf8)) }

    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}
