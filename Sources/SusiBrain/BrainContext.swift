import Foundation
import SusiModel

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
    /// The Home Assistant's entities and areas, for the home skill's `home` functions; nil
    /// when no Home Assistant is set up.
    public var home: HomeDirectory?

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
        memory: SkillMemory? = nil,
        home: HomeDirectory? = nil
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
        self.home = home
    }

    /// The fixed context `!example` lines run in, so their `!expect` texts are stable:
    /// Tuesday 4 March 2025, 15:05 UTC, in the kitchen, American voice at 175 wpm, volume 50,
    /// last answer "The kettle is on.", and a small home (`exampleHome`).
    public static let examples = BrainContext(
        room: "kitchen",
        voice: "en-us",
        rate: 175,
        volume: 50,
        timeZone: TimeZone(secondsFromGMT: 0),
        now: Date(timeIntervalSince1970: 1_741_100_700),
        lastAnswer: "The kettle is on.",
        lastSkill: "chat",
        language: "en",
        home: exampleHome
    )

    /// The Home Assistant of the `!example` context: a kitchen and a living room with lights,
    /// a bedroom with a temperature sensor, a fan, a thermostat, blinds, a garage door and a
    /// front door sensor.
    public static let exampleHome = HomeDirectory(
        entities: [
            HomeEntity(id: "light.kitchen_ceiling", name: "Kitchen Ceiling Light"),
            HomeEntity(id: "light.kitchen_counter", name: "Kitchen Counter Light"),
            HomeEntity(id: "light.living_room_lamp", name: "Living Room Lamp"),
            HomeEntity(id: "fan.bedroom", name: "Fan"),
            HomeEntity(id: "climate.hallway", name: "Thermostat"),
            HomeEntity(id: "cover.living_room_blinds", name: "Blinds"),
            HomeEntity(id: "cover.garage_door", name: "Garage Door"),
            HomeEntity(id: "binary_sensor.front_door", name: "Front Door", deviceClass: "door"),
            HomeEntity(id: "sensor.bedroom_temperature", name: "Bedroom Temperature", deviceClass: "temperature", unit: "°C"),
        ],
        areas: [
            HomeArea(id: "kitchen", name: "Kitchen", entities: ["light.kitchen_ceiling", "light.kitchen_counter"]),
            HomeArea(
                id: "living_room", name: "Living Room", entities: ["light.living_room_lamp", "cover.living_room_blinds"]),
            HomeArea(id: "bedroom", name: "Bedroom", entities: ["fan.bedroom", "sensor.bedroom_temperature"]),
        ],
        server: "http://homeassistant.local:8123", fetchedAt: Date(timeIntervalSince1970: 1_741_100_000))
}
