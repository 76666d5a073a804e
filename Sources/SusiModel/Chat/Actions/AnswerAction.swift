/// An `answer` action: text to speak, possibly planned for later.
public struct AnswerAction: ChatActionPayload {
    /// The text to say.
    public var expression: String
    /// ISO 639-1 language of the text; SUSI sends it with every answer, default `en`.
    public var language: String
    /// Milliseconds to wait before saying it (a timer); `nil` means now.
    public var planDelay: Int?
    /// When to say it, as the server's date string; `nil` means now.
    public var planDate: String?

    /// Creates an answer; without a plan it is spoken immediately.
    public init(
        expression: String, language: String = "en", planDelay: Int? = nil, planDate: String? = nil
    ) {
        self.expression = expression
        self.language = language
        self.planDelay = planDelay
        self.planDate = planDate
    }

    public init(object: [String: JSONValue]) {
        expression = object.lenientString("expression") ?? ""
        language = object.lenientString("language") ?? "en"
        planDelay = object.lenientInt("plan_delay")
        planDate = object.lenientString("plan_date")
    }

    public var object: [String: JSONValue] {
        var result: [String: JSONValue] = [
            "expression": .string(expression), "language": .string(language),
        ]
        if let planDelay { result["plan_delay"] = .number(Double(planDelay)) }
        if let planDate { result["plan_date"] = .string(planDate) }
        return result
    }

    /// Whether this answer is meant for later rather than now.
    public var isPlanned: Bool { planDelay != nil || planDate != nil }
}
