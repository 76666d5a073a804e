import Foundation
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiCore

/// Issue 49: `susi language set de` with `stt.whisper_model base` hears a German question
/// after the wake word and sends it to SUSI.AI in German, through `susi run`.
final class GermanRunTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    /// `text` said by eSpeak NG's German voice with `variant`, slowly, at 16 kHz.
    private func german(_ text: String, variant: String) throws -> [Int16] {
        let path = cli.directory + "/german-\(UUID().uuidString).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", "de+\(variant)", "-s", "130", "-w", path, text]
        try process.run()
        process.waitUntilExit()
        return try AudioConverter.convert(try WAVFile.read(path: path), to: .speech).samples
    }

    func testAGermanQuestionIsHeardInGermanAndAskedInGerman() throws {
        let asked = Mutex<[String: String]>([:])
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { request in
                asked.withLock { $0 = request.query }
                let answer =
                    #"{"query": "x", "answers": [{"data": [], "actions": [{"type": "answer", "expression": "Leonardo da Vinci."}]}]}"#
                return ServerResponse(status: 200, contentType: ServerResponse.jsonContentType, body: Data(answer.utf8))
            }
        }
        defer { server.stop() }
        XCTAssertEqual(try cli.run(["language", "set", "de"]).status, 0)
        // What is tested is what it hears, not how fast this shared machine is (`make bench`).
        for (key, value) in [
            ("brain.mode", "remote"), ("brain.server", base), ("stt.whisper_model", "base"), ("stt.whisper_timeout_ms", "30000"),
        ] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let silence = { (ms: Int) in [Int16](repeating: 0, count: ms * 16) }
        let speech =
            silence(1000) + (try cli.flite("susi")) + silence(300)
            + (try german("Wer hat die Mona Lisa gemalt", variant: "klatt"))
            + silence(2500)
        let input = cli.directory + "/frage.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: CLIRunner.underNoiseFloor(speech, amplitude: 120)), to: input)
        let eventsPath = cli.directory + "/events.jsonl"
        let result = try cli.run(
            ["run", "--input", input, "--output", cli.directory + "/out.wav", "--events", eventsPath],
            environment: ["XDG_CACHE_HOME": cli.directory + "/cache"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let transcript = try XCTUnwrap(
            events.first { $0["event"] as? String == "transcript" }?["text"] as? String, "\(events)")
        // eSpeak NG's German is hard to hear (bench/RESULTS.md): two of its words no English
        // reading would write ("wer hat die mona lieb agamallet", "wehr hat die mona lisa gemalt").
        let words = Set(transcript.split(separator: " ").map(String.init))
        XCTAssertGreaterThanOrEqual(words.intersection(["wer", "die", "gemalt"]).count, 2, transcript)
        let query = asked.withLock { $0 }
        XCTAssertEqual(query["q"], transcript, "sent as heard")
        XCTAssertEqual(query["language"], "de")
    }
}
