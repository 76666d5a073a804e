import Foundation
import SusiCore
import SusiServer
import Synchronization
import XCTest

/// A `SpeakerControl` that records commands; `failure` makes every command throw it.
final class RecordingSpeakerControl: SpeakerControl, Sendable {
    struct Failure: SusiError {
        var stage: Stage { .player }
        var code: String { "player-missing" }
        var message: String { "mpv is not installed" }
    }

    private let state = Mutex<(commands: [String], volume: Int, playback: String, fail: Bool)>(([], 50, "idle", false))

    var commands: [String] { state.withLock { $0.commands } }
    func failEverything() { state.withLock { $0.fail = true } }

    private func record(
        _ command: String, _ change: (inout (commands: [String], volume: Int, playback: String, fail: Bool)) -> Void = { _ in }
    ) throws {
        try state.withLock { value in
            if value.fail { throw Failure() }
            value.commands.append(command)
            change(&value)
        }
    }

    func status() -> SpeakerStatus {
        state.withLock { SpeakerStatus(state: "idle", playback: $0.playback, media: nil, volume: $0.volume) }
    }
    func play(identifier: String, type: String) throws { try record("play \(type) \(identifier)") { $0.playback = "playing" } }
    func pause() throws { try record("pause") { $0.playback = "paused" } }
    func resume() throws { try record("resume") { $0.playback = "playing" } }
    func stop() throws { try record("stop") { $0.playback = "idle" } }
    func next() throws { try record("next") }
    func previous() throws { try record("previous") }
    func setVolume(_ volume: Int) throws { try record("volume \(volume)") { $0.volume = volume } }
    func changeVolume(by delta: Int) throws {
        try record("volume \(delta > 0 ? "+" : "")\(delta)") { $0.volume = min(max($0.volume + delta, 0), 100) }
    }
    func say(_ text: String) throws { try record("say \(text)") }
}

/// An `AccountLinking` that answers as told and records what it was given.
final class RecordingAccountLinking: AccountLinking, Sendable {
    enum Mode { case online, offline, refusing }
    private let state = Mutex<(mode: Mode, links: [String], forgets: Int)>((.offline, [], 0))

    init(_ mode: Mode = .offline) { state.withLock { $0.mode = mode } }

    var links: [String] { state.withLock { $0.links } }
    var forgets: Int { state.withLock { $0.forgets } }

    func link(email: String, password: String) throws(SetupError) -> AccountLinkResult {
        let mode = state.withLock { value in
            value.links.append(email)
            return value.mode
        }
        switch mode {
        case .online: return .loggedIn
        case .offline: return .pending
        case .refusing: throw SetupError(.loginRefused, "the server refused the login")
        }
    }

    func forgetPending() throws(SetupError) { state.withLock { $0.forgets += 1 } }
}

/// A setup server on 127.0.0.1 with a scratch config directory, fakes, and helpers to read
/// what was saved. `tearDown()` stops it and removes the directory.
final class SetupFixture {
    let directory: String
    let store: ConfigStore
    let control = RecordingSpeakerControl()
    let account: RecordingAccountLinking
    let service: SetupService
    let server: HTTPServer
    let base: String

    init(
        account: RecordingAccountLinking = RecordingAccountLinking(), configure: (inout Config) -> Void = { _ in },
        voices: [VoiceChoice] = [
            VoiceChoice(id: "en-us", name: "English (America)"), VoiceChoice(id: "en-gb", name: "English (Great Britain)"),
        ],
        extraRoutes: (inout Router) -> Void = { _ in }
    ) throws {
        directory = NSTemporaryDirectory() + "susi-setup-\(UUID().uuidString)"
        store = ConfigStore(path: directory + "/config.json")
        var config = Config()
        configure(&config)
        try store.save(config)
        self.account = account
        service = SetupService(
            store: store, control: control, account: account, voices: { voices }, version: "test-1",
            hooks: HookRunner(timeout: 10))
        var router = service.makeRouter()
        extraRoutes(&router)
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: SetupService.limits, router: router)
        try server.start()
        base = "http://127.0.0.1:\(server.port ?? 0)"
    }

    func tearDown() {
        server.stop()
        _ = service.hooks.waitForAll(seconds: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var config: Config {
        get throws { try store.load() }
    }

    var configBytes: Data? { FileManager.default.contents(atPath: store.path) }
    var wifiPath: String { directory + "/wpa_supplicant.conf" }
    var wifiText: String? { FileManager.default.contents(atPath: wifiPath).map { String(decoding: $0, as: UTF8.self) } }

    /// GET `path` (with its query) through curl; returns status and parsed JSON object.
    func get(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int, json: [String: Any], body: String
    ) {
        let reply = try runCurl([base + path], file: file, line: line)
        let json = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any] ?? [:]
        return (reply.status, json, reply.body)
    }

    /// POST a form body through curl.
    func postForm(_ path: String, _ fields: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int, json: [String: Any], body: String
    ) {
        let reply = try runCurl(fields.flatMap { ["--data-urlencode", $0] } + [base + path], file: file, line: line)
        let json = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any] ?? [:]
        return (reply.status, json, reply.body)
    }

    /// POST a JSON body through curl.
    func postJSON(_ path: String, _ body: String, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int, json: [String: Any], body: String
    ) {
        let reply = try runCurl(
            ["-H", "Content-Type: application/json", "--data-binary", body, base + path], file: file, line: line)
        let json = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any] ?? [:]
        return (reply.status, json, reply.body)
    }

    /// File permission bits of `path`.
    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
