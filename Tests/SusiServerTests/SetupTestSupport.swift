import Foundation
import SusiCore
import SusiModel
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
    private let media = Mutex<String?>(nil)

    /// What `status()` reports as loaded in the player.
    func showMedia(_ text: String?) { media.withLock { $0 = text } }

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
        let loaded = media.withLock { $0 }
        return state.withLock {
            SpeakerStatus(
                state: "idle", playback: $0.playback, media: loaded, volume: $0.volume,
                lastInteraction: loaded == nil ? nil : Date())
        }
    }
    func perform(_ action: ChatAction) throws {
        switch action {
        case .audioPlay(let media), .videoPlay(let media):
            try record("play \(media.identifierType) \(media.identifier)") { $0.playback = "playing" }
            for entry in media.queue { try record("enqueue \(media.identifierType) \(entry)") }
        case .pause: try record("pause") { $0.playback = "paused" }
        case .resume: try record("resume") { $0.playback = "playing" }
        case .stop: try record("stop") { $0.playback = "idle" }
        case .audioVolume(let volume): try record("volume \(volume.volume)") { $0.volume = volume.volume }
        case .answer(let answer): try record("say \(answer.expression)")
        default: try record(action.type)
        }
    }
}

/// An `AccountLinking` that answers as told and records what it was given.
final class RecordingAccountLinking: AccountLinking, Sendable {
    enum Mode { case online, offline, refusing }
    private let state = Mutex<(mode: Mode, links: [String], signOuts: Int)>((.offline, [], 0))

    init(_ mode: Mode = .offline) { state.withLock { $0.mode = mode } }

    var links: [String] { state.withLock { $0.links } }
    var signOuts: Int { state.withLock { $0.signOuts } }

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

    func signOut() throws(SetupError) { state.withLock { $0.signOuts += 1 } }
}

/// A `WiFiScanning` that answers with `scan` and records the interfaces it was asked about.
final class FakeWiFiScanner: WiFiScanning, Sendable {
    private let asked = Mutex<[String]>([])
    let answer: WiFiScan

    init(_ answer: WiFiScan) { self.answer = answer }

    var interfaces: [String] { asked.withLock { $0 } }

    func scan(interface: String) -> WiFiScan {
        asked.withLock { $0.append(interface) }
        return answer
    }
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
        extraRoutes: (inout Router) -> Void = { _ in }, limits: ServerLimits = SetupService.limits,
        policy: RequestPolicy = RequestPolicy(),
        dashboard: (_ directory: String, _ store: ConfigStore) -> SpeakerDashboard = { _, _ in SpeakerDashboard() },
        scanner: any WiFiScanning = NoWiFiScanner()
    ) throws {
        directory = NSTemporaryDirectory() + "susi-setup-\(UUID().uuidString)"
        store = ConfigStore(path: directory + "/config.json")
        var config = Config()
        configure(&config)
        try store.save(config)
        self.account = account
        service = SetupService(
            store: store, control: control, account: account, voices: { voices }, version: "test-1",
            hooks: HookRunner(timeout: 10), policy: policy, dashboard: dashboard(directory, store), scanner: scanner)
        var router = service.makeRouter()
        extraRoutes(&router)
        server = HTTPServer(host: "127.0.0.1", port: 0, limits: limits, router: router)
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

    /// One request through curl with any method, headers and body; returns status, parsed JSON
    /// object, body and the reply's headers (names lower-case). `HEAD` is sent as curl's `-I`.
    func send(
        _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> (status: Int, json: [String: Any], body: String, headers: [String: String]) {
        let headerFile = directory + "/reply-headers-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: headerFile) }
        var arguments = method == "HEAD" ? ["-I"] : ["-X", method]
        arguments += ["-D", headerFile]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        if let body { arguments += ["--data-binary", body] }
        let reply = try runCurl(arguments + [base + path], file: file, line: line)
        let json = (try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any] ?? [:]
        var replyHeaders: [String: String] = [:]
        let text = (try? String(contentsOfFile: headerFile, encoding: .utf8)) ?? ""
        for headerLine in text.split(separator: "\r\n") {
            let parts = headerLine.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                replyHeaders[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return (reply.status, json, reply.body, replyHeaders)
    }

    /// POST (no body) with the owner's bearer token when one is given.
    func post(_ path: String, token: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> (
        status: Int, json: [String: Any], body: String
    ) {
        let reply = try send(
            "POST", path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:], file: file, line: line)
        return (reply.status, reply.json, reply.body)
    }

    /// Runs the apps' four setup calls, ending setup; returns the owner token the last one gave.
    func finishSetup(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        XCTAssertEqual(try get("/speaker_config?room_name=Kitchen").status, 200, file: file, line: line)
        XCTAssertEqual(try get("/wifi_credentials?wifissid=Home&wifipassd=").status, 200, file: file, line: line)
        XCTAssertEqual(try get("/auth?auth=n").status, 200, file: file, line: line)
        let reply = try get("/config?stt=google&tts=google&hotword=y&wake=n")
        XCTAssertEqual(reply.status, 200, file: file, line: line)
        return try XCTUnwrap(reply.json["owner_token"] as? String, "/config gives the owner token", file: file, line: line)
    }

    /// File permission bits of `path`.
    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
