import Foundation
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiCore

/// Issue 17's crash, reproduced with voices this project may use: `susi run` in remote mode
/// hears "susi", a 0.3 s gap and a long open question said by flite's slt voice (the report
/// used a Festival voice) and must neither crash nor lose the interaction.
final class OpenQuestionRunTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    func testALongQuestionAfterAShortGapIsHeardAndSentWithoutACrash() throws {
        let asked = QueryBox()
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { request in
                asked.set(request.query["q"] ?? "")
                let answer =
                    #"{"query": "x", "answers": [{"data": [], "actions": [{"type": "answer", "expression": "Twelve."}]}]}"#
                return ServerResponse(status: 200, contentType: ServerResponse.jsonContentType, body: Data(answer.utf8))
            }
        }
        defer { server.stop() }
        for (key, value) in [("brain.mode", "remote"), ("brain.server", base)] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let silence = { (ms: Int) in [Int16](repeating: 0, count: ms * 16) }
        let speech =
            silence(1000) + (try cli.flite("susi")) + silence(300)
            + (try cli.flite("what is the square root of one hundred forty four")) + silence(2500)
        let noisy = CLIRunner.underNoiseFloor(speech, amplitude: 120)
        let input = cli.directory + "/question.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: noisy), to: input)
        let eventsPath = cli.directory + "/events.jsonl"
        // A cache of its own: other checkouts' builds of the models elsewhere cannot remove its files.
        let result = try cli.run(
            ["run", "--input", input, "--output", cli.directory + "/out.wav", "--events", eventsPath],
            environment: ["XDG_CACHE_HOME": cli.directory + "/cache"])
        XCTAssertEqual(result.status, 0, "no crash: \(result.stderr)")
        let events = try String(contentsOfFile: eventsPath, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let names = events.compactMap { $0["event"] as? String }
        XCTAssertTrue(names.contains("wake"), "\(names)")
        let transcript = events.first { $0["event"] as? String == "transcript" }?["text"] as? String
        let sttError = events.first { $0["event"] as? String == "error" && $0["stage"] as? String == "stt" }
        XCTAssertTrue(transcript != nil || sttError != nil, "the interaction ends with a transcript or an stt error: \(names)")
        XCTAssertEqual(names.last, "idle", "and the speaker listens again")
        if let transcript {
            XCTAssertEqual(asked.value, transcript, "remote mode sends what it heard")
            XCTAssertTrue(transcript.contains("square root"), "an open question, not forced into a skill: \(transcript)")
        }
    }
}

/// The last query the fake server got, from its thread to the test's.
private final class QueryBox: Sendable {
    private let query = Mutex("")
    func set(_ value: String) { query.withLock { $0 = value } }
    var value: String { query.withLock { $0 } }
}
