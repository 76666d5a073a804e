/// The apps' skill features by voice, about the skill that gave the last answer:
/// `skill_rate` (`stars`, 1-5), `skill_report`, `skill_reviews` and `skill_ratings`.
public struct SkillFeedbackAction: Sendable, Equatable {
    /// What is asked; the raw value is the action's `type`.
    public enum Kind: String, Sendable, CaseIterable {
        case rate = "skill_rate"
        case report = "skill_report"
        case reviews = "skill_reviews"
        case ratings = "skill_ratings"
    }

    /// What is asked.
    public var kind: Kind
    /// The stars given, for `rate`; nil when none were said.
    public var stars: Int?

    /// Creates a skill feedback action.
    public init(_ kind: Kind, stars: Int? = nil) {
        self.kind = kind
        self.stars = stars
    }

    /// The fields as a JSON object, without `type`.
    public var object: [String: JSONValue] {
        stars.map { ["stars": .number(Double($0))] } ?? [:]
    }
}
