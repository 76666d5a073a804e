import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiPlayer
import SusiServer
import Synchronization
import XCTest

@testable import SusiSpeaker

/// The one config observer of `susi run`: what it rebuilds, when, and what it says.
final class SpeakerConfigObserverTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws { scratch = try ScratchConfig() }
    override func tearDown() { scratch.remove() }

    /// A brain that only says which config it was made from.
    final class MadeBrain: ChatBrain, Sendable {
        let mode: String
        let server: String
        let latitude: Double?

        init(_ config: Config) {
            mode = config.brain.mode
            server = config.brain.server
            latitude = config.location.latitude
        }

        func answer(_ query: String) throws -> ChatResponse {
            ChatResponse(query: query, queryDate: "", answerDate: "", answerTime: 0, answers: [])
        }
        func understanding(of text: String) -> CommandUnderstanding? { mode == "local" ? CommandUnderstanding() : nil }
    }

    /// Collects values from any thread.
    final class Recorder<Item: Sendable>: Sendable {
        private let stored = Mutex<[Item]>([])
        func add(_ item: Item) { stored.withLock { $0.append(item) } }
        var items: [Item] { stored.withLock { $0 } }
    }

    /// Keeps log lines as `level: message`.
    struct CapturedLog: LogHandler {
        let lines = Recorder<String>()
        func write(level: LogLevel, label: String, message: String) { lines.add("\(level.name): \(message)") }
    }

    private struct Rig {
        let live: LiveConfig
        let brain: CurrentChatBrain
        let made: Recorder<String>
        let players: Recorder<FakePlayer>
        let player: SpeakerPlayer
        let log: CapturedLog
        let observer: SpeakerConfigObserver

        var mode: String? { (brain.brain as? MadeBrain)?.mode }
    }

    /// An observer over the scratch config (looked at on every read), with brains and players
    /// that record how often they were made.
    private func rig(interval: TimeInterval = 0) throws -> Rig {
        let live = try LiveConfig(store: scratch.store, interval: interval) { error in XCTFail("\(error)") }
        let made = Recorder<String>()
        @Sendable func makeBrain(_ config: Config) -> any ChatBrain & Sendable {
            made.add(config.brain.mode)
            return MadeBrain(config)
        }
        let brain = CurrentChatBrain(makeBrain(live.current))
        let players = Recorder<FakePlayer>()
        let player = SpeakerPlayer {
            let made = FakePlayer()
            players.add(made)
            return made
        }
        let log = CapturedLog()
        let observer = SpeakerConfigObserver(
            live: live, brain: brain, makeBrain: makeBrain, player: player,
            logger: Logger(label: "config", level: .info, handler: log))
        return Rig(live: live, brain: brain, made: made, players: players, player: player, log: log, observer: observer)
    }

    /// `susi config set` from another process: the file changes under the running speaker.
    private func edit(_ key: String, _ value: String) throws {
        try ConfigStore(path: scratch.store.path).set(key, to: value)
    }

    func testTheBrainIsMadeAnewOnTheNextUpdateAfterABrainOrLocationChangeOnly() throws {
        try edit("brain.mode", "local")
        let rig = try rig()
        XCTAssertEqual(rig.mode, "local")

        try edit("brain.mode", "remote")
        XCTAssertEqual(rig.mode, "local", "nothing changes in the middle of an interaction")
        XCTAssertEqual(rig.observer.update().brain.mode, "remote")
        XCTAssertEqual(rig.mode, "remote")
        XCTAssertEqual(rig.made.items, ["local", "remote"])

        try edit("room", "Kitchen")
        rig.observer.update()
        XCTAssertEqual(rig.made.items.count, 2, "a room change needs no new brain")

        try edit("brain.server", "http://127.0.0.1:9")
        try edit("location.latitude", "52.5")
        rig.observer.update()
        XCTAssertEqual(rig.made.items.count, 3, "two changes noticed before one update: one new brain")
        let brain = try XCTUnwrap(rig.brain.brain as? MadeBrain)
        XCTAssertEqual(brain.server, "http://127.0.0.1:9")
        XCTAssertEqual(brain.latitude, 52.5)

        rig.observer.update()
        XCTAssertEqual(rig.made.items.count, 3, "nothing new, nothing made")
    }

    func testAChangeMadeThroughTheLiveConfigIsAppliedToo() throws {
        let rig = try rig()
        try rig.live.set("brain.mode", to: "local")
        XCTAssertEqual(rig.mode, "hybrid")
        rig.observer.update()
        XCTAssertEqual(rig.mode, "local")
    }

    func testThePlayerIsMadeAnewWithNewPlayerSettingsOnceNothingPlays() throws {
        let rig = try rig()
        try rig.player.player().play(identifier: "a.wav", type: "url")
        let first = try XCTUnwrap(rig.players.items.first)

        try edit("player.args", "--ao=null")
        rig.observer.update()
        XCTAssertTrue(try rig.player.player() === first, "the music playing is not cut")
        XCTAssertFalse(first.isShutDown)

        try rig.player.player().stop()
        let second = try rig.player.player()
        XCTAssertFalse(second === first, "made anew once stopped")
        XCTAssertTrue(first.isShutDown, "the old player is shut down")
        XCTAssertEqual(rig.players.items.count, 2)
        XCTAssertTrue(try rig.player.player() === second, "and kept")

        try edit("player.volume", "35")
        rig.observer.update()
        XCTAssertEqual(second.volume, 35, "player.volume sets the music volume")
        XCTAssertEqual(rig.players.items.count, 2)
    }

    func testAHotwordChangeAsksForANewWakeDetectorOnceAndNoNewBrain() throws {
        let rig = try rig()
        XCTAssertNil(rig.observer.takeWakeChange())
        try edit("hotword.threshold", "1e-20")
        XCTAssertNil(rig.observer.takeWakeChange(), "not before the update")
        rig.observer.update()
        XCTAssertEqual(rig.observer.config.hotword.threshold, 1e-20)
        XCTAssertEqual(rig.observer.takeWakeChange()?.hotword.threshold, 1e-20)
        XCTAssertNil(rig.observer.takeWakeChange(), "once")
        XCTAssertEqual(rig.made.items.count, 1, "the brain stays")
        try edit("stt.end_silence_ms", "900")
        rig.observer.update()
        XCTAssertNil(rig.observer.takeWakeChange(), "other keys need no new detector")
        XCTAssertEqual(rig.observer.config.stt.endSilenceMs, 900)
    }

    func testEachChangedKeyIsLoggedAndRestartKeysSaySo() throws {
        let rig = try rig()
        try edit("setup.port", "5055")
        try edit("tts.voice", "en-gb")
        rig.observer.update()
        XCTAssertEqual(
            rig.log.lines.items,
            [
                "info: tts.voice changed to en-gb; used from the next interaction",
                "warning: setup.port changed to 5055; susi run uses it after a restart",
            ])
    }

    /// The setup server of `susi run` changes the config through the daemon's live config, so
    /// the observer has the change at once (here the file is looked at only once a minute).
    func testChangesFromTheSetupRoutesReachTheObserverAtOnce() throws {
        try edit("brain.mode", "local")
        let rig = try rig(interval: 60)
        let dispatcher = ActionDispatcher(
            live: rig.live, planned: PlannedAnswers(path: scratch.directory + "/timers.json"), player: rig.player,
            http: FakeHTTPClient.offline(), account: AccountStore(configStore: scratch.store), logger: .silent)
        let control = StandaloneSpeakerControl(
            configPath: scratch.store.path, config: { rig.live.current }, dispatcher: dispatcher, player: rig.player,
            logger: .silent)
        defer { control.shutdown() }
        let router = SetupServer(store: scratch.store, live: rig.live, control: control, logger: .silent).service.makeRouter()
        let settings = router.handle(
            ServerRequest(
                method: "POST", path: "/settings", headers: ["content-type": "application/json"],
                body: Data(#"{"key": "brain.mode", "value": "remote"}"#.utf8), remoteAddress: "127.0.0.1"))
        XCTAssertEqual(settings.status, 200, String(decoding: settings.body, as: UTF8.self))
        let room = router.handle(
            ServerRequest(method: "GET", path: "/speaker_config", query: ["room_name": "Den"], remoteAddress: "127.0.0.1"))
        XCTAssertEqual(room.status, 200, String(decoding: room.body, as: UTF8.self))

        XCTAssertEqual(rig.observer.update().room, "Den")
        XCTAssertEqual(rig.mode, "remote")
        XCTAssertEqual(try scratch.store.load().brain.mode, "remote", "saved too")
    }
}
