import Foundation
import SusiCore
import SusiModel
import SusiPlayer
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// The control routes' speaker, over a fake player; `/say` through the daemon's hand-over.
final class StandaloneSpeakerControlTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    private func makeControl(
        _ fake: FakePlayer, speaker: (@Sendable (String) -> Void)? = nil
    ) throws -> (StandaloneSpeakerControl, SpeakerPlayer) {
        let player = SpeakerPlayer { fake }
        let (dispatcher, live, _) = try scratch.dispatcher(player: player)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { live.current }, dispatcher: dispatcher, player: player, logger: .silent,
            speaker: speaker)
        return (control, player)
    }

    func testControlsBeforePlayDoNothingAndStatusIsIdle() throws {
        let fake = FakePlayer(volume: 40)
        let (control, _) = try makeControl(fake)
        let before = control.status()
        XCTAssertEqual(before.state, "idle")
        XCTAssertEqual(before.playback, "idle")
        XCTAssertNil(before.lastInteraction)
        try control.perform(.audioVolume(VolumeAction(volume: 25)))
        XCTAssertEqual(fake.calls, [], "no player is made to remember a volume")
        XCTAssertEqual(try PlayerStateFile(nextToConfig: scratch.store.path).loadVolume(), 25)
        XCTAssertEqual(control.status().volume, 25)
        XCTAssertNotNil(control.status().lastInteraction)
    }

    func testPlayAndControlsDriveThePlayer() throws {
        let fake = FakePlayer(volume: 50)
        let (control, _) = try makeControl(fake)
        try control.perform(
            .audioPlay(
                MediaPlayAction(
                    identifier: "http://127.0.0.1/song.ogg", identifierType: MediaPlayAction.url,
                    queue: ["http://127.0.0.1/next.ogg"])))
        var status = control.status()
        XCTAssertEqual(status.playback, "playing")
        XCTAssertEqual(status.media, "http://127.0.0.1/song.ogg")
        try control.perform(.pause)
        XCTAssertEqual(control.status().playback, "paused")
        try control.perform(.resume)
        try control.perform(.audioVolume(VolumeAction(volume: control.status().volume + 15)))
        XCTAssertEqual(control.status().volume, 65)
        try control.perform(.next)
        try control.perform(.previous)
        try control.perform(.stop)
        status = control.status()
        XCTAssertEqual(status.playback, "idle")
        XCTAssertNil(status.media, "nothing is named while nothing plays")
        XCTAssertEqual(
            fake.calls,
            [
                "play url:http://127.0.0.1/song.ogg", "enqueue url:http://127.0.0.1/next.ogg", "pause", "resume", "volume 65",
                "next", "previous", "stop",
            ])
    }

    func testPlayerFailuresReachTheRoute() throws {
        let fake = FakePlayer()
        fake.fail(with: PlayerError(.missing, "no mpv"))
        let (control, _) = try makeControl(fake)
        XCTAssertThrowsError(
            try control.perform(.audioPlay(MediaPlayAction(identifier: "a.ogg", identifierType: MediaPlayAction.url)))
        ) { error in
            XCTAssertEqual((error as? PlayerError)?.code, "player-missing")
        }
    }

    func testSayIsHandedToTheSpeakerAndShutdownStopsThePlayer() throws {
        let fake = FakePlayer()
        let said = Mutex<[String]>([])
        let (control, player) = try makeControl(fake) { text in said.withLock { $0.append(text) } }
        try control.perform(.answer(AnswerAction(expression: "hello there")))
        XCTAssertEqual(said.withLock { $0 }, ["hello there"])
        try control.perform(.audioPlay(MediaPlayAction(identifier: "a.ogg", identifierType: MediaPlayAction.url)))
        control.shutdown()
        XCTAssertTrue(fake.isShutDown)
        XCTAssertNil(player.current)
        XCTAssertThrowsError(
            try control.perform(.audioPlay(MediaPlayAction(identifier: "a.ogg", identifierType: MediaPlayAction.url))),
            "no player after shutdown")
        control.shutdown()
    }

    func testSayWithoutASoundDeviceIsTheRoutesError() throws {
        _ = try scratch.store.set("audio.output", to: "no-such-device-\(UUID().uuidString.prefix(6))")
        let (control, _) = try makeControl(FakePlayer())
        XCTAssertThrowsError(try control.perform(.answer(AnswerAction(expression: "hello")))) { error in
            XCTAssertTrue(error is any SusiError, "\(error)")
        }
        XCTAssertEqual(control.status().state, "idle")
        control.shutdown()
    }
}
