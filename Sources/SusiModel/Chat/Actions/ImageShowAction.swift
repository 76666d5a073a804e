/// An `image_show` action: an image URL; a speaker without a screen ignores it.
public struct ImageShowAction: ChatActionPayload {
    /// The image URL.
    public var url: String

    /// Creates an image action.
    public init(url: String) {
        self.url = url
    }

    public init(object: [String: JSONValue]) {
        url = object.lenientString("url") ?? ""
    }

    public var object: [String: JSONValue] {
        ["url": .string(url)]
    }
}
