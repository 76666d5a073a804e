import Foundation
import SusiCore
import SusiPlayer
import SusiTestSupport
import Synchronization
import XCTest

/// `-vv` shows what the player loads, but never a stream's password or token (issue 50).
final class PlayerLogRedactionTests: XCTestCase {
    private final class Lines: LogHandler {
        let lines = Mutex<[String]>([])
        func write(level: LogLevel, label: String, message: String) { lines.withLock { $0.append(message) } }
        var all: [String] { lines.withLock { $0 } }
    }

    func testLoadedURLsAreLoggedWithoutCredentials() throws {
        let directory = try ScratchDirectory("susi-player-redaction")
        defer { directory.remove() }
        let lines = Lines()
        let configuration = MPVPlayer.Configuration(
            command: "mpv", arguments: ["--ao=null", "--no-config"], volume: 50, replyTimeout: 5, startTimeout: 10,
            runtimeDirectory: directory.path)
        let player = MPVPlayer(configuration: configuration, logger: Logger(label: "player", level: .trace, handler: lines))
        defer { player.shutdown() }
        try player.play(identifier: "http://radio:hunter2@127.0.0.1:9/live.mp3?access_token=t0ps3cret&x=1", type: "url")
        try player.enqueue(identifier: "https://radio:hunter2@127.0.0.1:9/next.mp3?token=t0ps3cret", type: "url")
        let loads = lines.all.filter { $0.hasPrefix("loadfile") }
        XCTAssertEqual(loads.count, 2, "\(lines.all)")
        for line in lines.all {
            XCTAssertFalse(line.contains("hunter2") || line.contains("t0ps3cret"), line)
        }
        XCTAssertEqual(loads.first, "loadfile replace: http://radio:***@127.0.0.1:9/live.mp3?access_token=***&x=1")
    }
}
