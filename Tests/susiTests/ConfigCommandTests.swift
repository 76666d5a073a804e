import Foundation
import XCTest

final class ConfigCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    func testHelpListsEveryCommandOfTheContract() throws {
        let result = try cli.run(["--help"])
        XCTAssertEqual(result.status, 0)
        for command in [
            "run", "transcribe", "ask", "say", "voice", "config", "brain", "skills", "devices", "login",
            "logout", "skill", "setup",
        ] {
            XCTAssertTrue(result.stdout.contains("\n  \(command) "), "help lacks \(command)")
        }
        let sub = try cli.run(["config", "--help"])
        XCTAssertEqual(sub.status, 0)
        XCTAssertTrue(sub.stdout.contains("susi config validate [FILE]"))
    }

    /// Issue 51: a wake phrase the speaker could not wake on is refused, saying what to do;
    /// nothing is saved, and the default phrase is taken as before.
    func testAWakePhraseWithoutAHeadOrAPronunciationIsRefusedSayingWhatToDo() throws {
        let refused = try cli.run(["config", "set", "hotword.phrase", "zorblax"])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("hotword.phrase 'zorblax' cannot be heard"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("make wakeword PHRASE=\"zorblax\""), refused.stderr)
        XCTAssertEqual(try cli.run(["config", "get", "hotword.phrase"]).stdout, "susi\n")
        let susi = try cli.run(["config", "set", "hotword.phrase", "susi"])
        XCTAssertEqual(susi.status, 0, susi.stderr)
        XCTAssertEqual(susi.stderr, "", "no check for the default phrase")
    }

    /// The Home Assistant token: read from standard input with "-", kept in its own 0600 file,
    /// never printed back by `get`, `set` or `show`.
    func testTheHomeAssistantTokenIsSetFromStandardInputAndNeverPrinted() throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.Y2xpLXRlc3Q.c2ln"
        let set = try cli.run(
            ["config", "set", "home_assistant.url", "http://homeassistant.local:8123", "home_assistant.token", "-"],
            input: token + "\n")
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "home_assistant.url = http://homeassistant.local:8123\nhome_assistant.token = (set)\n")
        XCTAssertEqual(try cli.run(["config", "get", "home_assistant.token"]).stdout, "(set)\n")
        let show = try cli.run(["config", "show"])
        XCTAssertFalse(show.stdout.contains(token))
        XCTAssertTrue(show.stdout.contains("homeassistant.local"), show.stdout)
        let path = (cli.configPath as NSString).deletingLastPathComponent + "/home-assistant-token"
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), token + "\n")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        XCTAssertEqual(mode.map { $0 & 0o777 }, 0o600)
        let refused = try cli.run(["config", "set", "home_assistant.token", "has a space"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertFalse(refused.stderr.contains("has a space"), refused.stderr)
        XCTAssertEqual(try cli.run(["config", "set", "home_assistant.token", ""]).stdout, "home_assistant.token = (not set)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testUnknownCommandAndOptionAreNamed() throws {
        let command = try cli.run(["frobnicate"])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains("'frobnicate'"), command.stderr)
        let option = try cli.run(["config", "show", "--colour"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.contains("'--colour'"), option.stderr)
        XCTAssertEqual(option.stderr.split(separator: "\n").count, 1, "one line: \(option.stderr)")
    }

    func testPathFollowsXDGAndConfigOption() throws {
        XCTAssertEqual(try cli.run(["config", "path"]).stdout, cli.configPath + "\n")
        XCTAssertEqual(try cli.run(["--config", "/tmp/elsewhere.json", "config", "path"]).stdout, "/tmp/elsewhere.json\n")
    }

    func testShowCreatesDefaultsWithMode0600() throws {
        let result = try cli.run(["config", "show"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((json?["tts"] as? [String: Any])?["voice"] as? String, "en-us")
        XCTAssertEqual((json?["setup"] as? [String: Any])?["port"] as? Int, 5000)
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.configPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testSetThenGetAndRejectedValuesNameTheKey() throws {
        XCTAssertEqual(try cli.run(["config", "set", "tts.rate", "210"]).status, 0)
        XCTAssertEqual(try cli.run(["config", "get", "tts.rate"]).stdout, "210\n")
        let bad = try cli.run(["config", "set", "tts.rate", "9000"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("tts.rate") && bad.stderr.contains("450"), bad.stderr)
        let unknown = try cli.run(["config", "get", "tts.speed"])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("tts.speed"), unknown.stderr)
        XCTAssertEqual(try cli.run(["config", "get", "tts.rate"]).stdout, "210\n", "a rejected set changes nothing")
    }

    func testKeysMarkThoseThatNeedARestart() throws {
        let result = try cli.run(["config", "keys"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func description(of key: String) -> String? {
            lines.firstIndex { $0.hasPrefix(key + " = ") }.map { lines[$0 + 1] }
        }
        for key in ["setup.port", "audio.input"] {
            XCTAssertTrue(description(of: key)?.hasSuffix("after a restart") == true, "\(key) is marked")
        }
        for key in ["brain.mode", "tts.voice", "room"] {
            let text = try XCTUnwrap(description(of: key), "\(key) is listed")
            XCTAssertFalse(text.contains("restart"), "\(key) is live: \(text)")
        }
    }

    func testValidateReportsPositionOfBrokenJSON() throws {
        let path = cli.directory + "/broken.json"
        try Data("{\n  \"room\": \"Kitchen\",\n  \"tts\": {\"voice\" \"en-gb\"}\n}\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["config", "validate", path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("broken.json") && result.stderr.contains("line 3"), result.stderr)
        let good = cli.directory + "/good.json"
        try Data(#"{"room": "Kitchen"}"#.utf8).write(to: URL(fileURLWithPath: good))
        XCTAssertEqual(try cli.run(["config", "validate", good]).status, 0)
        let missing = try cli.run(["config", "validate", cli.directory + "/nope.json"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("nope.json"), missing.stderr)
    }
}
