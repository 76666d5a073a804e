import Foundation
import SusiModel

/// One way an intent may answer: a plain template, or SUSI's conditional form
/// `?$name$:THEN:ELSE` (or `?$name$=value:THEN:ELSE`), each branch holding `|` alternatives.
enum AnswerChoice: Sendable, Equatable {
    case plain(AnswerTemplate)
    case conditional(
        variable: String, equals: String?, then: [AnswerTemplate], otherwise: [AnswerTemplate])

    /// Parses one answer line into its alternatives (a conditional line is one alternative).
    static func parseLine(_ line: String) -> Result<[AnswerChoice], SkillParseFailure> {
        // As in SUSI, a "?" line is a condition only when it has a ":"; empty alternatives
        // (a trailing "|" or "||") are dropped.
        guard line.hasPrefix("?"), line.contains(":") else {
            return .success(
                line.split(separator: "|").compactMap {
                    let text = $0.trimmedBlanks
                    return text.isEmpty ? nil : .plain(AnswerTemplate(text))
                })
        }
        // ?$name$[=value]:THEN[:ELSE]
        let body = line.dropFirst()
        guard body.hasPrefix("$"), let (name, close) = AnswerTemplate.name(in: body.dropFirst()) else {
            return .failure(SkillParseFailure("conditional answer must start with ?$name$:"))
        }
        var rest = body[body.index(after: close)...]
        var equals: String?
        if rest.hasPrefix("=") {
            guard let colon = rest.firstIndex(of: ":") else {
                return .failure(SkillParseFailure("conditional answer needs ':' after the condition"))
            }
            equals = String(rest[rest.index(after: rest.startIndex)..<colon]).trimmingCharacters(
                in: .whitespaces)
            rest = rest[colon...]
        }
        guard rest.hasPrefix(":") else {
            return .failure(SkillParseFailure("conditional answer needs ':' after the condition"))
        }
        rest = rest.dropFirst()
        let thenText: Substring
        let elseText: Substring?
        if let colon = rest.firstIndex(of: ":") {
            thenText = rest[..<colon]
            elseText = rest[rest.index(after: colon)...]
        } else {
            thenText = rest
            elseText = nil
        }
        func alternatives(_ text: Substring?) -> [AnswerTemplate] {
            guard let text, !text.isBlank else { return [] }
            return text.split(separator: "|").compactMap {
                let alternative = $0.trimmedBlanks
                return alternative.isEmpty ? nil : AnswerTemplate(alternative)
            }
        }
        let thenAlternatives = alternatives(thenText)
        guard !thenAlternatives.isEmpty else {
            return .failure(SkillParseFailure("conditional answer has an empty THEN branch"))
        }
        return .success([
            .conditional(
                variable: name, equals: equals, then: thenAlternatives, otherwise: alternatives(elseText))
        ])
    }
}

/// A problem found while reading a skill file, before the file and line are attached.
struct SkillParseFailure: Error, Equatable {
    let message: String
    /// The block asks for what no skill may do (a settings action on a key outside
    /// `SettingsAction.skillKeys`): the whole file is refused, not only the block.
    let refusesSkill: Bool

    init(_ message: String, refusesSkill: Bool = false) {
        self.message = message
        self.refusesSkill = refusesSkill
    }
}
