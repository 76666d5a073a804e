/// The body of a `!javascript:` block: the script and the answer line that shows its result
/// as `$!$`.
///
/// No JavaScript engine is linked into the built-in brain yet, so reading one fails and the
/// reader skips the intent with a warning (see `SkillParser`).
struct ScriptSpec: Sendable {
    /// The answer line written after `!javascript:`.
    let answer: [AnswerChoice]
    /// The script text between the directive and `eol`.
    let source: String

    init(answer: String, source: String) throws(SkillParseFailure) {
        throw SkillParseFailure("!javascript is not supported by the built-in brain; intent skipped")
    }
}
