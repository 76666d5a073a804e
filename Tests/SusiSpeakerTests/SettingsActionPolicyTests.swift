import Foundation
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiBrain
@testable import SusiSpeaker

/// Issue 50: an answer changes only the keys a person could ask for by voice, and a remote
/// answer fewer than a built-in skill; every key of `susi config keys` is tried.
final class SettingsActionPolicyTests: XCTestCase {
    /// Values to try for a key, by the kind of its default: the first one the schema accepts
    /// and that differs from the default is the change an answer asks for.
    private static func candidates(for value: ConfigValue) -> [String] {
        switch value {
        case .int(let number): return [String(number + 1), String(number - 1)]
        case .double(let number): return [String(number * 2), String(number / 2), "1"]
        case .bool(let flag): return [flag ? "false" : "true"]
        case .list: return ["[\"/tmp\"]", "[\"--script=/tmp/evil.lua\"]"]
        case .null: return ["12.5"]
        case .string:
            return [
                "en-gb", "m3", "de", "Kitchen", "http://evil.example", "/tmp/evil", "touch /tmp/pwned", "127.0.0.1",
                "wlan1", "evilpass123", "US", "computer", "local", "remote", "pocketsphinx", "neural", "base", "always",
            ]
        }
    }

    /// A valid change of every key, found on a config of its own.
    private func validChanges() throws -> [(key: String, value: String)] {
        let scratch = try ScratchConfig()
        defer { scratch.remove() }
        let defaults = Config()
        var changes: [(key: String, value: String)] = []
        for key in ConfigSchema.keys {
            let before = key.value(in: defaults)
            let change = Self.candidates(for: before).first { text in
                guard let saved = try? scratch.store.set(key.name, to: text) else { return false }
                return key.value(in: saved) != before
            }
            changes.append((key.name, try XCTUnwrap(change, "no valid new value found for \(key.name)")))
            try scratch.store.save(defaults)
        }
        return changes
    }

    /// Every key asked for by an answer from `origin`: the keys that changed.
    private func changedKeys(from origin: AnswerOrigin) throws -> Set<String> {
        let changes = try validChanges()
        XCTAssertEqual(changes.count, ConfigSchema.keys.count)
        let scratch = try ScratchConfig()
        defer { scratch.remove() }
        let (dispatcher, live, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        var changed: Set<String> = []
        for (name, value) in changes {
            let key = try XCTUnwrap(ConfigSchema.key(named: name))
            let before = key.value(in: live.current)
            let outcome = dispatcher.perform(.settings(SettingsAction(key: name, value: value)), from: origin)
            let after = key.value(in: try scratch.store.load())
            XCTAssertEqual(key.value(in: live.current), after, "\(name): the live config is the file's")
            if after != before {
                changed.insert(name)
                XCTAssertNil(outcome.failure, name)
            } else {
                XCTAssertEqual(outcome.failure?.code, "config-setting-refused", name)
                XCTAssertEqual(outcome.say, "Sorry, I am not allowed to change that.", name)
            }
        }
        return changed
    }

    func testBuiltInSkillsChangeOnlyWhatAPersonCouldSay() throws {
        let changed = try changedKeys(from: .builtIn)
        XCTAssertEqual(changed, SettingsAction.skillKeys)
        XCTAssertEqual(
            changed,
            ["tts.voice", "tts.variant", "tts.rate", "tts.pitch", "tts.volume", "player.volume", "brain.language", "room"])
    }

    func testServerAnswersChangeLessThanSkills() throws {
        let changed = try changedKeys(from: .server)
        XCTAssertEqual(changed, SettingsAction.serverKeys)
        XCTAssertTrue(changed.isStrictSubset(of: SettingsAction.skillKeys))
        for name in changed {
            XCTAssertFalse(name.hasPrefix("brain.") || name.hasPrefix("setup.") || name.hasPrefix("hotword."), name)
            XCTAssertFalse(ConfigSchema.fileOnlyKeys.contains(name), name)
        }
    }

    /// A hostile SUSI server in hybrid mode: its reply is decoded as the server's, whatever it
    /// says, and its settings change nothing but the apology is said.
    func testAHostileServerCannotSetThePlayerOrTheServer() throws {
        var router = Router()
        router.get("/susi/chat.json") { _ in
            let reply = """
                {"query": "q", "origin": "built-in", "answers": [{"data": [], "metadata": {"count": 0}, "actions": [
                  {"type": "settings", "key": "player.command", "value": "/tmp/evil"},
                  {"type": "settings", "key": "brain.server", "value": "http://evil.example"},
                  {"type": "settings", "key": "tts.rate", "value": "200"},
                  {"type": "answer", "expression": "Done."}], "skills": ["evil"]}]}
                """
            return ServerResponse(contentType: ServerResponse.jsonContentType, body: Data(reply.utf8))
        }
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        defer { server.stop() }
        let scratch = try ScratchConfig()
        defer { scratch.remove() }
        let local = LocalChatBrain(brain: try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 }))
        let brain = HybridBrain(
            local: local,
            remote: SusiChatClient(server: "http://127.0.0.1:\(try XCTUnwrap(server.port))", http: CurlHTTPClient()))
        let answer = try brain.route("tell me a joke")
        XCTAssertEqual(answer.source, .remote)
        XCTAssertEqual(answer.response.origin, .server)
        let (dispatcher, live, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        let outcomes = answer.response.actions.map { dispatcher.perform($0, from: answer.response.origin) }
        XCTAssertEqual(outcomes.map { $0.failure?.code }, ["config-setting-refused", "config-setting-refused", nil, nil])
        XCTAssertEqual(live.current.player.command, Config().player.command)
        XCTAssertEqual(live.current.brain.server, Config().brain.server)
        XCTAssertEqual(live.current.tts.rate, 200, "the rate is the server's to change")

        let voice = try brain.route("speak with a scottish accent")
        XCTAssertEqual(voice.source, .local)
        XCTAssertEqual(voice.response.origin, .builtIn, "the built-in voice skill answers on the speaker")
        for action in voice.response.actions { XCTAssertNil(dispatcher.perform(action, from: voice.response.origin).failure) }
        XCTAssertEqual(live.current.tts.voice, "en-gb-scotland")
    }
}
