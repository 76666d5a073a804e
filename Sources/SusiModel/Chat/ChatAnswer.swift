/// One entry of a reply's `answers`: data rows, the actions to perform, and the skill(s)
/// that produced them.
public struct ChatAnswer: Sendable, Equatable, Codable {
    /// Data rows, referred to by `table`, `rss` and `piechart` actions. Rows that arrive as
    /// plain values rather than objects are wrapped as `{"object": value}`.
    public var data: [[String: JSONValue]]
    /// Row count and other server metadata.
    public var metadata: ChatMetadata
    /// The actions, to be performed in order. Malformed entries (not objects) are dropped.
    public var actions: [ChatAction]
    /// Paths or names of the skills that answered; the first is the deciding one.
    public var skills: [String]
    /// The server's `persona` member, kept as received when present.
    public var persona: JSONValue?

    /// Creates an answer; `metadata.count` defaults to the number of rows.
    public init(
        data: [[String: JSONValue]] = [],
        metadata: ChatMetadata? = nil,
        actions: [ChatAction],
        skills: [String] = [],
        persona: JSONValue? = nil
    ) {
        self.data = data
        self.metadata = metadata ?? ChatMetadata(count: data.count)
        self.actions = actions
        self.skills = skills
        self.persona = persona
    }

    private enum CodingKeys: String, CodingKey {
        case data, metadata, actions, skills, persona
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let rows = (try? container.decodeIfPresent([JSONValue].self, forKey: .data)) ?? []
        data = rows.map { $0.objectValue ?? ["object": $0] }
        metadata =
            (try? container.decodeIfPresent(ChatMetadata.self, forKey: .metadata))
            ?? ChatMetadata(count: data.count)
        let lossy = (try? container.decodeIfPresent([LossyAction].self, forKey: .actions)) ?? []
        actions = lossy.compactMap(\.action)
        let skillValues = (try? container.decodeIfPresent([JSONValue].self, forKey: .skills)) ?? []
        skills = skillValues.compactMap(\.stringValue)
        persona = try? container.decodeIfPresent(JSONValue.self, forKey: .persona)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(metadata, forKey: .metadata)
        try container.encode(actions, forKey: .actions)
        try container.encode(skills, forKey: .skills)
        try container.encodeIfPresent(persona, forKey: .persona)
    }

    /// The text spoken now: the expressions of the unplanned `answer` actions, joined by spaces.
    public var spokenText: String {
        actions.compactMap { action -> String? in
            guard case .answer(let answer) = action, !answer.isPlanned else { return nil }
            return answer.expression
        }.joined(separator: " ")
    }
}

/// Decodes one action, or nothing when the entry is not an action object, so one bad entry
/// does not cost the whole list.
private struct LossyAction: Decodable {
    let action: ChatAction?

    init(from decoder: any Decoder) throws {
        action = try? ChatAction(from: decoder)
    }
}
