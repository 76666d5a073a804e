import Foundation

/// What the brain knows about the speaker when it answers: settings, clock and the previous
/// exchange. The caller builds one per query (from the config and its own memory).
public struct BrainContext: Sendable {
    /// The room name set by the app (`room` in the config); empty when unknown.
    public var room: String
    /// The eSpeak NG voice id in use (`tts.voice`), e.g. `en-gb`.
    public var voice: String
    /// Speech rate in words per minute (`tts.rate`).
    public var rate: Int
    /// Output volume in percent, 0-100.
    public var volume: Int
    /// How much "volume up/down" changes it (`player.volume_step`).
    public var volumeStep: Int
    /// The time zone for times and dates; nil: the speaker's own, as the C library has it
    /// (`TZ`, else /etc/localtime), read without loading ICU as `TimeZone.current` would.
    public var timeZone: TimeZone?
    /// The moment to answer for; `nil` means the real clock at answer time. Tests fix it.
    public var now: Date?
    /// The last thing the speaker said, for "say that again"; `nil` when nothing yet.
    public var lastAnswer: String?
    /// The skill that gave the last answer, when known.
    public var lastSkill: String?
    /// ISO 639-1 language of the query; echoed in the reply and in `answer` actions.
    public var language: String
    /// What skills were told in this conversation (`>_name`, `$_name$`); `nil` means no
    /// memory: assignments are dropped and recalls find nothing.
    public var memory: SkillMemory?

    /// Creates a context; every field has the config default.
    public init(
        room: String = "",
        voice: String = "en-us",
        rate: Int = 175,
        volume: Int = 50,
        volumeStep: Int = 10,
        timeZone: TimeZone? = nil,
        now: Date? = nil,
        lastAnswer: String? = nil,
        lastSkill: String? = nil,
        language: String = "en",
        memory: SkillMemory? = nil
    ) {
        self.room = room
        self.voice = voice
        self.rate = rate
        self.volume = volume
        self.volumeStep = volumeStep
        self.timeZone = timeZone
        self.now = now
        self.lastAnswer = lastAnswer
        self.lastSkill = lastSkill
        self.language = language
        self.memory = memory
    }

    /// The fixed context `!example` lines run in, so their `!expect` texts are stable:
    /// Tuesday 4 March 2025, 15:05 UTC, in the kitchen, American voice at 175 wpm, volume 50,
    /// last answer "The kettle is on.".
    public static let examples = BrainContext(
        room: "kitchen",
        voice: "en-us",
        rate: 175,
        volume: 50,
        timeZone: TimeZone(secondsFromGMT: 0),
        now: Date(timeIntervalSince1970: 1_741_100_700),
        lastAnswer: "The kettle is on.",
        lastSkill: "chat",
        language: "en"
    )
}
