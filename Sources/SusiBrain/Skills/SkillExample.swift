/// An `!example:` query of an intent, with the `!expect:` text its answer must contain.
public struct SkillExample: Sendable, Equatable {
    /// The sample query.
    public let query: String
    /// Text the answer must contain (case-insensitive); `nil` when only the intent is checked.
    public let expect: String?
    /// The 1-based line of the `!example:` in its file.
    public let line: Int
}
