/// An `anchor` action: a link with its text; a speaker says the text only.
public struct AnchorAction: ChatActionPayload {
    /// The URL.
    public var link: String
    /// The words shown for the link.
    public var text: String

    /// Creates an anchor action.
    public init(link: String, text: String) {
        self.link = link
        self.text = text
    }

    public init(object: [String: JSONValue]) {
        link = object.lenientString("link") ?? ""
        text = object.lenientString("text") ?? ""
    }

    public var object: [String: JSONValue] {
        ["link": .string(link), "text": .string(text)]
    }
}
