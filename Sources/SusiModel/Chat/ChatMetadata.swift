/// The `metadata` of a SUSI answer: how many data rows there are, plus whatever else the
/// server sent (kept so a reply can be passed on unchanged).
public struct ChatMetadata: Sendable, Equatable, Codable {
    /// Number of data rows; defaults to 0 when missing.
    public var count: Int
    /// Other members, as received.
    public var extra: [String: JSONValue]

    /// Creates metadata.
    public init(count: Int, extra: [String: JSONValue] = [:]) {
        self.count = count
        self.extra = extra
    }

    public init(from decoder: any Decoder) throws {
        let members = try decoder.singleValueContainer().decode(JSONValue.self).objectValue ?? [:]
        count = members.lenientInt("count") ?? 0
        extra = members.filter { $0.key != "count" }
    }

    public func encode(to encoder: any Encoder) throws {
        var members = extra
        members["count"] = .number(Double(count))
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(members))
    }
}
