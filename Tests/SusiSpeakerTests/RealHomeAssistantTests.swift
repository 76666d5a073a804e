import Foundation
import SusiBrain
import SusiModel
import SusiNet
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The same commands against a real Home Assistant Core (2024.3.3, the last release that runs on
/// Debian 12's Python 3.11), started by the test on 127.0.0.1 in a temporary config directory
/// with a pre-seeded owner and long-lived token (`scripts/home-assistant-seed.py`).
///
/// Skipped, saying so, when `make home-assistant` has not installed it into
/// `.build/homeassistant`: `make test` never downloads it.
final class RealHomeAssistantTests: XCTestCase {
    private static let virtualenv = repositoryRoot + "/.build/homeassistant"
    private var scratch: ScratchConfig!
    private var process: Process?
    private var configDirectory = ""

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.virtualenv + "/bin/hass") else {
            throw XCTSkip(
                "Home Assistant Core is not installed in \(Self.virtualenv): `make home-assistant` installs it "
                    + "(about 200 MB from PyPI), `make test-home-assistant` runs this test")
        }
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        if let process, process.isRunning {
            process.terminate()
            let deadline = Date().addingTimeInterval(15)
            while process.isRunning && Date() < deadline { usleep(100_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        scratch?.remove()
    }

    /// Runs the virtualenv's python on the seed script; its standard output.
    private func seed(_ arguments: [String]) throws -> String {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: Self.virtualenv + "/bin/python")
        child.arguments = [repositoryRoot + "/scripts/home-assistant-seed.py"] + arguments
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        XCTAssertEqual(child.terminationStatus, 0, "home-assistant-seed.py \(arguments.first ?? "")")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts Home Assistant and waits (up to two minutes) until its API takes `token`.
    private func startHomeAssistant() throws -> (base: String, token: String, port: UInt16) {
        configDirectory = scratch.directory + "/homeassistant"
        let port = try XCTUnwrap(closedPort())
        let token = try seed([configDirectory, String(port)])
        let child = Process()
        child.executableURL = URL(fileURLWithPath: Self.virtualenv + "/bin/hass")
        // --skip-pip: nothing is installed at run time; `make home-assistant` put in what it needs.
        child.arguments = ["-c", configDirectory, "--skip-pip"]
        _ = FileManager.default.createFile(atPath: scratch.directory + "/hass.log", contents: nil)
        let log = try XCTUnwrap(FileHandle(forWritingAtPath: scratch.directory + "/hass.log"))
        child.standardOutput = log
        child.standardError = log
        try child.run()
        process = child
        let base = "http://127.0.0.1:\(port)"
        let client = HomeAssistantClient(server: base, token: token, http: CurlHTTPClient(), timeout: 2)
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if (try? client.check()) != nil { return (base, token, port) }
            XCTAssertTrue(child.isRunning, "Home Assistant exited; see \(scratch.directory)/hass.log")
            if !child.isRunning { break }
            usleep(500_000)
        }
        let tail = (try? String(contentsOfFile: scratch.directory + "/hass.log", encoding: .utf8))?.suffix(2000) ?? ""
        throw XCTSkip("Home Assistant did not answer within 120 s:\n\(tail)")
    }

    func testCommandsControlARealHomeAssistant() throws {
        let (base, token, port) = try startHomeAssistant()
        _ = try seed(["assign", String(port), token, "input_boolean.kitchen_light", "kitchen"])
        try scratch.store.set([("home_assistant.url", base), ("home_assistant.token", token)])
        let live = try LiveConfig(store: scratch.store) { error in XCTFail("invalid config: \(error)") }
        let http = CurlHTTPClient(stage: .brain)
        let link = HomeAssistantLink(
            config: { live.current }, store: scratch.store, cacheDirectory: scratch.directory + "/cache", http: http,
            logger: .silent)
        let names = try link.refresh()
        XCTAssertTrue(
            Set(names.entities.map(\.id)).isSuperset(of: ["input_boolean.kitchen_light", "input_boolean.fan", "zone.home"]),
            "\(names.entities.map(\.id))")
        XCTAssertEqual(names.entity("input_boolean.fan")?.name, "Fan")
        let kitchen = try XCTUnwrap(names.areas.first { $0.id == "kitchen" }, "areas() through POST /api/template")
        XCTAssertEqual(kitchen.name, "Kitchen")
        XCTAssertEqual(kitchen.entities, ["input_boolean.kitchen_light"], "area_entities()")

        let dispatcher = ActionDispatcher(
            live: live, planned: PlannedAnswers(path: scratch.directory + "/timers.json"),
            player: SpeakerPlayer { FakePlayer() }, http: http, account: AccountStore(configStore: scratch.store),
            logger: .silent, home: link)
        let brain = try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 })
        let client = HomeAssistantClient(server: base, token: token, http: http)
        func say(_ query: String) throws -> String {
            let reply = try brain.answer(query, context: BrainContext(home: link.names))
            XCTAssertEqual(reply.skill, "home", query)
            return reply.actions.compactMap { action in
                let outcome = dispatcher.perform(action, from: .builtIn)
                XCTAssertNil(outcome.failure, "\(query): \(outcome.failure?.message ?? "")")
                return outcome.say
            }.joined(separator: " ")
        }

        XCTAssertEqual(try say("is the fan on"), "No, the Fan is off.")
        XCTAssertEqual(try say("switch on the fan"), "Okay, I turned on the Fan.")
        XCTAssertEqual(try client.state(of: "input_boolean.fan").state, "on")
        XCTAssertEqual(try say("is the fan on"), "Yes, the Fan is on.")
        XCTAssertEqual(try say("turn on the kitchen light"), "Okay, I turned on the Kitchen Light.")
        XCTAssertEqual(try client.state(of: "input_boolean.kitchen_light").state, "on")
        XCTAssertEqual(try say("turn off the kitchen"), "Okay, I turned off the Kitchen.", "the area, by its name")
        XCTAssertEqual(try client.state(of: "input_boolean.kitchen_light").state, "off")

        // A token Home Assistant does not know is refused, and said so.
        try scratch.store.set("home_assistant.token", to: "not-a-token")
        let reply = try brain.answer("switch off the fan", context: BrainContext(home: link.names))
        let outcome = try dispatcher.perform(XCTUnwrap(reply.actions.first), from: .builtIn)
        XCTAssertEqual(outcome.failure?.code, "home-unauthorized")
        XCTAssertEqual(try client.state(of: "input_boolean.fan").state, "on", "nothing changed")
    }
}
