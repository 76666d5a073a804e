/// A JSGF grammar that hears exactly a list of commands, for a decoding that may only choose
/// among them (the Home Assistant's commands, whose names the skills' n-gram model mixes with
/// everything else).
public enum CommandGrammar {
    /// The grammar of `sentences`, each in the recogniser's words (`SkillSentences.words`:
    /// digits spelled out, punctuation dropped); nil when none has a word.
    public static func jsgf(_ sentences: [String]) -> String? {
        let alternatives = Set(sentences.map { SkillSentences.words(of: $0).joined(separator: " ") })
            .filter { !$0.isEmpty }.sorted()
        guard !alternatives.isEmpty else { return nil }
        return "#JSGF V1.0;\ngrammar commands;\npublic <command> = " + alternatives.joined(separator: "\n    | ") + " ;\n"
    }
}
