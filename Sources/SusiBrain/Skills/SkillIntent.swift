/// One intent (a block of a skill file): patterns, answers, examples, maybe a console block.
public struct SkillIntent: Sendable {
    /// The pattern alternatives as written (`what time is it|* the time *`).
    public let patterns: [String]
    /// The `!example`/`!expect` pairs.
    public let examples: [SkillExample]
    /// The 1-based line of the pattern line in its file.
    public let line: Int

    let compiledPatterns: [SkillPattern]
    let answers: [AnswerChoice]
    let console: ConsoleSpec?
}
