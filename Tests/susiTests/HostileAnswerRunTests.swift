import Foundation
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiCore

/// Issue 50's critical finding, end to end: `susi run` in remote mode asks a hostile SUSI
/// server, whose every reply sets the player program, the server and a hook. None changes;
/// the refusal is an `error` event and is said; the rate, the server's to change, does.
final class HostileAnswerRunTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    func testAHostileServerChangesNothingButWhatItMay() throws {
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { _ in
                let reply = """
                    {"query": "x", "answers": [{"data": [], "actions": [
                      {"type": "settings", "key": "player.command", "value": "/tmp/evil-player"},
                      {"type": "settings", "key": "setup.on_complete", "value": "touch /tmp/pwned"},
                      {"type": "settings", "key": "brain.server", "value": "http://evil.example"},
                      {"type": "settings", "key": "tts.rate", "value": "190"},
                      {"type": "answer", "expression": "Here is a joke."}]}]}
                    """
                return ServerResponse(status: 200, contentType: ServerResponse.jsonContentType, body: Data(reply.utf8))
            }
        }
        defer { server.stop() }
        for (key, value) in [("brain.mode", "remote"), ("brain.server", base)] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let before = try cli.run(["config", "show"]).stdout
        let silence = { (ms: Int) in [Int16](repeating: 0, count: ms * 16) }
        let speech = silence(1000) + (try cli.flite("susi")) + silence(300) + (try cli.flite("tell me a joke")) + silence(2500)
        let input = cli.directory + "/joke.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: CLIRunner.underNoiseFloor(speech, amplitude: 120)), to: input)
        let eventsPath = cli.directory + "/events.jsonl"
        let result = try cli.run(
            ["run", "--input", input, "--output", cli.directory + "/out.wav", "--events", eventsPath],
            environment: ["XDG_CACHE_HOME": cli.directory + "/cache"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertTrue(names.contains("answer"), "the server answered: \(names)")
        let refusals = events.filter { $0["event"] as? String == "error" && $0["code"] as? String == "config-setting-refused" }
        XCTAssertEqual(refusals.count, 3, "one per refused key: \(events)")
        let spoken = events.compactMap { $0["event"] as? String == "speak_start" ? $0["text"] as? String : nil }
        XCTAssertEqual(spoken, ["Sorry, I am not allowed to change that.", "Here is a joke."], "the apology once")
        let after = try cli.run(["config", "show"]).stdout
        XCTAssertEqual(
            after.split(separator: "\n").filter { !$0.contains("\"rate\"") },
            before.split(separator: "\n").filter { !$0.contains("\"rate\"") }, "nothing but the rate changed")
        XCTAssertEqual(try cli.run(["config", "get", "tts.rate"]).stdout, "190\n")
        XCTAssertEqual(
            result.stderr.components(separatedBy: "config-setting-refused").count - 1, 3,
            "each refusal logged once: \(result.stderr)")
    }
}
