/// A `video_play` or `audio_play` action: something for the media player.
public struct MediaPlayAction: ChatActionPayload {
    /// A YouTube video id, a URL, a SoundCloud path, or search words, per `identifierType`.
    public var identifier: String
    /// How to read `identifier`: `youtube` (the default), `url`, `soundcloud` or `search`.
    public var identifierType: String

    /// SUSI's type for a YouTube video id.
    public static let youtube = "youtube"
    /// A direct media URL.
    public static let url = "url"
    /// A SoundCloud track path.
    public static let soundcloud = "soundcloud"
    /// Words for the player to search for (our speaker's own type).
    public static let search = "search"

    /// Creates a media action.
    public init(identifier: String, identifierType: String = MediaPlayAction.youtube) {
        self.identifier = identifier
        self.identifierType = identifierType
    }

    public init(object: [String: JSONValue]) {
        identifier = object.lenientString("identifier") ?? ""
        identifierType = object.lenientString("identifier_type") ?? MediaPlayAction.youtube
    }

    public var object: [String: JSONValue] {
        ["identifier": .string(identifier), "identifier_type": .string(identifierType)]
    }
}
