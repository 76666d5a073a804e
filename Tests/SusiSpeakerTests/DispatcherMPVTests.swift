import Foundation
import SusiCore
import SusiModel
import SusiPlayer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// The dispatcher driving the real mpv (`--ao=null`), checked through mpv's own properties.
final class DispatcherMPVTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    /// Writes a 440 Hz tone WAV of `seconds` and returns its path.
    private func tone(_ name: String, seconds: Double) throws -> String {
        let rate = 16_000
        let samples = (0..<Int(Double(rate) * seconds)).map { index in
            Int16(8_000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate)))
        }
        let path = scratch.directory + "/" + name
        try WAVFile.write(AudioChunk(format: AudioFormat(sampleRate: rate, channels: 1), samples: samples), to: path)
        return path
    }

    func testPerformsChatActions() throws {
        let song = try tone("song.wav", seconds: 10)
        try scratch.store.set("player.media_dirs", to: "[\"\(scratch.directory)\"]")
        let configuration = MPVPlayer.Configuration(
            command: "mpv", arguments: ["--ao=null", "--no-config"], volume: 50, replyTimeout: 5, startTimeout: 10,
            runtimeDirectory: scratch.directory)
        let player = MPVPlayer(configuration: configuration, stateFile: nil)
        let slot = SpeakerPlayer { player }
        defer { slot.shutdown() }
        let (dispatcher, _, _) = try scratch.dispatcher(player: slot)
        func perform(_ action: ChatAction) {
            XCTAssertNil(dispatcher.perform(action, from: .builtIn).failure, action.type)
        }

        perform(.answer(AnswerAction(expression: "hello")))
        XCTAssertNil(slot.current, "an answer is no player action")
        perform(.pause)
        XCTAssertNotNil(slot.current, "a player action, even with nothing to pause")
        XCTAssertNil(player.processIdentifier, "a control with nothing playing starts nothing")

        perform(.audioPlay(MediaPlayAction(identifier: song, identifierType: "url")))
        XCTAssertTrue(eventually { (try? player.property("path"))??.stringValue == song })
        perform(.pause)
        XCTAssertEqual(try player.property("pause")?.boolValue, true)
        perform(.resume)
        XCTAssertEqual(try player.property("pause")?.boolValue, false)
        perform(.audioVolume(VolumeAction(volume: 30)))
        XCTAssertEqual(try player.property("volume")?.doubleValue, 30)
        try player.changeVolume(by: 10)
        XCTAssertEqual(try player.property("volume")?.doubleValue, 40)
        try player.changeVolume(by: -100)
        XCTAssertEqual(player.volume, 0)
        perform(.stop)
        XCTAssertEqual(try player.property("idle-active")?.boolValue, true)
    }

    /// Issue 51: the watch on what was asked to play settles when mpv loads it or fails to,
    /// and a failure has reached `onFailure` (which queues the apology) by then.
    func testThePlayWatchSettlesAfterTheFailureIsHeard() throws {
        let song = try tone("song.wav", seconds: 10)
        try scratch.store.set("player.args", to: #"["--ao=null", "--no-config"]"#)
        let config = try scratch.store.load()
        let failures = Mutex<[String]>([])
        let slot = SpeakerPlayer.mpv(config: { config }, configPath: scratch.store.path, logger: .silent) { error in
            failures.withLock { $0.append(error.code) }
        }
        defer { slot.shutdown() }
        XCTAssertFalse(slot.watch.isPending)
        slot.watch.expect()
        try slot.player().play(identifier: song, type: "url")
        XCTAssertTrue(eventually { !slot.watch.isPending }, "loaded")
        XCTAssertEqual(failures.withLock { $0 }, [])

        slot.watch.expect()
        try slot.player().play(identifier: scratch.directory + "/no-such-song.ogg", type: "url")
        XCTAssertTrue(slot.watch.isPending || !failures.withLock { $0 }.isEmpty)
        XCTAssertTrue(eventually { !slot.watch.isPending }, "failed")
        XCTAssertEqual(failures.withLock { $0 }, ["player-load-failed"], "heard before the watch settled")
    }
}

extension DispatcherMPVTests {
    /// An answer of "/" made mpv walk the whole file system, and `file:///...` played any
    /// file: now they are refused with an apology, and mpv is never started.
    func testAnswersCannotMakeMPVOpenLocalFiles() throws {
        let song = try tone("song.wav", seconds: 5)
        let outside = try tone("outside.wav", seconds: 1)
        let music = scratch.directory + "/music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: song, toPath: music + "/song.wav")
        try FileManager.default.createSymbolicLink(atPath: music + "/escape.wav", withDestinationPath: outside)
        try scratch.store.set("player.media_dirs", to: "[\"\(music)\"]")
        let configuration = MPVPlayer.Configuration(
            command: "mpv", arguments: ["--ao=null", "--no-config"], volume: 50, replyTimeout: 5, startTimeout: 10,
            runtimeDirectory: scratch.directory)
        let player = MPVPlayer(configuration: configuration, stateFile: nil)
        let slot = SpeakerPlayer { player }
        defer { slot.shutdown() }
        let (dispatcher, _, _) = try scratch.dispatcher(player: slot)

        for (identifier, type) in [
            ("/", "url"), ("/", "youtube"), ("file:///etc/passwd", "url"), ("/etc/passwd", "url"), ("/dev/zero", "url"),
            ("/proc/self/environ", "url"), (music, "url"), (music + "/../outside.wav", "url"), (music + "/escape.wav", "url"),
            ("file://" + outside, "url"),
        ] {
            let outcome = dispatcher.perform(
                .audioPlay(MediaPlayAction(identifier: identifier, identifierType: type)), from: .builtIn)
            XCTAssertEqual(outcome.failure?.code, "player-source-refused", identifier)
            XCTAssertEqual(outcome.failure?.stage, .player, identifier)
            XCTAssertEqual(outcome.say, "Sorry, I can't play that.", identifier)
        }
        XCTAssertNil(player.processIdentifier, "mpv was never started, so never asked")

        // A file in the media folder plays, by its file URL too.
        XCTAssertNil(
            dispatcher.perform(
                .videoPlay(MediaPlayAction(identifier: "file://" + music + "/song.wav", identifierType: "url")), from: .builtIn
            )
            .failure)
        XCTAssertTrue(eventually { (try? player.property("path"))??.stringValue == music + "/song.wav" })
    }
}
