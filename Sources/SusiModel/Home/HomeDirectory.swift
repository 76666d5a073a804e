import Foundation
import SusiCore

/// One thing Home Assistant controls or measures: an entity as `GET /api/states` lists it.
public struct HomeEntity: Codable, Sendable, Equatable {
    /// `light.kitchen`: the domain, a dot, the object id.
    public var id: String
    /// Its `friendly_name` ("Kitchen Light"), else the object id with spaces.
    public var name: String
    /// Its `device_class` attribute (`door`, `temperature`, ...), when it has one.
    public var deviceClass: String?
    /// Its `unit_of_measurement` attribute (`°C`, `%`), when it has one.
    public var unit: String?

    /// An entity record.
    public init(id: String, name: String, deviceClass: String? = nil, unit: String? = nil) {
        self.id = id
        self.name = name
        self.deviceClass = deviceClass
        self.unit = unit
    }

    /// The part of the id before the dot (`light`).
    public var domain: String { String(id.prefix { $0 != "." }) }

    /// The object id as words (`kitchen_light` as "kitchen light").
    public var objectWords: String {
        String(id.drop { $0 != "." }.dropFirst()).replacingOccurrences(of: "_", with: " ")
    }
}

/// One of Home Assistant's areas (rooms) and the entities in it.
public struct HomeArea: Codable, Sendable, Equatable {
    /// The area id (`living_room`).
    public var id: String
    /// Its name ("Living Room").
    public var name: String
    /// The ids of its entities.
    public var entities: [String]

    /// An area record.
    public init(id: String, name: String, entities: [String]) {
        self.id = id
        self.name = name
        self.entities = entities
    }
}

/// What the speaker knows of a Home Assistant: its entities and areas, fetched from its REST
/// API and kept in the cache directory (`home-assistant.json`), so the brain resolves names
/// and the recogniser knows them offline and from the first second after a restart.
///
/// Immutable value; safe anywhere.
public struct HomeDirectory: Codable, Sendable, Equatable {
    /// Every entity, in Home Assistant's order.
    public var entities: [HomeEntity]
    /// Every area.
    public var areas: [HomeArea]
    /// The server the names came from (`home_assistant.url`).
    public var server: String
    /// When they were fetched.
    public var fetchedAt: Date

    /// The file's name in the cache directory.
    public static let fileName = "home-assistant.json"

    /// A directory of `entities` and `areas`.
    public init(entities: [HomeEntity], areas: [HomeArea], server: String = "", fetchedAt: Date = Date()) {
        self.entities = entities
        self.areas = areas
        self.server = server
        self.fetchedAt = fetchedAt
    }

    /// The entity with `id`, if known.
    public func entity(_ id: String) -> HomeEntity? {
        entities.first { $0.id == id }
    }

    /// The area holding the entity `id`, if any.
    public func area(of id: String) -> HomeArea? {
        areas.first { $0.entities.contains(id) }
    }

    /// The cached directory in `directory`; nil when there is none or it cannot be read.
    public static func read(from directory: String) -> HomeDirectory? {
        guard let data = try? AtomicFile.read(directory + "/" + fileName, limit: 8 << 20) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(HomeDirectory.self, from: data)
    }

    /// Writes the directory into `directory` (created when missing), atomically, mode 0600:
    /// the names of a home's rooms and devices are private.
    public func write(to directory: String) throws(ConfigError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else {
            throw ConfigError(.unwritable, "cannot encode the Home Assistant names")
        }
        try AtomicFile.write(data, to: directory + "/" + Self.fileName)
    }
}

extension HomeDirectory {
    /// The most entities whose names the recogniser learns (the first in Home Assistant's order
    /// among those a command can name); a large home has thousands of sensors nobody says.
    public static let spokenEntityLimit = 400

    /// Commands a person might say with these names, for the recogniser's language model:
    /// switching, dimming, setting and asking about each entity a command applies to, and the
    /// same for each area ("turn on the kitchen lights", "what's the temperature in the bedroom").
    public func sentences() -> [String] {
        var result: [String] = []
        var spoken = 0
        for entity in entities {
            let name = "the " + entity.name.lowercased()
            var lines: [String]
            switch entity.domain {
            case "light":
                lines = [
                    "turn on \(name)", "turn off \(name)", "switch on \(name)", "switch off \(name)", "turn \(name) on",
                    "turn \(name) off", "is \(name) on",
                ]
                // Every tenth percent somewhere, so the numbers are heard beside the names.
                lines += [10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map { "set \(name) to \($0) percent" }
                lines += ["dim \(name) to 20 percent", "dim \(name) to 50 percent"]
            case "switch", "fan", "input_boolean", "media_player", "humidifier":
                lines = [
                    "turn on \(name)", "turn off \(name)", "switch on \(name)", "switch off \(name)", "turn \(name) off",
                    "is \(name) on",
                ]
            case "climate", "water_heater":
                lines = (16...25).map { "set \(name) to \($0) degrees" } + ["turn off \(name)", "what is the state of \(name)"]
            case "cover", "valve":
                lines = ["open \(name)", "close \(name)", "is \(name) open", "is \(name) closed"]
            case "binary_sensor" where ["door", "window", "garage_door", "opening"].contains(entity.deviceClass ?? ""):
                lines = ["is \(name) open", "is \(name) closed"]
            case "lock":
                lines = ["is \(name) locked"]
            case "sensor" where entity.deviceClass == "temperature":
                lines = ["what is the state of \(name)"]
            default:
                lines = []
            }
            guard !lines.isEmpty else { continue }
            result += lines
            spoken += 1
            if spoken >= Self.spokenEntityLimit { break }
        }
        for area in areas {
            let name = "the " + area.name.lowercased()
            let domains = Set(area.entities.compactMap { entity($0)?.domain })
            result += [
                "turn on \(name)", "turn off \(name)", "what's the temperature in \(name)",
                "what is the temperature in \(name)", "how warm is it in \(name)",
            ]
            // The kinds of thing the area holds, named beside it: "the bedroom fan".
            for (kind, kindDomains) in Self.spokenKinds where !domains.isDisjoint(with: kindDomains) {
                result += [
                    "turn on \(name) \(kind)", "turn off \(name) \(kind)", "turn on the \(kind) in \(name)",
                    "turn off the \(kind) in \(name)",
                ]
                if kindDomains.contains("cover") { result += ["open \(name) \(kind)", "close \(name) \(kind)"] }
                if kindDomains.contains("light") { result += ["set \(name) \(kind) to 50 percent", "are \(name) \(kind) on"] }
            }
        }
        // Heard twice as often as a skill's example: these are the home's own names.
        return result + result
    }

    /// The words of the entities' and areas' names ("kitchen", "porch", "light").
    public var nameWords: Set<String> {
        Set((entities.map(\.name) + areas.map(\.name)).flatMap { Self.words($0) })
    }

    /// Whether `heard`, a reading no skill is sure of, and `command`, the same audio heard
    /// as one of this home's commands, share a word of a name: only then is the command
    /// taken. Measured with the dev and held-out voices (bench/PERFORMANCE.md, "Home Assistant
    /// commands"): home commands right 57.5 -> 67.5% and 64.4 -> 71.6%; of 255 other commands
    /// none, and of 315 open questions one, made a home command. Taking the command whenever
    /// no skill is sure gave 81.4% and 83.6%, but made home commands of 4 other commands and
    /// of 139 open questions.
    public func mayBe(_ command: String, heard: String) -> Bool {
        let shared = Set(Self.words(heard)).intersection(Self.words(command))
        return !shared.isDisjoint(with: nameWords)
    }

    /// Kinds people name beside a room, in the words they use.
    static let spokenKinds: [(String, Set<String>)] = [
        ("lights", ["light"]), ("lamp", ["light"]), ("fan", ["fan"]), ("blinds", ["cover"]), ("curtains", ["cover"]),
        ("heating", ["climate"]), ("tv", ["media_player"]),
    ]
}
