/// A `video_play` or `audio_play` action: something for the media player.
public struct MediaPlayAction: ChatActionPayload {
    /// A YouTube video id, a URL, a SoundCloud path, or search words, per `identifierType`.
    public var identifier: String
    /// How to read `identifier`: `youtube` (the default), `url`, `soundcloud`, `search`, or
    /// one of the owner's library types (`library`, `library_shuffle`, `library_artist`,
    /// `library_album`).
    public var identifierType: String
    /// More media of the same type to play after it, in order (`queue`, the speaker's own
    /// member: the apps' `mrl` playlist); empty for one item.
    public var queue: [String]

    /// SUSI's type for a YouTube video id.
    public static let youtube = "youtube"
    /// A direct media URL.
    public static let url = "url"
    /// A SoundCloud track path.
    public static let soundcloud = "soundcloud"
    /// Words for the player to search for (our speaker's own type).
    public static let search = "search"
    /// The owner's whole music library in album order, or shuffled (our speaker's own types).
    public static let library = "library"
    public static let libraryShuffle = "library_shuffle"
    /// The library's tracks by the artist, or of the album, named by `identifier`; searched
    /// for when the library has none.
    public static let libraryArtist = "library_artist"
    public static let libraryAlbum = "library_album"

    /// Whether this asks for the owner's own music rather than a stream or a search.
    public var isLibrary: Bool {
        [Self.library, Self.libraryShuffle, Self.libraryArtist, Self.libraryAlbum].contains(identifierType)
    }

    /// Creates a media action.
    public init(identifier: String, identifierType: String = MediaPlayAction.youtube, queue: [String] = []) {
        self.identifier = identifier
        self.identifierType = identifierType
        self.queue = queue
    }

    public init(object: [String: JSONValue]) {
        identifier = object.lenientString("identifier") ?? ""
        identifierType = object.lenientString("identifier_type") ?? MediaPlayAction.youtube
        if case .array(let items) = object["queue"] {
            queue = items.compactMap(\.stringValue)
        } else {
            queue = []
        }
    }

    public var object: [String: JSONValue] {
        var result: [String: JSONValue] = ["identifier": .string(identifier), "identifier_type": .string(identifierType)]
        if !queue.isEmpty { result["queue"] = .array(queue.map(JSONValue.string)) }
        return result
    }
}
