import Foundation
import SusiCore
import SusiPlayer
import SusiTestSupport
import XCTest

/// Runs the real mpv with `--ao=null` on WAV files written by the test, and checks through
/// mpv's own properties that each command took effect.
final class MPVPlayerTests: XCTestCase {
    private var directory = ""
    private var players: [MPVPlayer] = []

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-player-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for player in players { player.shutdown() }
        players.removeAll()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Helpers

    /// A player running mpv silently, shut down by `tearDown` whatever happens in the test.
    private func makePlayer(
        command: String = "mpv", arguments: [String] = [], volume: Int = 70, stateFile: PlayerStateFile? = nil,
        replyTimeout: TimeInterval = 5
    ) -> MPVPlayer {
        let configuration = MPVPlayer.Configuration(
            command: command, arguments: ["--ao=null", "--no-config"] + arguments, volume: volume,
            replyTimeout: replyTimeout,
            startTimeout: 10, runtimeDirectory: directory)
        let player = MPVPlayer(configuration: configuration, stateFile: stateFile)
        players.append(player)
        return player
    }

    /// Writes a sine tone WAV of `seconds` and returns its path.
    private func tone(_ name: String, seconds: Double, frequency: Double = 440) throws -> String {
        let rate = 16_000
        let samples = (0..<Int(Double(rate) * seconds)).map { index in
            Int16(8_000 * sin(2 * Double.pi * frequency * Double(index) / Double(rate)))
        }
        let path = directory + "/" + name
        try WAVFile.write(AudioChunk(format: AudioFormat(sampleRate: rate, channels: 1), samples: samples), to: path)
        return path
    }

    private func number(_ player: MPVPlayer, _ property: String) throws -> Double? {
        try player.property(property)?.doubleValue
    }

    /// The playback position, nil while mpv has none (still opening the file).
    private func position(_ player: MPVPlayer) -> Double? {
        (try? player.property("time-pos"))??.doubleValue
    }

    private func flag(_ player: MPVPlayer, _ property: String) throws -> Bool? {
        try player.property(property)?.boolValue
    }

    /// What mpv is playing, nil while it has no path (between entries, still opening).
    private func path(_ player: MPVPlayer) -> String? {
        (try? player.property("path"))??.stringValue
    }

    /// The state letter of process `pid` in /proc (R running, S sleeping, T stopped, ...).
    private func processState(_ pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ").first.map(String.init)
    }

    private func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0
    }

    private func assertPlayerError(
        _ expression: @autoclosure () throws -> Void, _ code: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try expression(), file: file, line: line) { error in
            XCTAssertEqual((error as? PlayerError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? PlayerError)?.stage, .player, file: file, line: line)
        }
    }

    // MARK: Playing and controlling

    func testPlayLoadsTheFileAndPlays() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        XCTAssertNil(player.processIdentifier, "mpv starts on first use, not before")
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))
        XCTAssertTrue(eventually { path(player) == song }, "plays \(song)")
        XCTAssertEqual(try flag(player, "pause"), false)
        XCTAssertEqual(try flag(player, "idle-active"), false)
        XCTAssertEqual(player.state, .playing)
        XCTAssertTrue(eventually { (position(player) ?? 0) > 0.2 }, "playback position advances")
        let socket = try XCTUnwrap(player.socketPath)
        let attributes = try FileManager.default.attributesOfItem(
            atPath: (socket as NSString).deletingLastPathComponent)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
    }

    func testPlayAcceptsFileURL() throws {
        let song = try tone("song.wav", seconds: 5)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: URL(fileURLWithPath: song).absoluteString, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))
        XCTAssertNil(events.wait(timeout: 0.3) { if case .failed = $0 { return true } else { return false } })
    }

    func testPauseAndResume() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))

        try player.pause()
        XCTAssertEqual(player.state, .paused)
        XCTAssertEqual(try flag(player, "pause"), true)
        XCTAssertTrue(events.wait(for: .paused))
        let stoppedAt = try XCTUnwrap(position(player))
        usleep(300_000)
        XCTAssertEqual(try XCTUnwrap(position(player)), stoppedAt, accuracy: 0.05, "paused: time stands still")

        try player.resume()
        XCTAssertEqual(player.state, .playing)
        XCTAssertEqual(try flag(player, "pause"), false)
        XCTAssertTrue(events.wait(for: .resumed))
    }

    func testPlayAfterPauseUnpauses() throws {
        let first = try tone("first.wav", seconds: 10)
        let second = try tone("second.wav", seconds: 10, frequency: 660)
        let player = makePlayer()
        try player.play(identifier: first, type: "url")
        try player.pause()
        try player.play(identifier: second, type: "url")
        XCTAssertEqual(try flag(player, "pause"), false)
        XCTAssertEqual(player.state, .playing)
        XCTAssertTrue(eventually { path(player) == second })
    }

    func testRestartSeeksToTheBeginning() throws {
        let song = try tone("song.wav", seconds: 20)
        let player = makePlayer()
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(eventually { (position(player) ?? 0) > 0.8 }, "plays for a while first")
        try player.pause()
        try player.restart()
        // mpv answers the seek before it has carried it out: the position comes back soon after.
        XCTAssertTrue(eventually { (position(player) ?? 1) < 0.5 }, "back at the beginning")
        XCTAssertEqual(try flag(player, "pause"), false, "restart plays again")
    }

    func testStopGoesIdle() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))
        try player.stop()
        XCTAssertEqual(player.state, .idle)
        XCTAssertTrue(eventually { (try? flag(player, "idle-active")) == true }, "mpv goes idle")
        XCTAssertTrue(events.wait(for: .endOfFile(reason: .stop)))
        XCTAssertTrue(events.wait(for: .idle))
        XCTAssertNotNil(player.processIdentifier, "mpv stays up, idle, for the next request")
        XCTAssertFalse(try player.next(), "nothing to skip to after stop")
    }

    func testNextAndPreviousOverAPlaylist() throws {
        let first = try tone("first.wav", seconds: 20)
        let second = try tone("second.wav", seconds: 20, frequency: 660)
        let player = makePlayer()
        try player.play(identifier: first, type: "url")
        try player.enqueue(identifier: second, type: "url")
        XCTAssertEqual(try player.property("playlist-count")?.intValue, 2)
        XCTAssertTrue(eventually { path(player) == first })

        XCTAssertTrue(try player.next())
        XCTAssertTrue(eventually { path(player) == second })
        XCTAssertFalse(try player.next(), "no entry after the last")
        XCTAssertTrue(try player.previous())
        XCTAssertTrue(eventually { path(player) == first })
        XCTAssertFalse(try player.previous(), "no entry before the first")

        try player.shuffle()
        XCTAssertEqual(try player.property("playlist-count")?.intValue, 2, "shuffle keeps the entries")
    }

    func testEnqueueStartsPlaybackWhenIdle() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.enqueue(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))
        XCTAssertTrue(eventually { path(player) == song }, "plays \(song)")
    }

    func testEndOfFileThenIdle() throws {
        let song = try tone("short.wav", seconds: 0.4)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .endOfFile(reason: .eof), timeout: 10))
        XCTAssertTrue(events.wait(for: .idle))
        XCTAssertEqual(player.state, .idle)
        let all = events.all
        let loaded = try XCTUnwrap(all.firstIndex(of: .fileLoaded))
        let ended = try XCTUnwrap(all.firstIndex(of: .endOfFile(reason: .eof)))
        XCTAssertLessThan(loaded, ended, "events keep mpv's order")
    }

    // MARK: Volume and ducking

    func testVolumeDuckAndUnduck() throws {
        let song = try tone("song.wav", seconds: 20)
        let player = makePlayer(volume: 60)
        try player.play(identifier: song, type: "url")
        XCTAssertEqual(try number(player, "volume"), 60, "starts at the configured volume")

        try player.setVolume(80)
        XCTAssertEqual(try number(player, "volume"), 80)
        XCTAssertEqual(player.volume, 80)

        player.duck(to: 25)
        XCTAssertTrue(player.isDucked)
        XCTAssertEqual(try number(player, "volume"), 20)
        player.duck(to: 25)
        XCTAssertEqual(try number(player, "volume"), 20, "ducking twice does not compound")
        XCTAssertEqual(player.volume, 80, "the listening volume is kept")

        try player.setVolume(40)
        XCTAssertEqual(try number(player, "volume"), 10, "a volume change while ducked stays ducked")

        player.unduck()
        XCTAssertFalse(player.isDucked)
        XCTAssertEqual(try number(player, "volume"), 40)
        player.unduck()
        XCTAssertEqual(try number(player, "volume"), 40)

        try player.setVolume(250)
        XCTAssertEqual(player.volume, 100, "clamped")
        XCTAssertEqual(try number(player, "volume"), 100)
        try player.setVolume(-5)
        XCTAssertEqual(try number(player, "volume"), 0)
    }

    func testDuckBeforeMPVRunsAppliesWhenItStarts() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer(volume: 50)
        player.duck(to: 20)
        player.unduck()
        player.duck(to: 20)
        XCTAssertNil(player.processIdentifier, "ducking does not start mpv")
        try player.play(identifier: song, type: "url")
        XCTAssertEqual(try number(player, "volume"), 10)
        player.unduck()
        XCTAssertEqual(try number(player, "volume"), 50)
    }

    func testVolumeSurvivesARestart() throws {
        let song = try tone("song.wav", seconds: 10)
        let stateFile = PlayerStateFile(path: directory + "/state/player-state.json")
        let first = makePlayer(volume: 70, stateFile: stateFile)
        try first.setVolume(42)
        first.shutdown()
        XCTAssertEqual(try stateFile.loadVolume(), 42)

        let second = makePlayer(volume: 70, stateFile: stateFile)
        XCTAssertEqual(second.volume, 42)
        try second.play(identifier: song, type: "url")
        XCTAssertEqual(try number(second, "volume"), 42)
    }

    func testCorruptStateFileFallsBackToConfiguredVolume() throws {
        let path = directory + "/player-state.json"
        try Data("{broken".utf8).write(to: URL(fileURLWithPath: path))
        let player = makePlayer(volume: 33, stateFile: PlayerStateFile(path: path))
        XCTAssertEqual(player.volume, 33)
    }

    // MARK: Failures

    func testGarbageFileReportsLoadFailed() throws {
        let garbage = directory + "/garbage.mp3"
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: garbage))
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: garbage, type: "url")
        let failure = events.wait(timeout: 10) { if case .failed = $0 { return true } else { return false } }
        guard case .failed(let error)? = failure else { return XCTFail("no load failure reported: \(events.all)") }
        XCTAssertEqual(error.code, "player-load-failed")
        XCTAssertEqual(error.stage, .player)
        XCTAssertTrue(error.message.contains(garbage), error.message)
        XCTAssertTrue(events.wait(for: .endOfFile(reason: .error)))
        XCTAssertTrue(eventually { player.state == .idle })
        XCTAssertNotNil(player.processIdentifier, "a bad file does not take mpv down")
    }

    func testMissingFileReportsLoadFailed() throws {
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: directory + "/no-such-file.wav", type: "url")
        let failure = events.wait(timeout: 10) { if case .failed = $0 { return true } else { return false } }
        XCTAssertEqual(
            failure,
            .failed(
                PlayerError(
                    .loadFailed, "the media player could not play \(directory)/no-such-file.wav: loading failed")))
    }

    func testKilledPlayerIsReportedAndRestartedByTheNextPlay() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: song, type: "url")
        let pid = try XCTUnwrap(player.processIdentifier)
        XCTAssertEqual(kill(pid, SIGKILL), 0)

        let died = events.wait(timeout: 5) { if case .failed = $0 { return true } else { return false } }
        guard case .failed(let error)? = died else { return XCTFail("death not reported: \(events.all)") }
        XCTAssertEqual(error.code, "player-died")
        XCTAssertEqual(player.state, .idle)
        XCTAssertNil(player.processIdentifier)
        XCTAssertNoThrow(try player.pause(), "controls with no mpv do nothing")

        try player.play(identifier: song, type: "url")
        let restarted = try XCTUnwrap(player.processIdentifier)
        XCTAssertNotEqual(restarted, pid)
        XCTAssertTrue(eventually { path(player) == song }, "plays \(song)")
        XCTAssertEqual(player.state, .playing)
    }

    func testPlayRightAfterAKillStillPlays() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        try player.play(identifier: song, type: "url")
        let pid = try XCTUnwrap(player.processIdentifier)
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        // No waiting for the death to be noticed: the request itself must cope.
        try player.play(identifier: song, type: "url")
        let restarted = try XCTUnwrap(player.processIdentifier)
        XCTAssertNotEqual(restarted, pid)
        XCTAssertTrue(eventually { path(player) == song }, "plays \(song)")
    }

    func testUnresponsivePlayerTimesOut() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer(replyTimeout: 0.5)
        try player.play(identifier: song, type: "url")
        // Pausing while idle sends nothing; wait until mpv reports it plays (slow on a busy machine)
        // and has played a while, so no late report of its idle start is still on the way.
        XCTAssertTrue(
            eventually { player.state == .playing && (position(player) ?? 0) > 0.3 }, "plays before it is frozen")
        let pid = try XCTUnwrap(player.processIdentifier)
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        defer { kill(pid, SIGCONT) }
        // kill() returns before the signal takes effect: mpv, running on the other core, could
        // still answer a request sent at once.
        XCTAssertTrue(eventually { processState(pid) == "T" }, "mpv is stopped")
        XCTAssertEqual(player.state, .playing, "a paused or idle player would send nothing to time out")
        assertPlayerError(try player.pause(), "player-timeout")
        kill(pid, SIGCONT)
        XCTAssertNoThrow(try player.resume(), "answers again once it runs")
    }

    func testMissingCommandGivesPlayerMissing() throws {
        let byPath = makePlayer(command: directory + "/no-such-mpv")
        assertPlayerError(try byPath.play(identifier: "/tmp/x.wav", type: "url"), "player-missing")
        assertPlayerError(try byPath.start(), "player-missing")
        let byName = makePlayer(command: "susi-no-such-player-binary")
        assertPlayerError(try byName.play(identifier: "some jazz", type: "search"), "player-missing")
        XCTAssertNoThrow(try byName.stop(), "controls without a player do nothing")
    }

    func testPlayerThatExitsAtOnceGivesStartFailed() throws {
        let player = makePlayer(arguments: ["--no-such-option-for-susi-test"])
        assertPlayerError(try player.start(), "player-start-failed")
        XCTAssertNil(player.processIdentifier)
    }

    func testInvalidIdentifierDoesNotStartThePlayer() throws {
        let player = makePlayer()
        assertPlayerError(try player.play(identifier: "jazz\u{1}", type: "search"), "player-invalid-identifier")
        assertPlayerError(try player.play(identifier: "lavfi://sine", type: "url"), "player-invalid-identifier")
        XCTAssertNil(player.processIdentifier)
    }

    // MARK: Ownership

    func testShutdownKillsTheProcessAndRemovesTheSocket() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        try player.play(identifier: song, type: "url")
        let pid = try XCTUnwrap(player.processIdentifier)
        let socket = try XCTUnwrap(player.socketPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: socket))

        player.shutdown()
        XCTAssertFalse(isAlive(pid))
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
        XCTAssertFalse(FileManager.default.fileExists(atPath: (socket as NSString).deletingLastPathComponent))
        XCTAssertEqual(player.state, .idle)
        assertPlayerError(try player.play(identifier: song, type: "url"), "player-start-failed")
        XCTAssertNil(player.processIdentifier, "no player is started after shutdown")
    }

    func testReleasingThePlayerKillsTheProcess() throws {
        let song = try tone("song.wav", seconds: 10)
        var pid: Int32 = 0
        var socket = ""
        do {
            let configuration = MPVPlayer.Configuration(
                arguments: ["--ao=null", "--no-config"], runtimeDirectory: directory)
            let player = MPVPlayer(configuration: configuration)
            try player.play(identifier: song, type: "url")
            pid = try XCTUnwrap(player.processIdentifier)
            socket = try XCTUnwrap(player.socketPath)
        }
        XCTAssertTrue(eventually(timeout: 3) { !isAlive(pid) }, "deinit stopped mpv")
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
    }

    func testStateFollowsPauseFromEvents() throws {
        let song = try tone("song.wav", seconds: 10)
        let player = makePlayer()
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: song, type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded))
        events.clear()
        try player.pause()
        XCTAssertTrue(events.wait(for: .paused))
        try player.pause()
        try player.resume()
        XCTAssertTrue(events.wait(for: .resumed))
        XCTAssertEqual(events.all.filter { $0 == .paused }.count, 1, "a repeated pause is reported once")
    }
}
