/// An `rss` action: the data rows are feed items; the fields name the row keys to use.
public struct RSSAction: ChatActionPayload {
    /// The row key holding an item's title.
    public var title: String
    /// The row key holding an item's description.
    public var description: String
    /// The row key holding an item's link.
    public var link: String
    /// How many items to present; -1 (the default) means all.
    public var count: Int

    /// Creates an RSS action.
    public init(
        title: String = "title", description: String = "description", link: String = "link",
        count: Int = -1
    ) {
        self.title = title
        self.description = description
        self.link = link
        self.count = count
    }

    public init(object: [String: JSONValue]) {
        title = object.lenientString("title") ?? "title"
        description = object.lenientString("description") ?? "description"
        link = object.lenientString("link") ?? "link"
        count = object.lenientInt("count") ?? -1
    }

    public var object: [String: JSONValue] {
        [
            "title": .string(title), "description": .string(description), "link": .string(link),
            "count": .number(Double(count)),
        ]
    }
}
