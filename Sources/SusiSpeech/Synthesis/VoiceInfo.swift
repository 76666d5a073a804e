/// One installed eSpeak NG voice or variant, as `espeak_ListVoices` describes it.
public struct VoiceInfo: Sendable, Equatable, Hashable, Codable {
    /// A language the voice speaks, with eSpeak NG's preference (lower is preferred).
    public struct Language: Sendable, Equatable, Hashable, Codable {
        /// Language code such as `en-gb-scotland`, lower case.
        public var code: String
        /// Priority; when several voices speak a language the lowest number is chosen.
        public var priority: Int

        /// Creates a language entry.
        public init(code: String, priority: Int) {
            self.code = code
            self.priority = priority
        }
    }

    /// Speaker gender as the voice file declares it.
    public enum Gender: String, Sendable, Codable {
        case unknown, male, female
    }

    /// The id people use: the voice's first language code (`en-gb-scotland`); for a variant,
    /// its file name (`f3`, `klatt`, `Andy`).
    public var identifier: String
    /// Display name (`English (Scotland)`, `Andy`).
    public var name: String
    /// Languages in the voice file's order.
    public var languages: [Language]
    /// Declared gender.
    public var gender: Gender
    /// Declared age in years, 0 when not given.
    public var age: Int
    /// Path under `espeak-ng-data/voices` (`gmw/en-GB-scotland`, `!v/f3`, `mb/mb-us1`).
    public var file: String

    /// Creates a description.
    public init(identifier: String, name: String, languages: [Language], gender: Gender, age: Int, file: String) {
        self.identifier = identifier
        self.name = name
        self.languages = languages
        self.gender = gender
        self.age = age
        self.file = file
    }

    /// Whether the voice needs the separate MBROLA synthesizer (`mb/` files).
    public var needsMBROLA: Bool { file.hasPrefix("mb/") }
}
