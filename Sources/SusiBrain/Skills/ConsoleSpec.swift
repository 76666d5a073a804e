import Foundation
import SusiModel

/// The compiled body of a `!console:` block.
///
/// SUSI's own keys: `url` (fetched, captures percent-encoded into it) with `path` (where the
/// data rows are in the fetched JSON), and `actions` (action objects to add after the
/// answer). This speaker adds `function` with `argument`: a built-in function computes the data
/// row instead of a URL (see `BuiltinFunctions`).
struct ConsoleSpec: Sendable {
    /// The answer written after `!console:` (alternatives and conditionals allowed, as on an
    /// answer line); empty means no spoken answer.
    let answer: [AnswerChoice]
    let url: AnswerTemplate?
    let path: JSONPath
    let function: String?
    let argument: AnswerTemplate
    /// SUSI's inline `data` rows, used when there is no `url`.
    let data: [JSONValue]?
    /// The `actions` array as JSON text with placeholders, filled and decoded per answer.
    let actionsTemplate: AnswerTemplate?

    /// Compiles a console body; the failure names what is wrong.
    /// The text it was compiled from, kept so `SkillCache` can store and recompile it.
    let source: (answer: String, body: String)

    init(answer: String, body: String) throws(SkillParseFailure) {
        source = (answer, body)
        let answerText = answer.trimmedBlanks
        if answerText.isEmpty {
            self.answer = []
        } else {
            switch AnswerChoice.parseLine(answerText) {
            case .success(let choices): self.answer = choices
            case .failure(let failure): throw failure
            }
        }
        guard let json = LenientJSON.parse(body) else {
            throw SkillParseFailure("console body is not valid JSON")
        }
        guard let members = json.objectValue else {
            throw SkillParseFailure("console body must be a JSON object")
        }
        let urlText = members["url"]?.stringValue
        let functionName = members["function"]?.stringValue
        if urlText != nil && functionName != nil {
            throw SkillParseFailure("console body may have \"url\" or \"function\", not both")
        }
        if let functionName, !BuiltinFunctions.names.contains(functionName) {
            let known = BuiltinFunctions.names.sorted().joined(separator: ", ")
            throw SkillParseFailure("unknown function \"\(functionName)\" (known: \(known))")
        }
        let pathText = members["path"]?.stringValue ?? "$"
        guard let path = JSONPath(pathText) else {
            throw SkillParseFailure(
                "console path \"\(pathText)\" is not a supported JSONPath ($, $.a.b, $.a[0], $[0], $.[0].a)")
        }
        var actionsTemplate: AnswerTemplate?
        if let actions = members["actions"] {
            // As SUSI does, an action without a "type" is dropped, not the whole intent.
            guard let list = actions.arrayValue?.filter({ $0["type"]?.stringValue != nil }) else {
                throw SkillParseFailure("console \"actions\" must be a list of objects with a \"type\"")
            }
            try Self.checkSettings(list)
            if !list.isEmpty { actionsTemplate = AnswerTemplate(JSONValue.array(list).jsonText) }
        }
        // SUSI's inline "data": rows given in the skill itself instead of fetched.
        let inline = members["data"]?.arrayValue
        if urlText == nil && functionName == nil && actionsTemplate == nil && inline == nil {
            throw SkillParseFailure("console body needs \"url\", \"function\", \"data\" or \"actions\"")
        }
        data = inline
        url = urlText.map(AnswerTemplate.init)
        self.path = path
        function = functionName
        argument = AnswerTemplate(members["argument"]?.stringValue ?? "$0$")
        self.actionsTemplate = actionsTemplate
    }

    /// Refuses a settings action whose key is not, literally, one a skill may change: a
    /// skill never chooses programs, hooks, paths or the server, nor lets the query choose
    /// the key (`"key":"$1$"`).
    private static func checkSettings(_ actions: [JSONValue]) throws(SkillParseFailure) {
        for action in actions where action["type"]?.stringValue == "settings" {
            let key = action["key"]?.stringValue ?? ""
            guard SettingsAction.skillKeys.contains(key) else {
                let allowed = SettingsAction.skillKeys.sorted().joined(separator: ", ")
                throw SkillParseFailure(
                    "a settings action may not change \"\(key)\" (a skill may change only \(allowed)); skill refused",
                    refusesSkill: true)
            }
        }
    }
}
