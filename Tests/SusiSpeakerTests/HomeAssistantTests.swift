import Foundation
import SusiBrain
import SusiModel
import SusiNet
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// Home Assistant end to end: a command through the bundled skills' brain, the action
/// dispatcher and libcurl reaches a fake Home Assistant on 127.0.0.1 (its documented REST
/// API) with the right service call, and questions are answered from its states.
final class HomeAssistantTests: XCTestCase {
    private var scratch: ScratchConfig!
    private var home: FakeHomeAssistant!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
        home = try FakeHomeAssistant(states: Self.states, areas: Self.areas)
    }

    override func tearDown() {
        home?.stop()
        scratch.remove()
    }

    static let states: [HomeState] = [
        HomeState(entityID: "light.kitchen_ceiling", state: "off", attributes: ["friendly_name": "Kitchen Ceiling Light"]),
        HomeState(entityID: "light.kitchen_counter", state: "off", attributes: ["friendly_name": "Kitchen Counter Light"]),
        HomeState(
            entityID: "light.living_room_lamp", state: "on", attributes: ["friendly_name": "Living Room Lamp", "brightness": 255]),
        HomeState(entityID: "fan.bedroom", state: "on", attributes: ["friendly_name": "Fan"]),
        HomeState(
            entityID: "climate.hallway", state: "heat",
            attributes: ["friendly_name": "Thermostat", "temperature": 20, "current_temperature": 19.5]),
        HomeState(entityID: "cover.garage_door", state: "closed", attributes: ["friendly_name": "Garage Door"]),
        HomeState(entityID: "cover.living_room_blinds", state: "open", attributes: ["friendly_name": "Blinds"]),
        HomeState(
            entityID: "binary_sensor.front_door", state: "off",
            attributes: ["friendly_name": "Front Door", "device_class": "door"]),
        HomeState(
            entityID: "sensor.bedroom_temperature", state: "21.5",
            attributes: ["friendly_name": "Bedroom Temperature", "device_class": "temperature", "unit_of_measurement": "°C"]),
    ]

    static let areas: [HomeArea] = [
        HomeArea(id: "kitchen", name: "Kitchen", entities: ["light.kitchen_ceiling", "light.kitchen_counter"]),
        HomeArea(id: "living_room", name: "Living Room", entities: ["light.living_room_lamp", "cover.living_room_blinds"]),
        HomeArea(id: "bedroom", name: "Bedroom", entities: ["fan.bedroom", "sensor.bedroom_temperature"]),
    ]

    /// The speaker's parts over the fake: the link (names fetched), a dispatcher using it, and
    /// the bundled skills.
    private func speaker(url: String? = nil, token: String? = nil) throws -> (HomeAssistantLink, ActionDispatcher, Brain) {
        try scratch.store.set([("home_assistant.url", url ?? home.base), ("home_assistant.token", token ?? home.token)])
        let live = try LiveConfig(store: scratch.store) { error in XCTFail("invalid config: \(error)") }
        let http = CurlHTTPClient(stage: .brain)
        let link = HomeAssistantLink(
            config: { live.current }, store: scratch.store, cacheDirectory: scratch.directory + "/cache", http: http,
            logger: .silent)
        let dispatcher = ActionDispatcher(
            live: live, planned: PlannedAnswers(path: scratch.directory + "/timers.json"),
            player: SpeakerPlayer { FakePlayer() }, http: http, account: AccountStore(configStore: scratch.store),
            logger: .silent, home: link)
        let brain = try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 })
        return (link, dispatcher, brain)
    }

    /// What the speaker says to `query`, and the failures reported, as `susi run` would act.
    private func ask(
        _ query: String, _ parts: (HomeAssistantLink, ActionDispatcher, Brain), file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> (said: String, failures: [String]) {
        let (link, dispatcher, brain) = parts
        let reply = try brain.answer(query, context: BrainContext(home: link.names))
        XCTAssertEqual(reply.skill, "home", "\"\(query)\" is the home skill's", file: file, line: line)
        var said: [String] = []
        var failures: [String] = []
        for action in reply.actions {
            let outcome = dispatcher.perform(action, from: .builtIn)
            if let text = outcome.say { said.append(text) }
            if let failure = outcome.failure { failures.append(failure.code) }
        }
        return (said.joined(separator: " "), failures)
    }

    func testCommandsReachHomeAssistantAsServiceCalls() throws {
        let parts = try speaker()
        let names = try parts.0.refresh()
        XCTAssertEqual(names.entities.count, Self.states.count)
        XCTAssertEqual(names.areas.map(\.name), ["Kitchen", "Living Room", "Bedroom"], "areas come from /api/template")
        XCTAssertNotNil(HomeDirectory.read(from: scratch.directory + "/cache"), "the names are cached on disk")

        let cases: [(query: String, service: String, body: JSONValue, said: String)] = [
            (
                "turn on the kitchen lights", "light.turn_on",
                ["entity_id": ["light.kitchen_ceiling", "light.kitchen_counter"]], "Okay, I turned on the Kitchen lights."
            ),
            ("switch off the fan", "fan.turn_off", ["entity_id": "fan.bedroom"], "Okay, I turned off the Fan."),
            (
                "set the living room lights to 40 percent", "light.turn_on",
                ["entity_id": "light.living_room_lamp", "brightness_pct": 40], "Okay, the Living Room lights are at 40 percent."
            ),
            (
                "set the thermostat to twenty one degrees", "climate.set_temperature",
                ["entity_id": "climate.hallway", "temperature": 21], "Okay, the Thermostat is set to 21 degrees."
            ),
            (
                "open the garage door", "cover.open_cover", ["entity_id": "cover.garage_door"],
                "Okay, I'm opening the Garage Door."
            ),
            ("close the blinds", "cover.close_cover", ["entity_id": "cover.living_room_blinds"], "Okay, I'm closing the Blinds."),
        ]
        for (index, item) in cases.enumerated() {
            let (said, failures) = try ask(item.query, parts)
            XCTAssertEqual(failures, [], item.query)
            XCTAssertEqual(said, item.said, item.query)
            XCTAssertEqual(home.calls.count, index + 1, "one call for \"\(item.query)\"")
            XCTAssertEqual(home.calls.last, FakeHomeAssistant.Call(service: item.service, body: item.body), item.query)
        }
        XCTAssertEqual(home.state(of: "cover.garage_door")?.state, "open")
        XCTAssertEqual(home.state(of: "light.kitchen_counter")?.state, "on")
    }

    func testQuestionsAreAnsweredFromHomeAssistantsStates() throws {
        let parts = try speaker()
        try parts.0.refresh()
        XCTAssertEqual(try ask("is the front door open", parts).said, "No, the Front Door is closed.")
        XCTAssertEqual(try ask("is the garage door closed", parts).said, "Yes, the Garage Door is closed.")
        XCTAssertEqual(try ask("what's the temperature in the bedroom", parts).said, "It is 21.5 degrees in the Bedroom.")
        XCTAssertEqual(try ask("is the fan on", parts).said, "Yes, the Fan is on.")
        _ = try ask("turn off the fan", parts)
        XCTAssertEqual(try ask("is the fan on", parts).said, "No, the Fan is off.", "answered from the state now")
        XCTAssertEqual(
            try ask("what is the state of the thermostat", parts).said,
            "The Thermostat is heat, set to 20 degrees, at 19.5 degrees now.")
        XCTAssertEqual(home.calls.count, 1, "questions call no service")
    }

    func testFailuresAreSaidAndReported() throws {
        // A name Home Assistant does not have.
        var parts = try speaker()
        try parts.0.refresh()
        var (said, failures) = try ask("turn on the garden lights", parts)
        XCTAssertEqual(failures, ["home-unknown-entity"])
        XCTAssertEqual(said, "Sorry, Home Assistant has nothing by that name.")
        // Something that cannot do what was asked.
        (said, failures) = try ask("open the kitchen ceiling light", parts)
        XCTAssertEqual(said, "Sorry, I can't open the Kitchen Ceiling Light.")
        XCTAssertEqual(home.calls, [], "nothing was called")

        // A refused token.
        parts = try speaker(token: "not-the-token")
        (said, failures) = try ask("turn on the kitchen lights", parts)
        XCTAssertEqual(failures, ["home-unauthorized"])
        XCTAssertTrue(said.contains("refused my access token"), said)

        // Nothing answering.
        let port = try XCTUnwrap(closedPort())
        parts = try speaker(url: "http://127.0.0.1:\(port)")
        (said, failures) = try ask("turn on the kitchen lights", parts)
        XCTAssertEqual(failures, ["home-unreachable"])
        XCTAssertEqual(said, "Sorry, I can't reach Home Assistant right now.")

        // Not set up: the skill still answers, and says what to do.
        try scratch.store.set([("home_assistant.url", ""), ("home_assistant.token", "")])
        let live = try LiveConfig(store: scratch.store) { _ in }
        let link = HomeAssistantLink(
            config: { live.current }, store: scratch.store, cacheDirectory: scratch.directory + "/cache",
            http: CurlHTTPClient(), logger: .silent)
        XCTAssertNil(link.names)
        (said, failures) = try ask("turn on the kitchen lights", (link, parts.1, parts.2))
        XCTAssertEqual(failures, ["home-not-configured"])
        XCTAssertTrue(said.hasPrefix("Home Assistant is not set up"), said)
    }

    func testOtherSkillsKeepTheirCommands() throws {
        let (link, _, brain) = try speaker()
        try link.refresh()
        for context in [BrainContext(home: link.names), BrainContext()] {
            for query in ["turn on shuffle", "what's the temperature in berlin", "open the pod bay doors", "is paris open"] {
                XCTAssertNotEqual(try brain.answer(query, context: context).skill, "home", query)
            }
            XCTAssertEqual(try brain.answer("turn on the garden lights", context: context).skill, "home")
        }
    }

    func testOnlyTheBuiltInSkillsMayControlTheHome() throws {
        let (_, dispatcher, _) = try speaker()
        let action = ChatAction(object: [
            "type": "home_assistant", "command": "open", "entity_id": "cover.garage_door", "name": "Garage Door",
        ])
        let outcome = dispatcher.perform(action, from: .server)
        XCTAssertEqual(outcome.failure?.code, "home-failed")
        XCTAssertEqual(home.calls, [], "an answer from the network opens no garage door")
        XCTAssertNil(dispatcher.perform(action, from: .builtIn).failure)
        XCTAssertEqual(home.calls.map(\.service), ["cover.open_cover"])
    }

    func testBadActionsAndIdsCrashNothing() throws {
        let (link, dispatcher, _) = try speaker()
        try link.refresh()
        let bad: [[String: JSONValue]] = [
            ["type": "home_assistant"],
            ["type": "home_assistant", "command": "explode", "entity_id": "light.kitchen_ceiling"],
            ["type": "home_assistant", "command": "state", "entity_id": "../../api/config"],
            ["type": "home_assistant", "command": "state", "entity_id": "light.nowhere"],
            ["type": "home_assistant", "command": "brightness", "entity_id": "light.kitchen_ceiling", "value": "400"],
            ["type": "home_assistant", "command": "turn_on", "entity_id": ",,,"],
            ["type": "home_assistant", "command": "turn_on", "entity_id": 7],
        ]
        for object in bad {
            let outcome = dispatcher.perform(ChatAction(object: object), from: .builtIn)
            XCTAssertNotNil(outcome.say, "\(object): something is said")
        }
        XCTAssertEqual(home.calls, [], "no bad action reached a service")
    }
}
