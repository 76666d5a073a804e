import Foundation
import SusiModel
import SusiPlayer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// Issue 53: two speakers in sync through the real Snapcast on 127.0.0.1. The serving
/// speaker's mpv plays into snapserver's pipe; its own snapclient and a joining speaker's both
/// get the stream (each writing what it would play into a file).
final class MultiroomTests: XCTestCase {
    private var serving: ScratchConfig!
    private var joining: ScratchConfig!

    override func setUpWithError() throws {
        for program in ["snapserver", "snapclient", "mpv"] where MPVPlayer.executable(for: program) == nil {
            throw XCTSkip("\(program) is not installed (make deps installs it)")
        }
        serving = try ScratchConfig()
        joining = try ScratchConfig()
    }

    override func tearDown() {
        serving.remove()
        joining.remove()
    }

    private func freePort() throws -> Int {
        let (descriptor, port) = try loopbackSocket()
        close(descriptor)
        return Int(port)
    }

    /// The samples of a snapclient's output file louder than `level` (the test tone at volume
    /// 70 peaks near 1,000; silence is 0).
    private func loudSamples(_ path: String, level: Int16 = 300) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { return 0 }
        return data.withUnsafeBytes { bytes in
            bytes.bindMemory(to: Int16.self).reduce(0) { $0 + (abs(Int($1)) > level ? 1 : 0) }
        }
    }

    func testTheServingSpeakersMusicReachesBothRooms() throws {
        let port = try freePort()
        for (key, value) in [
            ("setup.bind", "127.0.0.1"), ("player.multiroom", "true"), ("player.multiroom_port", "\(port)"),
            ("room", "kitchen"), ("player.args", #"["--no-config"]"#),
        ] { try serving.store.set(key, to: value) }
        for (key, value) in [("player.multiroom", "true"), ("player.multiroom_server", "127.0.0.1:\(port)"), ("room", "bedroom")]
        {
            try joining.store.set(key, to: value)
        }
        let serveConfig = try serving.store.load()
        let joinConfig = try joining.store.load()
        let server = Multiroom(config: serveConfig, pipe: StateDirectory(path: serving.directory).multiroomPipe)
        let client = Multiroom(config: joinConfig, pipe: StateDirectory(path: joining.directory).multiroomPipe)
        XCTAssertEqual(server.role, .serve(port: port))
        XCTAssertEqual(client.role, .join(host: "127.0.0.1", port: port))
        XCTAssertEqual(client.playerArguments, [], "a joining speaker plays its own answers itself")

        let kitchen = serving.directory + "/kitchen.raw", bedroom = joining.directory + "/bedroom.raw"
        let served = MultiroomProcesses(server, clientOutput: ["--player", "file:filename=" + kitchen], logger: .silent)
        let joined = MultiroomProcesses(client, clientOutput: ["--player", "file:filename=" + bedroom], logger: .silent)
        defer {
            served.stop()
            joined.stop()
        }
        try served.start()
        try joined.start()
        XCTAssertEqual(served.processIdentifiers.count, 2, "snapserver and its own snapclient")
        XCTAssertEqual(joined.processIdentifiers.count, 1)

        let song = serving.directory + "/Music/tone.flac"
        try taggedSong(song)
        let player = SpeakerPlayer.mpv(config: { serveConfig }, configPath: serving.store.path, logger: .silent)
        defer { player.shutdown() }
        // Both clients must have connected before the second of music is sent.
        Thread.sleep(forTimeInterval: 1)
        try player.player().play(identifier: song, type: MediaPlayAction.url)
        XCTAssertTrue(
            eventually(timeout: 15) { loudSamples(kitchen) > 48_000 && loudSamples(bedroom) > 48_000 },
            "kitchen \(loudSamples(kitchen)), bedroom \(loudSamples(bedroom)) loud samples")

        // A program that dies is started again; after stop() none is left.
        let before = Set(joined.processIdentifiers)
        kill(try XCTUnwrap(before.first), SIGKILL)
        XCTAssertTrue(eventually(timeout: 10) { !joined.processIdentifiers.isEmpty && Set(joined.processIdentifiers) != before })
        let all = served.processIdentifiers + joined.processIdentifiers
        served.stop()
        joined.stop()
        XCTAssertEqual(served.processIdentifiers + joined.processIdentifiers, [])
        for pid in all { XCTAssertNotEqual(kill(pid, 0), 0, "process \(pid) is gone") }
    }

    func testTheRoleComesFromTheConfig() throws {
        var config = Config()
        XCTAssertEqual(Multiroom(config: config, pipe: "/s/multiroom.pipe").role, .off)
        XCTAssertTrue(Multiroom(config: config, pipe: "/s/multiroom.pipe").programs(clientOutput: []).isEmpty)
        config.player.multiroom = true
        let serve = Multiroom(config: config, pipe: "/s/multiroom.pipe")
        XCTAssertEqual(serve.role, .serve(port: 1704))
        XCTAssertEqual(serve.programs(clientOutput: []).map(\.program), ["snapserver", "snapclient"])
        XCTAssertTrue(serve.playerArguments.contains("--ao-pcm-file=/s/multiroom.pipe"))
        config.player.multiroomServer = "living-room.local"
        XCTAssertEqual(Multiroom(config: config, pipe: "/s/multiroom.pipe").role, .join(host: "living-room.local", port: 1704))
        config.player.multiroomServer = "[fd00::2]:1800"
        XCTAssertEqual(Multiroom(config: config, pipe: "/s/multiroom.pipe").role, .join(host: "fd00::2", port: 1800))
        config.player.multiroomServer = "fd00::2"
        XCTAssertEqual(Multiroom(config: config, pipe: "/s/multiroom.pipe").role, .join(host: "fd00::2", port: 1704))
        XCTAssertThrowsError(try serving.store.set("player.multiroom_server", to: "--player=file:filename=/etc/x"))
    }
}
