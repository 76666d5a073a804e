/// Names one skill of the SUSI skill CMS: model, group, language and skill name.
public struct SkillReference: Sendable, Equatable, CustomStringConvertible {
    /// The model, `general` unless told otherwise.
    public var model: String
    /// The group (category), e.g. `Knowledge`.
    public var group: String
    /// ISO 639-1 language, e.g. `en`.
    public var language: String
    /// The skill's name as the CMS knows it (the file name without `.txt`).
    public var name: String

    /// Creates a reference.
    public init(model: String = "general", group: String, language: String = "en", name: String) {
        self.model = model
        self.group = group
        self.language = language
        self.name = name
    }

    /// The skill that answered, from a reply's `answers[0].skills[0]`, which the server sends
    /// as a path ending in `MODEL/GROUP/LANGUAGE/NAME.txt` (`/susi_skills/models/general/
    /// Knowledge/en/wikipedia.txt`). Nil for built-in skills, which are named by id only.
    public init?(answerSkill path: String) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 4, let last = parts.last, !last.isEmpty else { return nil }
        let name = last.hasSuffix(".txt") ? String(last.dropLast(4)) : last
        let model = parts[parts.count - 4]
        let group = parts[parts.count - 3]
        let language = parts[parts.count - 2]
        guard !name.isEmpty, !model.isEmpty, !group.isEmpty, language.count <= 3 else { return nil }
        self.init(model: model, group: group, language: language, name: name)
    }

    /// `name` plus where it lives: `wikipedia (general/Knowledge/en)`.
    public var description: String { "\(name) (\(model)/\(group)/\(language))" }

    /// The query parameters every CMS endpoint takes.
    var queryItems: [(name: String, value: String)] {
        [("model", model), ("group", group), ("language", language), ("skill", name)]
    }
}
