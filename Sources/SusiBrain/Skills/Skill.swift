/// One skill file: its headers and intents.
public struct Skill: Sendable {
    /// The file name without `.txt`; reported in `answers[0].skills[0]`.
    public let id: String
    /// The `::name` header, else the id.
    public let name: String
    /// The path the skill was read from (or the name given for an in-memory text).
    public let file: String
    /// All `::key value` headers (`description`, `author`, ...), keys lower-cased.
    public let headers: [String: String]
    /// The intents, in file order.
    public let intents: [SkillIntent]

    /// The `::description` header, or empty.
    public var description: String { headers["description"] ?? "" }

    /// The number of `!example` lines over all intents.
    public var exampleCount: Int { intents.reduce(0) { $0 + $1.examples.count } }
}
