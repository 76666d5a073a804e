import Foundation

/// A compact binary copy of parsed skills, so a cold start does not read thousands of skill
/// files again: one community skill alone has 58,000 intents and takes about a second to
/// parse, while reading this copy back takes a small fraction of that.
///
/// The copy is keyed by the skill files' names and bytes (FNV-1a, 64 bit) together with the
/// format version and the load options: change any file and the key changes, the copy is
/// ignored and rewritten. A copy that cannot be read (truncated, another version) is ignored
/// the same way, so the cache can only cost a parse, never change an answer.
enum SkillCache {
    /// Bumped whenever the parser or this format changes what a file turns into.
    static let formatVersion: UInt64 = 6

    /// The key of `files` (name and bytes, in order) read with `options`.
    static func key(files: [(name: String, data: Data)], options: SkillLoadOptions) -> UInt64 {
        var hash = FNV1a()
        hash.add(formatVersion)
        hash.add(options.refuseCatchAll ? 1 : 0)
        for file in files {
            hash.add(UInt64(file.name.utf8.count))
            hash.add(bytes: file.name.utf8)
            hash.add(UInt64(file.data.count))
            file.data.withUnsafeBytes { hash.add(bytes: $0) }
        }
        return hash.value
    }

    /// The cache file for skills read from `directory`, inside `cacheDirectory`.
    static func path(for directory: String, in cacheDirectory: String) -> String {
        var hash = FNV1a()
        hash.add(bytes: ((directory as NSString).standardizingPath).utf8)
        return (cacheDirectory as NSString).appendingPathComponent(
            "skills-\(String(hash.value, radix: 16)).bin")
    }

    /// The skills and diagnostics stored under `key`, or nil when the file is missing, stale
    /// or unreadable.
    static func load(path: String, key: UInt64) -> (skills: [Skill], diagnostics: [SkillDiagnostic])? {
        // Mapped, not copied: freeing a multi-megabyte heap block made malloc consolidate its
        // free lists, an eighth of a cached start.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        // Read in place: copying the megabytes into an array first cost more than decoding.
        return data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            guard reader.int() == Int(truncatingIfNeeded: formatVersion), reader.uint64() == key else { return nil }
            return reader.content()
        }
    }

    /// Writes the copy (atomically; failures are ignored: the cache is an optimisation).
    static func save(path: String, key: UInt64, skills: [Skill], diagnostics: [SkillDiagnostic]) {
        var writer = Writer()
        writer.int(Int(truncatingIfNeeded: formatVersion))
        writer.uint64(key)
        writer.content(skills: skills, diagnostics: diagnostics)
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? Data(writer.bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    private struct FNV1a {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes {
                value ^= UInt64(byte)
                value = value &* 0x100_0000_01b3
            }
        }

        mutating func add(_ number: UInt64) {
            withUnsafeBytes(of: number.littleEndian) { add(bytes: $0) }
        }
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func uint64(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }

        mutating func int(_ value: Int) {
            // Zig-zag, so the odd negative number (a JSONPath index) stays short too.
            uint64(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63))))
        }

        mutating func string(_ value: String) {
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func optional(_ value: String?) {
            int(value == nil ? 0 : 1)
            if let value { string(value) }
        }

        mutating func content(skills: [Skill], diagnostics: [SkillDiagnostic]) {
            int(skills.count)
            for skill in skills {
                string(skill.id)
                string(skill.name)
                string(skill.file)
                int(skill.headers.count)
                for (key, value) in skill.headers.sorted(by: { $0.key < $1.key }) {
                    string(key)
                    string(value)
                }
                int(skill.intents.count)
                for intent in skill.intents { self.intent(intent) }
            }
            int(diagnostics.count)
            for diagnostic in diagnostics {
                string(diagnostic.file)
                int(diagnostic.line)
                int(diagnostic.severity == .error ? 0 : 1)
                string(diagnostic.message)
            }
        }

        mutating func intent(_ intent: SkillIntent) {
            int(intent.line)
            int(intent.prior ? 1 : 0)
            int(intent.compiledPatterns.count)
            for pattern in intent.compiledPatterns {
                string(pattern.source)
                int(pattern.tokens.count)
                for token in pattern.tokens {
                    switch token {
                    case .word(let word):
                        int(0)
                        string(word)
                    case .wildcard:
                        int(1)
                    }
                }
            }
            int(intent.examples.count)
            for example in intent.examples {
                string(example.query)
                optional(example.expect)
                int(example.line)
            }
            int(intent.answerLines.count)
            for line in intent.answerLines {
                int(line.count)
                for choice in line { self.choice(choice) }
            }
            int(intent.console == nil ? 0 : 1)
            if let console = intent.console {
                string(console.source.answer)
                string(console.source.body)
            }
            int(intent.script == nil ? 0 : 1)
            if let script = intent.script {
                string(script.source.answer)
                string(script.source.body)
            }
        }

        mutating func choice(_ choice: AnswerChoice) {
            switch choice {
            case .plain(let template):
                int(0)
                self.template(template)
            case .conditional(let variable, let equals, let then, let otherwise):
                int(1)
                string(variable)
                optional(equals)
                int(then.count)
                then.forEach { template($0) }
                int(otherwise.count)
                otherwise.forEach { template($0) }
            }
        }

        mutating func template(_ template: AnswerTemplate) {
            int(template.segments.count)
            for segment in template.segments {
                switch segment {
                case .text(let text):
                    int(0)
                    string(text)
                case .variable(let name):
                    int(1)
                    string(name)
                }
            }
        }
    }

    /// Reads what `Writer` wrote; every read is bounds-checked and a bad count or tag makes
    /// the whole copy unreadable (nil), never a crash.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var failed = false

        mutating func uint64() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while index < bytes.count, shift < 64 {
                let byte = bytes[index]
                index += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            failed = true
            return 0
        }

        mutating func int() -> Int {
            let raw = uint64()
            return Int(truncatingIfNeeded: Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
        }

        /// A count that cannot exceed the bytes left (each element takes at least one).
        mutating func count() -> Int {
            let value = int()
            guard value >= 0, value <= bytes.count - index else {
                failed = true
                return 0
            }
            return value
        }

        mutating func string() -> String {
            let length = count()
            guard !failed else { return "" }
            defer { index += length }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]), as: UTF8.self)
        }

        mutating func optional() -> String? {
            int() == 1 ? string() : nil
        }

        mutating func content() -> (skills: [Skill], diagnostics: [SkillDiagnostic])? {
            var skills: [Skill] = []
            let skillCount = count()
            skills.reserveCapacity(skillCount)
            for _ in 0..<skillCount {
                let id = string()
                let name = string()
                let file = string()
                var headers: [String: String] = [:]
                for _ in 0..<count() {
                    let key = string()
                    headers[key] = string()
                }
                var intents: [SkillIntent] = []
                let intentCount = count()
                // Grown step by step, a 58,000-intent skill's array was reallocated and freed
                // over and over, and each large free made malloc consolidate its free lists.
                intents.reserveCapacity(intentCount)
                for _ in 0..<intentCount {
                    guard let intent = intent(), !failed else { return nil }
                    intents.append(intent)
                }
                skills.append(Skill(id: id, name: name, file: file, headers: headers, intents: intents))
                if failed { return nil }
            }
            var diagnostics: [SkillDiagnostic] = []
            for _ in 0..<count() {
                let file = string()
                let line = int()
                let severity: SkillDiagnostic.Severity = int() == 0 ? .error : .warning
                diagnostics.append(SkillDiagnostic(file: file, line: line, severity: severity, message: string()))
            }
            guard !failed, index == bytes.count else { return nil }
            return (skills, diagnostics)
        }

        mutating func intent() -> SkillIntent? {
            let line = int()
            let prior = int() == 1
            var patterns: [SkillPattern] = []
            for _ in 0..<count() {
                let source = string()
                var tokens: [SkillPattern.Token] = []
                for _ in 0..<count() {
                    switch int() {
                    case 0: tokens.append(.word(string()))
                    case 1: tokens.append(.wildcard)
                    default: return nil
                    }
                }
                patterns.append(SkillPattern(source: source, tokens: tokens))
            }
            var examples: [SkillExample] = []
            for _ in 0..<count() {
                let query = string()
                let expect = optional()
                examples.append(SkillExample(query: query, expect: expect, line: int()))
            }
            var answerLines: [[AnswerChoice]] = []
            for _ in 0..<count() {
                var choices: [AnswerChoice] = []
                for _ in 0..<count() {
                    guard let choice = choice() else { return nil }
                    choices.append(choice)
                }
                answerLines.append(choices)
            }
            var console: ConsoleSpec?
            if int() == 1 {
                let answer = string()
                let body = string()
                guard !failed, let spec = try? ConsoleSpec(answer: answer, body: body) else { return nil }
                console = spec
            }
            var script: ScriptSpec?
            if int() == 1 {
                let answer = string()
                let body = string()
                guard !failed, let spec = try? ScriptSpec(answer: answer, source: body) else { return nil }
                script = spec
            }
            guard !failed else { return nil }
            return SkillIntent(
                patterns: patterns.map(\.source), examples: examples, line: line, compiledPatterns: patterns,
                answerLines: answerLines, console: console, script: script, prior: prior)
        }

        mutating func choice() -> AnswerChoice? {
            switch int() {
            case 0:
                return .plain(template())
            case 1:
                let variable = string()
                let equals = optional()
                var then: [AnswerTemplate] = []
                for _ in 0..<count() { then.append(template()) }
                var otherwise: [AnswerTemplate] = []
                for _ in 0..<count() { otherwise.append(template()) }
                return .conditional(variable: variable, equals: equals, then: then, otherwise: otherwise)
            default:
                return nil
            }
        }

        mutating func template() -> AnswerTemplate {
            var segments: [AnswerTemplate.Segment] = []
            for _ in 0..<count() {
                switch int() {
                case 0: segments.append(.text(string()))
                case 1: segments.append(.variable(string()))
                default: failed = true
                }
            }
            return AnswerTemplate(segments: segments)
        }
    }
}
