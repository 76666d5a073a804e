/// An installed voice the web page offers: the id stored in `tts.voice` and a name for people.
public struct VoiceChoice: Sendable, Equatable, Codable {
    /// The value for `tts.voice` (`en-gb-scotland`).
    public var id: String
    /// What the page shows (`English (Scotland)`).
    public var name: String

    /// Creates a choice.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
