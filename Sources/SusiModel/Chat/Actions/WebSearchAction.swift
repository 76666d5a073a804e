/// A `websearch` action: the client searches the web for `query` and presents results.
public struct WebSearchAction: ChatActionPayload {
    /// The words to search for.
    public var query: String
    /// How many results to present; -1 (the default) means as many as the client likes.
    public var count: Int

    /// Creates a web search action.
    public init(query: String, count: Int = -1) {
        self.query = query
        self.count = count
    }

    public init(object: [String: JSONValue]) {
        query = object.lenientString("query") ?? ""
        count = object.lenientInt("count") ?? -1
    }

    public var object: [String: JSONValue] {
        ["query": .string(query), "count": .number(Double(count))]
    }
}
