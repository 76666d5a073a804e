import Foundation
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

/// A SUSI server answering with local files, through `susi run`: refused with a `player` error
/// event and a spoken apology, and the player program is never even started.
final class UnsafeMediaRunTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    func testAnAnswerOfSlashOrAFileURLIsRefusedAndTheApologySpoken() throws {
        let (server, base) = try startServer { router in
            router.add(["GET", "POST"], "/susi/chat.json") { request in
                .json(object: [
                    "query": request.parameter("q") ?? "",
                    "answers": [
                        [
                            "actions": [
                                ["type": "answer", "expression": "Here is your music."],
                                ["type": "audio_play", "identifier": "/", "identifier_type": "url"],
                                ["type": "video_play", "identifier": "file:///etc/passwd", "identifier_type": "url"],
                            ]
                        ]
                    ],
                ])
            }
        }
        defer { server.stop() }
        // The player program records that it was started; it must not be.
        let marker = cli.directory + "/player-started"
        let player = cli.directory + "/player.sh"
        try Data("#!/bin/sh\ntouch '\(marker)'\nexec mpv --ao=null --no-config \"$@\"\n".utf8)
            .write(to: URL(fileURLWithPath: player))
        XCTAssertEqual(chmod(player, 0o755), 0)
        for (key, value) in [
            ("brain.mode", "remote"), ("brain.server", base), ("hotword.verify", "false"), ("player.command", player),
            // Whisper's time limit is not under test, and the machine running the tests may be busy.
            ("stt.whisper_timeout_ms", "10000"),
        ] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let input = try cli.spokenRequests(["play my music"], tailMs: 4000)
        let result = try cli.run(["run", "--input", input, "--output", cli.directory + "/out.wav", "--events", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let events = result.stdout.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        let errors = events.filter { $0["event"] as? String == "error" }
        XCTAssertEqual(errors.compactMap { $0["stage"] as? String }, ["player", "player"], result.stdout)
        XCTAssertEqual(errors.compactMap { $0["code"] as? String }, ["player-source-refused", "player-source-refused"])
        let spoken = events.filter { $0["event"] as? String == "speak_start" }.compactMap { $0["text"] as? String }
        XCTAssertEqual(spoken, ["Here is your music.", "Sorry, I can't play that."], "one apology for both")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "the player was never started")
    }
}
