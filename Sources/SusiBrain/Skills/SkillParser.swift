import Foundation
import SusiModel

/// Reads the SUSI skill language into a `Skill`, as tolerantly as SUSI's own reader
/// (`SusiSkillFile` and `SusiSkill` in fossasia/susi_server).
///
/// Layout: `::key value` headers; `#` comment lines, invisible as in SUSI (they do not end a
/// block); blocks separated by blank lines; a line starting with `\` continues the one before
/// it, and a line ending with `\` is continued by the next. In a block the first line holds
/// the `|`-separated patterns; every other plain line is one answer line (its `|` parts are
/// alternatives, one picked at random) and all answer lines are given, in order, as SUSI does.
/// `!example:` and `!expect:` give a test; `!console:TEMPLATE` and `!javascript:TEMPLATE`
/// start a body that runs to a line `eol`; other `!` lines (`!image:`, `!description:`,
/// `!----`) are ignored.
///
/// A block that cannot be used (one line only, no pattern, bad console JSON, a lone `*` from
/// the skill-data tree, ...) is skipped with a warning naming its line. Only a block asking for
/// what no skill may do (a settings action on a key outside `SettingsAction.skillKeys`) rejects
/// the whole file, with an error; so does an unreadable file (see `Brain`).
enum SkillParser {
    struct Output {
        let skill: Skill?
        let diagnostics: [SkillDiagnostic]
    }

    /// What the reader accepts beyond the file itself.
    struct Options: Sendable {
        /// Skip lone-`*` catch-all patterns, as SUSI does for skills from the skill-data tree
        /// (only its own bundled skills may catch everything).
        var refuseCatchAll = false
    }

    private struct Line {
        let number: Int
        var text: String
    }

    /// A `!console:` or `!javascript:` body.
    private struct Bang {
        let kind: String
        let answer: String
        let line: Int
        var body: [String] = []
        var ended = false
    }

    private struct Block {
        var lines: [Line] = []
        var bang: Bang?
        var prior = false
    }

    static func parse(text: String, file: String, id: String, options: Options = Options()) -> Output {
        var diagnostics: [SkillDiagnostic] = []
        var headers: [String: String] = [:]
        var intents: [SkillIntent] = []
        var prior = false
        var block = Block()

        var refused = false

        func warn(_ line: Int, _ message: String) {
            diagnostics.append(SkillDiagnostic(file: file, line: line, severity: .warning, message: message))
        }

        func flush() {
            defer { block = Block(prior: prior) }
            guard !block.lines.isEmpty else { return }
            switch compile(block, options: options) {
            case .success(let intent): intents.append(intent)
            case .failure(let failure) where failure.refusesSkill:
                refused = true
                diagnostics.append(SkillDiagnostic(file: file, line: failure.line, severity: .error, message: failure.message))
            case .failure(let failure): warn(failure.line, failure.message)
            }
        }

        let lines = Self.lines(of: text)
        var index = 0
        block.prior = prior
        while index < lines.count {
            let number = index + 1
            let text = lines[index]
            index += 1
            let trimmed = text.trimmedBlanks
            if trimmed.isEmpty {
                flush()
            } else if trimmed.hasPrefix("::") {
                flush()
                let header = trimmed.dropFirst(2)
                let key = header.prefix { !$0.isWhitespace }.lowercased()
                guard !key.isEmpty else {
                    warn(number, "header line without a name; ignored")
                    continue
                }
                if key == "prior" { prior = true }
                if key == "minor" { prior = false }
                block.prior = prior
                headers[key] = header.dropFirst(key.count).trimmedBlanks
            } else if trimmed.hasPrefix("#") {
                continue
            } else if let bang = bangStart(trimmed, line: number) {
                // The body runs to "eol"; blank lines inside JSON are allowed. Without an
                // "eol", the body ends at the next blank line and the block is skipped.
                var body = bang
                var cursor = index
                while cursor < lines.count, lines[cursor].trimmedBlanks.lowercased() != "eol" {
                    cursor += 1
                }
                let end = cursor < lines.count ? cursor : (lines[index...].firstIndex { $0.isBlank } ?? lines.count)
                for bodyIndex in index..<end {
                    // As in SUSI, "!example:" and "!expect:" lines count even inside a body.
                    let bodyLine = lines[bodyIndex].trimmedBlanks
                    if let directive = Directive(bodyLine), ["example", "expect"].contains(directive.head) {
                        block.lines.append(Line(number: bodyIndex + 1, text: bodyLine))
                    } else {
                        body.body.append(lines[bodyIndex])
                    }
                }
                body.ended = cursor < lines.count
                index = cursor < lines.count ? cursor + 1 : end
                if block.bang != nil {
                    warn(number, "a second !\(bang.kind): body in one intent; the first is used")
                } else {
                    block.bang = body
                }
                // Lines after "eol" still belong to the block (examples usually follow it).
            } else if trimmed.hasPrefix("\\"), var last = block.lines.popLast() {
                last.text += " " + trimmed.dropFirst().trimmedBlanks
                block.lines.append(last)
            } else if var last = block.lines.last, last.text.hasSuffix("\\") {
                block.lines.removeLast()
                last.text = last.text.dropLast().trimmedBlanks + " " + trimmed
                block.lines.append(last)
            } else {
                block.lines.append(Line(number: number, text: trimmed))
            }
        }
        flush()

        if refused {
            return Output(skill: nil, diagnostics: diagnostics)
        }
        if intents.isEmpty {
            warn(1, "no intents in this file")
        }
        let name = headers["name"].flatMap { $0.isEmpty ? nil : $0 } ?? id
        let skill = Skill(id: id, name: name, file: file, headers: headers, intents: intents)
        return Output(skill: skill, diagnostics: diagnostics)
    }

    /// The start of a multi-line body (`!console:` or `!javascript:`), else nil.
    /// The lines of `text`, each ended by "\n", "\r\n" or a bare "\r" (old Mac files, and
    /// `%0d` in texts from SUSI clients); the text after the last line end is the last line.
    /// Split on the bytes, not on Characters: grapheme breaking was a sixth of the time to
    /// read a large file.
    static func lines(of text: String) -> [String] {
        let newline = UInt8(ascii: "\n")
        let carriageReturn = UInt8(ascii: "\r")
        let bytes = Array(text.utf8)
        var lines: [String] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == newline || byte == carriageReturn else {
                index += 1
                continue
            }
            lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
            let crlf = byte == carriageReturn && index + 1 < bytes.count && bytes[index + 1] == newline
            index += crlf ? 2 : 1
            start = index
        }
        lines.append(String(decoding: bytes[start...], as: UTF8.self))
        return lines
    }

    private static func bangStart(_ trimmed: String, line: Int) -> Bang? {
        guard let directive = Directive(trimmed), ["console", "javascript"].contains(directive.head) else {
            return nil
        }
        return Bang(kind: directive.head, answer: directive.tail, line: line)
    }

    /// A `!head:tail` line. The first colon separates them, so a `:` inside the text (a time,
    /// a URL) stays in the tail; SUSI splits at the last colon and breaks on those.
    private struct Directive {
        let head: String
        let tail: String

        init?(_ trimmed: String) {
            guard trimmed.hasPrefix("!"), let colon = trimmed.firstIndex(of: ":") else { return nil }
            let name = trimmed[trimmed.index(after: trimmed.startIndex)..<colon]
                .trimmedBlanks.lowercased()
            head = String(name.prefix { !$0.isWhitespace })
            tail = trimmed[trimmed.index(after: colon)...].trimmedBlanks
        }
    }

    private struct BlockFailure: Error {
        let line: Int
        let message: String
        var refusesSkill = false
    }

    private static func compile(_ block: Block, options: Options) -> Result<SkillIntent, BlockFailure> {
        // Rulers and notes ("!-----", "!image:") before the pattern belong to no intent.
        let lines = Array(
            block.lines.drop { line in
                line.text.hasPrefix("!") && !["example", "expect"].contains(Directive(line.text)?.head ?? "")
            })
        guard let patternLine = lines.first else {
            let line = block.lines.first?.number ?? block.bang?.line ?? 0
            return .failure(BlockFailure(line: line, message: "block has directives but no pattern line; skipped"))
        }
        if patternLine.text.hasPrefix("!") {
            return .failure(
                BlockFailure(line: patternLine.number, message: "block starts with a directive, not a pattern; skipped"))
        }
        if lines.count == 1 && block.bang == nil {
            return .failure(
                BlockFailure(line: patternLine.number, message: "one-line block \"\(patternLine.text)\" has no answer; skipped"))
        }
        var compiled: [SkillPattern] = []
        for alternative in patternLine.text.split(separator: "|") {
            guard let pattern = SkillPattern(String(alternative)) else { continue }
            if options.refuseCatchAll && pattern.isCatchAll { continue }
            compiled.append(pattern)
        }
        guard !compiled.isEmpty else {
            let reason =
                options.refuseCatchAll && patternLine.text.contains("*")
                ? "a lone * catch-all is refused in skill data, as SUSI does" : "no usable pattern"
            return .failure(BlockFailure(line: patternLine.number, message: "\(reason); block skipped"))
        }

        var answerLines: [[AnswerChoice]] = []
        var examples: [SkillExample] = []
        var pendingExpect: String?
        for line in lines.dropFirst() {
            let text = line.text
            if text.hasPrefix("!") {
                guard let directive = Directive(text) else { continue }  // "!----" rulers
                switch directive.head {
                case "example":
                    // "!example :" with nothing after it is no example, as in SUSI.
                    guard !directive.tail.isEmpty else { continue }
                    examples.append(SkillExample(query: directive.tail, expect: pendingExpect, line: line.number))
                    pendingExpect = nil
                case "expect":
                    // "!--" starts an author's note ("... equals 5 !--https://developer..."); SUSI
                    // never sees such an expect (its last-colon split makes it another directive).
                    var tail = directive.tail
                    if let note = tail.range(of: "!--") { tail = tail[..<note.lowerBound].trimmedBlanks }
                    guard !tail.isEmpty else { continue }
                    if let last = examples.indices.last, examples[last].expect == nil {
                        let example = examples[last]
                        examples[last] = SkillExample(query: example.query, expect: tail, line: example.line)
                    } else {
                        pendingExpect = tail
                    }
                default:
                    continue  // !image:, !description:, !label:, ... carry nothing we answer with
                }
            } else {
                switch AnswerChoice.parseLine(text) {
                case .success(let choices) where !choices.isEmpty: answerLines.append(choices)
                case .success: continue
                case .failure(let failure):
                    return .failure(BlockFailure(line: line.number, message: "\(failure.message); block skipped"))
                }
            }
        }

        var console: ConsoleSpec?
        var script: ScriptSpec?
        if let bang = block.bang {
            guard bang.ended else {
                return .failure(
                    BlockFailure(line: bang.line, message: "!\(bang.kind): body is not ended by a line \"eol\"; block skipped"))
            }
            let body = bang.body.joined(separator: "\n")
            do {
                if bang.kind == "javascript" {
                    script = try ScriptSpec(answer: bang.answer, source: body)
                } else {
                    console = try ConsoleSpec(answer: bang.answer, body: body)
                }
            } catch {
                guard !error.refusesSkill else {
                    return .failure(BlockFailure(line: bang.line, message: error.message, refusesSkill: true))
                }
                return .failure(BlockFailure(line: bang.line, message: "\(error.message); block skipped"))
            }
        }
        if answerLines.isEmpty && console == nil && script == nil {
            return .failure(
                BlockFailure(line: patternLine.number, message: "intent \"\(patternLine.text)\" has no answer; skipped"))
        }
        let intent = SkillIntent(
            patterns: compiled.map(\.source),
            examples: examples,
            line: patternLine.number,
            compiledPatterns: compiled,
            answerLines: answerLines,
            console: console,
            script: script,
            prior: block.prior)
        return .success(intent)
    }
}
