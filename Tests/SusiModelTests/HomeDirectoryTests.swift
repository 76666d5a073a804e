import Foundation
import SusiCore
import SusiModel
import SusiTestSupport
import XCTest

/// Names of a Home Assistant found in what people say, commands as service calls, states in
/// words, and the Home Assistant token kept apart from the config.
final class HomeDirectoryTests: XCTestCase {
    private let home = HomeDirectory(
        entities: [
            HomeEntity(id: "light.kitchen_ceiling", name: "Kitchen Ceiling Light"),
            HomeEntity(id: "light.kitchen_counter", name: "Kitchen Counter Light"),
            HomeEntity(id: "switch.kitchen_kettle", name: "Kettle"),
            HomeEntity(id: "light.living_room_lights", name: "Living Room Lights"),
            HomeEntity(id: "cover.living_room_blinds", name: "Blinds"),
            HomeEntity(id: "fan.bedroom", name: "Ceiling Fan"),
            HomeEntity(id: "binary_sensor.front_door", name: "Front Door", deviceClass: "door"),
        ],
        areas: [
            HomeArea(
                id: "kitchen", name: "Kitchen",
                entities: ["light.kitchen_ceiling", "light.kitchen_counter", "switch.kitchen_kettle"]),
            HomeArea(id: "living_room", name: "Living Room", entities: ["light.living_room_lights", "cover.living_room_blinds"]),
            HomeArea(id: "bedroom", name: "Bedroom", entities: ["fan.bedroom"]),
        ])

    private func find(_ text: String) -> HomeTarget? {
        home.find(in: HomeDirectory.words(text))
    }

    func testTheLongestNameWinsAndAnEntityBeatsAnAreaOfAsManyWords() {
        XCTAssertEqual(find("turn on the kitchen ceiling light")?.entities.map(\.id), ["light.kitchen_ceiling"])
        XCTAssertEqual(find("turn on the kitchen ceiling lights")?.entities.map(\.id), ["light.kitchen_ceiling"], "plural")
        XCTAssertEqual(find("Turn off the LIVING ROOM LIGHTS!")?.entities.map(\.id), ["light.living_room_lights"])
        XCTAssertEqual(find("switch off the kettle")?.name, "Kettle")
        XCTAssertEqual(find("is the front door open")?.rest, ["is", "the", "open"])
        XCTAssertNil(find("turn on the flux capacitor"))
        XCTAssertNil(find(""))
    }

    func testAnAreaIsNarrowedByTheKindNamedBesideIt() throws {
        let lights = try XCTUnwrap(find("turn on the kitchen lights"))
        XCTAssertEqual(lights.area?.id, "kitchen")
        XCTAssertEqual(lights.entities.map(\.id), ["light.kitchen_ceiling", "light.kitchen_counter"])
        XCTAssertEqual(find("turn on the lights in the kitchen")?.entities.count, 2)
        XCTAssertEqual(find("turn off the kitchen")?.entities.count, 3, "no kind named: the whole area")
        XCTAssertEqual(
            find("open the bedroom blinds")?.entities.map(\.id), ["fan.bedroom"], "no blinds there: the area stays whole")
    }

    func testCommandsBecomeServiceCallsPerDomain() throws {
        let kitchen = try XCTUnwrap(find("turn off the kitchen"))
        let calls = try HomeCommand.turnOff.calls(for: kitchen, value: nil).get()
        XCTAssertEqual(
            calls,
            [
                HomeServiceCall(
                    domain: "light", service: "turn_off", data: ["entity_id": ["light.kitchen_ceiling", "light.kitchen_counter"]]),
                HomeServiceCall(domain: "switch", service: "turn_off", data: ["entity_id": "switch.kitchen_kettle"]),
            ])
        let lamp = try XCTUnwrap(find("the kitchen ceiling light"))
        XCTAssertEqual(
            try HomeCommand.brightness.calls(for: lamp, value: 40).get(),
            [
                HomeServiceCall(
                    domain: "light", service: "turn_on", data: ["entity_id": "light.kitchen_ceiling", "brightness_pct": 40])
            ])
        XCTAssertEqual(
            try HomeCommand.brightness.calls(for: lamp, value: 0).get().first?.service, "turn_off", "0 percent is off")
        XCTAssertThrowsError(try HomeCommand.brightness.calls(for: lamp, value: 250).get())
        XCTAssertThrowsError(try HomeCommand.brightness.calls(for: lamp, value: nil).get())
        let blinds = try XCTUnwrap(find("the blinds"))
        XCTAssertEqual(try HomeCommand.close.calls(for: blinds, value: nil).get().first?.service, "close_cover")
        guard case .failure(let refusal) = HomeCommand.open.calls(for: lamp, value: nil) else {
            return XCTFail("a light cannot be opened")
        }
        XCTAssertEqual(refusal.sentence, "Sorry, I can't open the Kitchen Ceiling Light.")
        guard case .failure(let noThermostat) = HomeCommand.temperature.calls(for: lamp, value: 21) else {
            return XCTFail("a light has no temperature")
        }
        XCTAssertTrue(noThermostat.sentence.contains("not a thermostat"))
    }

    /// A home command heard for a reading no skill is sure of is taken only when both share a
    /// word of a name.
    func testAHomeCommandIsTakenWhenBothReadingsShareAName() {
        XCTAssertTrue(home.nameWords.isSuperset(of: ["kitchen", "ceiling", "kettle", "living", "room", "front", "door"]))
        XCTAssertFalse(home.nameWords.contains("turn"))
        XCTAssertTrue(home.mayBe("turn on the kitchen ceiling light", heard: "so on the kitchen ceiling like"))
        XCTAssertTrue(home.mayBe("close the blinds", heard: "close the blinds talk to"))
        XCTAssertFalse(home.mayBe("turn off the kettle", heard: "turn off the music"), "no name in common")
        XCTAssertFalse(home.mayBe("is the front door open", heard: "what is the weather in berlin"))
        XCTAssertFalse(home.mayBe("is the front door open", heard: ""))
    }

    func testStatesInWords() {
        let door = HomeState(
            entityID: "binary_sensor.front_door", state: "on",
            attributes: ["friendly_name": "Front Door", "device_class": "door"])
        XCTAssertEqual(HomeCommand.describe([door], asked: "open"), "Yes, the Front Door is open.")
        XCTAssertEqual(HomeCommand.describe([door], asked: "closed"), "No, the Front Door is open.")
        let lamp = HomeState(entityID: "light.lamp", state: "on", attributes: ["friendly_name": "Lamp", "brightness": 128])
        XCTAssertEqual(HomeCommand.describe([lamp], asked: "on"), "Yes, the Lamp is on at 50 percent.")
        let gone = HomeState(entityID: "light.lamp", state: "unavailable", attributes: [:])
        XCTAssertEqual(HomeCommand.describe([gone], asked: nil), "The lamp is unavailable.")
        let sensor = HomeState(
            entityID: "sensor.t", state: "19.25", attributes: ["device_class": "temperature", "unit_of_measurement": "°C"])
        XCTAssertEqual(HomeCommand.reading([sensor], place: "the Bedroom"), "It is 19.2 degrees in the Bedroom.")
        XCTAssertNil(HomeCommand.reading([lamp], place: "the Bedroom"))
        XCTAssertEqual(HomeCommand.describe([], asked: "on"), "Sorry, Home Assistant did not say.")
    }

    func testTheCacheRoundTripsAndTheSentencesNameEverything() throws {
        let scratch = try ScratchDirectory("susi-home")
        defer { scratch.remove() }
        XCTAssertNil(HomeDirectory.read(from: scratch.path))
        try home.write(to: scratch.path)
        let attributes = try FileManager.default.attributesOfItem(atPath: scratch.path + "/" + HomeDirectory.fileName)
        XCTAssertEqual((attributes[.posixPermissions] as? Int).map { $0 & 0o777 }, 0o600, "a home's names are private")
        let read = try XCTUnwrap(HomeDirectory.read(from: scratch.path))
        XCTAssertEqual(read.entities, home.entities)
        XCTAssertEqual(read.areas, home.areas)
        let sentences = home.sentences()
        XCTAssertTrue(sentences.contains("turn on the kitchen ceiling light"))
        XCTAssertTrue(sentences.contains("close the blinds"))
        XCTAssertTrue(sentences.contains("is the front door open"))
        XCTAssertTrue(sentences.contains("turn off the lights in the living room"))
        XCTAssertTrue(sentences.contains("what's the temperature in the bedroom"))
    }

    func testTheTokenIsKeptApartAndNeverShown() throws {
        let scratch = try ScratchDirectory("susi-home-token")
        defer { scratch.remove() }
        let store = ConfigStore(path: scratch.path + "/config.json")
        let secret = try XCTUnwrap(ConfigSchema.secret(named: "home_assistant.token"))
        let token = "eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJ0ZXN0In0.c2lnbmF0dXJl"
        let config = try store.set([("home_assistant.url", "http://homeassistant.local:8123"), ("home_assistant.token", token)])
        XCTAssertEqual(config.homeAssistant.url, "http://homeassistant.local:8123")
        XCTAssertEqual(secret.value(store: store), token)
        let path = secret.path(store: store)
        XCTAssertEqual(path, scratch.path + "/home-assistant-token")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode.map { $0 & 0o777 }, 0o600)
        let configText = try String(contentsOfFile: store.path, encoding: .utf8)
        XCTAssertFalse(configText.contains(token), "the config file (susi config show) never holds it")
        XCTAssertEqual(ConfigSchema.lines(["home_assistant.token"], in: config, store: store), ["home_assistant.token = (set)"])
        XCTAssertFalse(ConfigSchema.listing().joined().contains(token))

        // A refused value saves nothing, the config's other changes included, and is not echoed.
        XCTAssertThrowsError(try store.set([("tts.rate", "200"), ("home_assistant.token", "two words")])) { error in
            XCTAssertEqual((error as? ConfigError)?.code, "config-bad-value")
            XCTAssertFalse("\(error)".contains("two words"))
        }
        XCTAssertEqual(try store.load().tts.rate, 175)
        XCTAssertEqual(secret.value(store: store), token)

        try store.set("home_assistant.token", to: "")
        XCTAssertNil(secret.value(store: store))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "empty removes it")
        XCTAssertEqual(
            ConfigSchema.lines(["home_assistant.token"], in: config, store: store), ["home_assistant.token = (not set)"])
        XCTAssertThrowsError(try store.set("home_assistant.url", to: "ftp://x"))
    }
}
