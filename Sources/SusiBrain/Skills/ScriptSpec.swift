/// The body of a `!javascript:` block: the script and the answer line that shows its result
/// as `$!$`, as SUSI's Nashorn inference does.
///
/// Captures (`$1$`) and other placeholders in the script are filled in before it runs, as
/// SUSI does; a `ScriptRunner` runs it (see `Brain`). Without a runner the intent cannot
/// answer and the next candidate is tried.
struct ScriptSpec: Sendable {
    /// The answer line written after `!javascript:`.
    let answer: [AnswerChoice]
    /// The script text between the directive and `eol`, with placeholders.
    let script: AnswerTemplate
    /// The text it was read from, for `SkillCache`.
    let source: (answer: String, body: String)

    init(answer: String, source: String) throws(SkillParseFailure) {
        self.source = (answer, source)
        let answerText = answer.trimmedBlanks
        if answerText.isEmpty {
            self.answer = [.plain(AnswerTemplate("$!$"))]
        } else {
            switch AnswerChoice.parseLine(answerText) {
            case .success(let choices): self.answer = choices
            case .failure(let failure): throw failure
            }
        }
        guard !source.isBlank else { throw SkillParseFailure("!javascript: body is empty") }
        script = AnswerTemplate(source)
    }
}
