import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiPlayer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiSpeaker

/// A media player that records what it was told, for tests of the code that drives one.
final class FakePlayer: MediaPlayer, Sendable {
    private struct State {
        var calls: [String] = []
        var volume: Int
        var state = PlayerState.idle
        var duck: Int?
        var failure: PlayerError?
        var isShutDown = false
    }

    private let recorded: Mutex<State>

    init(volume: Int = 50) {
        recorded = Mutex(State(volume: volume))
    }

    /// The commands in order, e.g. `["play url:a.wav", "pause"]`.
    var calls: [String] { recorded.withLock { $0.calls } }
    var isShutDown: Bool { recorded.withLock { $0.isShutDown } }
    /// Makes every later command throw `error`.
    func fail(with error: PlayerError) { recorded.withLock { $0.failure = error } }

    var state: PlayerState { recorded.withLock { $0.state } }
    var volume: Int { recorded.withLock { $0.volume } }
    var isDucked: Bool { recorded.withLock { $0.duck != nil } }
    func setEventHandler(_ handler: (@Sendable (PlayerEvent) -> Void)?) {}

    private func command(_ name: String, _ change: (inout State) -> Void = { _ in }) throws(PlayerError) {
        let failure = recorded.withLock { state -> PlayerError? in
            state.calls.append(name)
            if let failure = state.failure { return failure }
            change(&state)
            return nil
        }
        if let failure { throw failure }
    }

    func play(identifier: String, type: String) throws(PlayerError) {
        try command("play \(type):\(identifier)") { $0.state = .playing }
    }
    func enqueue(identifier: String, type: String) throws(PlayerError) { try command("enqueue \(type):\(identifier)") }
    func pause() throws(PlayerError) { try command("pause") { if $0.state == .playing { $0.state = .paused } } }
    func resume() throws(PlayerError) { try command("resume") { if $0.state == .paused { $0.state = .playing } } }
    func stop() throws(PlayerError) { try command("stop") { $0.state = .idle } }
    func next() throws(PlayerError) -> Bool {
        try command("next")
        return false
    }
    func previous() throws(PlayerError) -> Bool {
        try command("previous")
        return false
    }
    func restart() throws(PlayerError) { try command("restart") }
    func shuffle() throws(PlayerError) { try command("shuffle") }
    func setVolume(_ volume: Int) throws(PlayerError) {
        try command("volume \(volume)") { $0.volume = min(max(volume, 0), 100) }
    }
    func duck(to percent: Int) {
        recorded.withLock {
            $0.calls.append("duck \(percent)")
            $0.duck = percent
        }
    }
    func unduck() {
        recorded.withLock {
            $0.calls.append("unduck")
            $0.duck = nil
        }
    }
    func shutdown() { recorded.withLock { $0.isShutDown = true } }
}

/// An HTTP client answering from a closure and keeping the requests it was sent.
final class FakeHTTPClient: HTTPClient {
    private let reply: @Sendable (HTTPRequest) -> Result<HTTPResponse, HTTPError>
    private let sent = Mutex<[String]>([])

    init(_ reply: @escaping @Sendable (HTTPRequest) -> Result<HTTPResponse, HTTPError>) {
        self.reply = reply
    }

    /// A client whose every request fails as the network does when offline.
    static func offline() -> FakeHTTPClient {
        FakeHTTPClient { _ in .failure(HTTPError(.connectionRefused, message: "connection refused")) }
    }

    /// A client answering every request with `status` and the JSON `body`.
    static func json(_ body: String, status: Int = 200) -> FakeHTTPClient {
        FakeHTTPClient { _ in
            .success(HTTPResponse(status: status, headers: ["content-type": "application/json"], body: Data(body.utf8)))
        }
    }

    /// The URLs requested, in order.
    var urls: [String] { sent.withLock { $0 } }

    func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        sent.withLock { $0.append(request.url) }
        return try reply(request).get()
    }
}

/// A scratch directory with a config file in it, removed by `remove()`.
struct ScratchConfig {
    let scratch: ScratchDirectory
    var directory: String { scratch.path }
    let store: ConfigStore

    init() throws {
        scratch = try ScratchDirectory("susi-speaker-test")
        store = ConfigStore(path: scratch.path + "/config.json")
        _ = try store.loadOrCreate()
    }

    /// A dispatcher over this config, `player` and `http`, with its own timers and lists files
    /// (timed by `clock`, clock times read in `calendar`).
    func dispatcher(
        player: SpeakerPlayer, http: any HTTPClient = FakeHTTPClient.offline(),
        lastSkill: @escaping @Sendable () -> String? = { nil }, clock: @escaping @Sendable () -> Date = Date.init,
        calendar: Calendar = .current, library: MusicLibrary? = nil
    ) throws -> (ActionDispatcher, LiveConfig, PlannedAnswers) {
        let live = try LiveConfig(store: store) { error in XCTFail("invalid config: \(error)") }
        let planned = PlannedAnswers(path: directory + "/timers.json", clock: clock, calendar: { calendar })
        let dispatcher = ActionDispatcher(
            live: live, planned: planned, player: player, http: http, account: AccountStore(configStore: store),
            logger: .silent, lastSkill: lastSkill, calendar: calendar,
            lists: NamedLists(path: directory + "/lists.json"), library: library)
        return (dispatcher, live, planned)
    }

    func remove() {
        scratch.remove()
    }
}
