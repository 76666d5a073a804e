/// One intent (a block of a skill file): patterns, answers, examples, maybe a console block.
public struct SkillIntent: Sendable {
    /// The pattern alternatives as written (`what time is it|* the time *`).
    public let patterns: [String]
    /// The `!example`/`!expect` pairs.
    public let examples: [SkillExample]
    /// The 1-based line of the pattern line in its file.
    public let line: Int

    let compiledPatterns: [SkillPattern]
    /// One entry per answer line, all given in order; each holds that line's alternatives.
    let answerLines: [[AnswerChoice]]
    let console: ConsoleSpec?
    let script: ScriptSpec?
    /// Under a `::prior` header: ranked above every intent without it, as in SUSI.
    let prior: Bool

    /// SUSI's intent size: the length of its shortest pattern (see `MatchRank`).
    var susiSize: Int { compiledPatterns.map(\.susiSize).min() ?? 0 }

    /// SUSI's inference subscore: javascript 4, a memory condition 3, a console 1, else 0.
    var inferenceScore: Int {
        if script != nil { return 4 }
        let conditional = answerLines.contains { $0.contains { if case .conditional = $0 { true } else { false } } }
        if conditional { return 3 }
        return console != nil ? 1 : 0
    }

    /// Whether answering needs the network (a console `url`).
    public var fetchesData: Bool { console?.url != nil }

    /// The answer lines in the order they are given: the plain lines, then the line written
    /// after `!console:` or `!javascript:`.
    var spokenLines: [[AnswerChoice]] {
        let bodyAnswer = console?.answer ?? script?.answer ?? []
        return bodyAnswer.isEmpty ? answerLines : answerLines + [bodyAnswer]
    }
}
