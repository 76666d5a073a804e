import Foundation

/// Reads the SUSI skill language into a `Skill`.
///
/// Layout: `::key value` headers; `#` comment lines; blocks separated by blank lines (as in
/// SUSI, a comment or header line also ends a block). In a block the first line not starting
/// with `!` holds the `|`-separated patterns, the other plain lines are answers (each split
/// into `|` alternatives, one picked at random), `!example:` and `!expect:` give a test, and
/// `!console:TEMPLATE` starts a JSON body that runs to a line `eol`.
///
/// Errors (bad JSON, a console block without `eol`, an intent without answers, ...) make the
/// whole file rejected; unsupported directives such as `!javascript:` skip only their intent
/// with a warning.
enum SkillParser {
    struct Output {
        let skill: Skill?
        let diagnostics: [SkillDiagnostic]
    }

    private struct Line {
        let number: Int
        let text: String
    }

    private struct Block {
        var lines: [Line] = []
        var consoleStart: Int?
        var consoleAnswer = ""
        var consoleBody: [String] = []
    }

    static func parse(text: String, file: String, id: String) -> Output {
        var diagnostics: [SkillDiagnostic] = []
        var headers: [String: String] = [:]
        var intents: [SkillIntent] = []
        var block = Block()
        var inConsole = false
        var failed = false

        func report(_ line: Int, _ severity: SkillDiagnostic.Severity, _ message: String) {
            diagnostics.append(
                SkillDiagnostic(file: file, line: line, severity: severity, message: message))
            if severity == .error { failed = true }
        }

        func flush() {
            defer { block = Block() }
            guard !block.lines.isEmpty else { return }
            switch compile(block) {
            case .success(let intent):
                intents.append(intent)
            case .failure(let failure):
                report(failure.line, failure.severity, failure.message)
            }
        }

        // "\r\n" is one Character in Swift, so split on newline characters, not on "\n".
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (offset, rawLine) in lines.enumerated() {
            let number = offset + 1
            let text = String(rawLine)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if inConsole {
                if trimmed == "eol" {
                    inConsole = false
                } else {
                    block.consoleBody.append(text)
                }
                continue
            }
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                flush()
            } else if trimmed.hasPrefix("::") {
                flush()
                let header = trimmed.dropFirst(2)
                let key = header.prefix { !$0.isWhitespace }
                guard !key.isEmpty else {
                    report(number, .error, "header line without a name")
                    continue
                }
                headers[key.lowercased()] = header.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            } else if trimmed.hasPrefix("!console:") {
                if block.consoleStart != nil {
                    report(number, .error, "a second !console: block in one intent")
                }
                block.consoleStart = number
                block.consoleAnswer = String(trimmed.dropFirst("!console:".count))
                block.lines.append(Line(number: number, text: trimmed))
                inConsole = true
            } else {
                block.lines.append(Line(number: number, text: trimmed))
            }
        }
        if inConsole, let start = block.consoleStart {
            report(start, .error, "!console: block is not ended by a line \"eol\"")
            block = Block()
        }
        flush()

        guard !failed else { return Output(skill: nil, diagnostics: diagnostics) }
        if intents.isEmpty {
            report(1, .warning, "no intents in this file")
        }
        let name = headers["name"].flatMap { $0.isEmpty ? nil : $0 } ?? id
        let skill = Skill(id: id, name: name, file: file, headers: headers, intents: intents)
        return Output(skill: skill, diagnostics: diagnostics)
    }

    private struct BlockFailure: Error {
        let line: Int
        let severity: SkillDiagnostic.Severity
        let message: String
    }

    private static func compile(_ block: Block) -> Result<SkillIntent, BlockFailure> {
        var patternLine: Line?
        var answers: [AnswerChoice] = []
        var examples: [(query: String, expect: String?, line: Int)] = []
        for line in block.lines {
            let text = line.text
            if text.hasPrefix("!") {
                if text.hasPrefix("!example:") {
                    let query = text.dropFirst("!example:".count).trimmingCharacters(in: .whitespaces)
                    guard !query.isEmpty else {
                        return .failure(
                            BlockFailure(line: line.number, severity: .error, message: "empty !example:"))
                    }
                    examples.append((query, nil, line.number))
                } else if text.hasPrefix("!expect:") {
                    guard let last = examples.indices.last, examples[last].expect == nil else {
                        return .failure(
                            BlockFailure(
                                line: line.number, severity: .error,
                                message: "!expect: without an !example: before it"))
                    }
                    examples[last].expect = text.dropFirst("!expect:".count).trimmingCharacters(
                        in: .whitespaces)
                } else if text.hasPrefix("!console:") {
                    continue
                } else {
                    let directive = text.prefix { $0 != ":" }
                    return .failure(
                        BlockFailure(
                            line: line.number, severity: .warning,
                            message: "\(directive) is not supported by the built-in brain; intent skipped"))
                }
            } else if patternLine == nil {
                patternLine = line
            } else {
                switch AnswerChoice.parseLine(text) {
                case .success(let choices): answers += choices
                case .failure(let failure):
                    return .failure(
                        BlockFailure(line: line.number, severity: .error, message: failure.message))
                }
            }
        }
        guard let patternLine else {
            let line = block.lines.first?.number ?? 0
            return .failure(
                BlockFailure(line: line, severity: .error, message: "block has no pattern line"))
        }
        var compiled: [SkillPattern] = []
        let alternatives = patternLine.text.split(separator: "|", omittingEmptySubsequences: false)
        for alternative in alternatives {
            guard let pattern = SkillPattern(String(alternative)) else {
                return .failure(
                    BlockFailure(
                        line: patternLine.number, severity: .error,
                        message: "empty pattern alternative in \"\(patternLine.text)\""))
            }
            compiled.append(pattern)
        }
        var console: ConsoleSpec?
        if let start = block.consoleStart {
            guard answers.isEmpty else {
                return .failure(
                    BlockFailure(
                        line: start, severity: .error,
                        message: "an intent has either answer lines or a !console: block, not both"))
            }
            do {
                console = try ConsoleSpec(
                    answer: block.consoleAnswer, body: block.consoleBody.joined(separator: "\n"))
            } catch {
                return .failure(BlockFailure(line: start, severity: .error, message: error.message))
            }
        } else if answers.isEmpty {
            return .failure(
                BlockFailure(
                    line: patternLine.number, severity: .error,
                    message: "intent \"\(patternLine.text)\" has no answer"))
        }
        let intent = SkillIntent(
            patterns: compiled.map(\.source),
            examples: examples.map { SkillExample(query: $0.query, expect: $0.expect, line: $0.line) },
            line: patternLine.number,
            compiledPatterns: compiled,
            answers: answers,
            console: console)
        return .success(intent)
    }
}
