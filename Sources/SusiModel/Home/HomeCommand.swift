import Foundation

/// A call of a Home Assistant service (`POST /api/services/<domain>/<service>` with `data`).
public struct HomeServiceCall: Sendable, Equatable {
    /// `light`, `cover`, ...
    public var domain: String
    /// `turn_on`, `open_cover`, ...
    public var service: String
    /// The JSON body: `entity_id` and the service's fields.
    public var data: [String: JSONValue]

    /// A call record.
    public init(domain: String, service: String, data: [String: JSONValue]) {
        self.domain = domain
        self.service = service
        self.data = data
    }
}

/// An entity's state as `GET /api/states/<entity_id>` gives it.
public struct HomeState: Sendable, Equatable {
    /// `light.kitchen`.
    public var entityID: String
    /// `on`, `open`, `21.5`, `unavailable`, ...
    public var state: String
    /// Its attributes (`friendly_name`, `brightness`, `current_temperature`, ...).
    public var attributes: [String: JSONValue]

    /// A state record.
    public init(entityID: String, state: String, attributes: [String: JSONValue] = [:]) {
        self.entityID = entityID
        self.state = state
        self.attributes = attributes
    }

    /// Reads one object of Home Assistant's state list; nil without an `entity_id` and `state`.
    public init?(json: JSONValue) {
        guard let id = json["entity_id"]?.stringValue, let state = json["state"]?.stringValue else { return nil }
        self.init(entityID: id, state: state, attributes: json["attributes"]?.objectValue ?? [:])
    }

    /// The entity this state describes, as the directory keeps it.
    public var entity: HomeEntity {
        let name = attributes["friendly_name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        var entity = HomeEntity(id: entityID, name: "")
        entity.name = name ?? entity.objectWords
        entity.deviceClass = attributes["device_class"]?.stringValue
        entity.unit = attributes["unit_of_measurement"]?.stringValue
        return entity
    }
}

/// What the speaker can ask Home Assistant to do, as the home skill's actions name it
/// (`{"type": "home_assistant", "command": "turn_on", ...}`), and how each becomes service
/// calls or a spoken state. Pure: the network is `HomeAssistantClient`'s.
public enum HomeCommand: String, Sendable, CaseIterable {
    case turnOn = "turn_on"
    case turnOff = "turn_off"
    /// Set a light's brightness, in percent.
    case brightness
    /// Set a thermostat's target temperature.
    case temperature
    /// Open a cover (blinds, garage door).
    case open
    /// Close a cover.
    case close
    /// "Is the front door open?": the state of one entity, or of an area's.
    case state
    /// "What's the temperature in the bedroom?": a temperature sensor's or thermostat's reading.
    case reading

    /// Domains that `turn_on`/`turn_off` apply to.
    static let switchable: Set<String> = [
        "light", "switch", "fan", "input_boolean", "media_player", "climate", "automation", "humidifier",
    ]

    /// Why a command cannot apply to a target: said to the person as it is.
    public struct Refusal: Error, Sendable, Equatable {
        /// A sentence to say.
        public var sentence: String
    }

    /// The service calls that carry the command out on `target`'s entities, one per domain;
    /// `value` is the percent or the temperature. `state` and `reading` make no calls.
    public func calls(for target: HomeTarget, value: Double?) -> Result<[HomeServiceCall], Refusal> {
        let spoken = Self.spoken(target)
        func perDomain(_ domains: Set<String>, service: (String) -> String, extra: [String: JSONValue] = [:])
            -> Result<[HomeServiceCall], Refusal>
        {
            let chosen = target.entities.filter { domains.contains($0.domain) }
            var order: [String] = []
            var ids: [String: [String]] = [:]
            for entity in chosen {
                if ids[entity.domain] == nil { order.append(entity.domain) }
                ids[entity.domain, default: []].append(entity.id)
            }
            return .success(
                order.map { domain in
                    let list = ids[domain] ?? []
                    var data = extra
                    data["entity_id"] = list.count == 1 ? .string(list[0]) : .array(list.map(JSONValue.string))
                    return HomeServiceCall(domain: domain, service: service(domain), data: data)
                })
        }
        let result: Result<[HomeServiceCall], Refusal>
        switch self {
        case .turnOn, .turnOff:
            result = perDomain(Self.switchable) { _ in rawValue }
        case .brightness:
            guard let value, (0...100).contains(value) else {
                return .failure(Refusal(sentence: "Please give a brightness from 0 to 100 percent."))
            }
            result =
                value == 0
                ? perDomain(["light"]) { _ in "turn_off" }
                : perDomain(["light"], service: { _ in "turn_on" }, extra: ["brightness_pct": .number(value.rounded())])
        case .temperature:
            guard let value, (-50...100).contains(value) else {
                return .failure(Refusal(sentence: "Please say the temperature in degrees."))
            }
            result = perDomain(
                ["climate", "water_heater"], service: { _ in "set_temperature" }, extra: ["temperature": .number(value)])
        case .open, .close:
            result = perDomain(["cover", "valve"]) { domain in "\(rawValue)_\(domain)" }
        case .state, .reading:
            return .success([])
        }
        if case .success(let calls) = result, calls.isEmpty {
            let what: String
            switch self {
            case .turnOn, .turnOff: what = "switch \(spoken) \(self == .turnOn ? "on" : "off")"
            case .brightness: what = "dim \(spoken): it is not a light"
            case .temperature: what = "set the temperature of \(spoken): it is not a thermostat"
            default: what = "\(rawValue) \(spoken)"
            }
            return .failure(Refusal(sentence: "Sorry, I can't \(what)."))
        }
        return result
    }

    /// What to say once the calls went through.
    public func confirmation(for target: HomeTarget, value: Double?) -> String {
        let spoken = Self.spoken(target)
        switch self {
        case .turnOn: return "Okay, I turned on \(spoken)."
        case .turnOff: return "Okay, I turned off \(spoken)."
        case .brightness: return "Okay, \(spoken) \(Self.isPlural(target) ? "are" : "is") at \(Self.number(value ?? 0)) percent."
        case .temperature: return "Okay, \(spoken) is set to \(Self.number(value ?? 0)) degrees."
        case .open: return "Okay, I'm opening \(spoken)."
        case .close: return "Okay, I'm closing \(spoken)."
        case .state, .reading: return ""
        }
    }

    /// The answer to "is X open/on/locked?" (`asked`) or "what is X?" (`asked` nil) from the
    /// states of the target's entities.
    public static func describe(_ states: [HomeState], asked: String?) -> String {
        guard let first = states.first else { return "Sorry, Home Assistant did not say." }
        let parts = states.map { state in "the \(state.entity.name) is \(spokenState(state))" }
        var sentence = parts.joined(separator: ", ")
        sentence = sentence.prefix(1).uppercased() + sentence.dropFirst() + "."
        guard let asked = asked?.lowercased(), states.count == 1 else { return sentence }
        let now = spokenState(first).lowercased()
        return (now == asked || now.hasPrefix(asked + " ") ? "Yes, " : "No, ") + sentence.prefix(1).lowercased()
            + sentence.dropFirst()
    }

    /// The answer to "what's the temperature in X": the first temperature sensor's reading,
    /// else a thermostat's current temperature; nil when none of `states` measures one.
    public static func reading(_ states: [HomeState], place: String) -> String? {
        for state in states where state.entity.deviceClass == "temperature" || ["°C", "°F"].contains(state.entity.unit ?? "") {
            guard let value = Double(state.state) else { continue }
            return "It is \(number(value)) degrees in \(place)."
        }
        for state in states where state.entityID.hasPrefix("climate.") {
            guard let value = state.attributes["current_temperature"]?.doubleValue else { continue }
            return "It is \(number(value)) degrees in \(place)."
        }
        return nil
    }

    /// "the Kitchen Light", "the Kitchen lights", "the Kitchen".
    public static func spoken(_ target: HomeTarget) -> String {
        let name = target.name.lowercased().hasPrefix("the ") ? target.name : "the " + target.name
        guard target.area != nil else { return name }
        let domains = Set(target.entities.map(\.domain))
        if domains == ["light"] { return name + " lights" }
        if domains == ["cover"] { return name + " blinds" }
        if domains == ["fan"] { return name + " fans" }
        return name
    }

    static func isPlural(_ target: HomeTarget) -> Bool { target.area != nil }

    /// A state in words: `on`/`off` of a door sensor as open/closed, a number with its unit.
    static func spokenState(_ state: HomeState) -> String {
        let entity = state.entity
        switch state.state {
        case "unavailable", "unknown": return "unavailable"
        default: break
        }
        switch entity.domain {
        case "binary_sensor":
            let on = state.state == "on"
            switch entity.deviceClass ?? "" {
            case "door", "window", "garage_door", "opening": return on ? "open" : "closed"
            case "lock": return on ? "unlocked" : "locked"
            case "motion", "occupancy", "presence": return on ? "detecting someone" : "clear"
            default: return state.state
            }
        case "climate":
            var text = state.state
            if let target = state.attributes["temperature"]?.doubleValue { text += ", set to \(number(target)) degrees" }
            if let current = state.attributes["current_temperature"]?.doubleValue {
                text += ", at \(number(current)) degrees now"
            }
            return text
        case "light":
            if state.state == "on", let brightness = state.attributes["brightness"]?.doubleValue {
                return "on at \(number((brightness / 255 * 100).rounded())) percent"
            }
            return state.state
        default:
            if let value = Double(state.state) {
                switch entity.unit ?? "" {
                case "°C", "°F": return "\(number(value)) degrees"
                case "%": return "\(number(value)) percent"
                case "": return number(value)
                default: return "\(number(value)) \(entity.unit ?? "")"
                }
            }
            return state.state.replacingOccurrences(of: "_", with: " ")
        }
    }

    /// 21 as "21", 21.5 as "21.5".
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(format: "%.1f", value)
    }
}
