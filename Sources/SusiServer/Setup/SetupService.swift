import Foundation
import SusiCore
import Synchronization

/// The speaker's HTTP API for the SUSI apps, home automation and a phone browser: the setup
/// routes (`/speaker_config`, `/wifi_credentials`, `/auth`, `/config`, `POST /reboot`), status
/// and control (`/status`, `/play`, `/pause`, ..., `/volume/N|up|down`, `/say`), and the web page
/// (`/`, `/voices`, `/settings`).
///
/// Setup routes answer only in setup mode (`SetupStateFile`), else 403. Every parameter is
/// validated before anything is saved, so a 400 (which names the parameter) leaves the config,
/// the Wi-Fi file and the account untouched. Replies never contain a password or token, and
/// nothing here logs one. Config changes are serialised by one lock (read, change, atomic
/// save), so concurrent requests never lose each other's changes.
///
/// Handlers run on the server's connection threads; the service is safe to share.
public final class SetupService: Sendable {
    /// Where config changes go; read on every request, so edits from elsewhere count at once.
    public let store: ConfigStore
    /// The setup-mode flag.
    public let setupState: SetupStateFile
    /// The hooks' runner (`setup.on_wifi`, `setup.on_complete`).
    public let hooks: HookRunner
    private let control: any SpeakerControl
    private let account: any AccountLinking
    private let voices: @Sendable () -> [VoiceChoice]
    private let version: String
    private let startedAt: Date
    private let logger: Logger
    /// The last config read or written successfully; also the lock every config change holds.
    private let lastGood: Mutex<Config>

    /// The config keys the web page may change through `POST /settings`.
    public static let pageSettings = ["tts.voice", "tts.rate", "room", "brain.mode"]

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - store: the config file (give it a `voiceCheck` so voices are checked on save).
    ///   - control: the player and voice the control routes drive.
    ///   - account: stores the SUSI account the apps send.
    ///   - voices: the installed voices, for the web page (called per request; keep it cheap).
    ///   - version: shown by `/status`.
    ///   - setupState: the setup-mode file; default `setup-state.json` beside the config.
    ///   - hooks: runs the setup hooks.
    public init(
        store: ConfigStore, control: any SpeakerControl, account: any AccountLinking,
        voices: @escaping @Sendable () -> [VoiceChoice], version: String,
        setupState: SetupStateFile? = nil, hooks: HookRunner? = nil, logger: Logger = .silent,
        startedAt: Date = Date()
    ) {
        self.store = store
        self.control = control
        self.account = account
        self.voices = voices
        self.version = version
        self.setupState = setupState ?? SetupStateFile(configStore: store)
        self.hooks = hooks ?? HookRunner(logger: logger.child("hook"))
        self.logger = logger
        self.startedAt = startedAt
        lastGood = Mutex((try? store.load()) ?? Config())
    }

    // MARK: Wiring

    /// Adds every route to `router`.
    public func install(on router: inout Router) {
        let both = ["GET", "POST"]
        router.add(both, "/speaker_config") { [self] in try setupRoute($0, speakerConfig) }
        router.add(both, "/wifi_credentials") { [self] in try setupRoute($0, wifiCredentials) }
        router.add(both, "/auth") { [self] in try setupRoute($0, auth) }
        router.add(both, "/config") { [self] in try setupRoute($0, finishSetup) }
        router.post("/reboot") { [self] in try setupRoute($0, reboot) }

        router.get("/status") { [self] _ in .json(object: statusObject()) }
        router.add(both, "/play") { [self] in try controlRoute($0, play) }
        for (name, action) in simpleCommands {
            router.add(both, "/" + name) { [self] in try controlRoute($0) { _ throws in try action(); return name } }
        }
        router.add(both, "/volume/up") { [self] in try controlRoute($0) { _ throws in try changeVolume(up: true) } }
        router.add(both, "/volume/down") { [self] in try controlRoute($0) { _ throws in try changeVolume(up: false) } }
        router.add(both, "/volume/:level") { [self] in try controlRoute($0, setVolume) }
        router.add(both, "/say") { [self] in try controlRoute($0, say) }

        router.get("/") { _ in .html(StatusPage.html) }
        router.get("/voices") { [self] _ in .json(voices()) }
        router.get("/settings") { [self] _ in .json(object: settingsObject()) }
        router.post("/settings") { [self] in changeSetting($0) }
    }

    /// A router serving only this service's routes.
    public func makeRouter() -> Router {
        var router = Router()
        install(on: &router)
        return router
    }

    /// The limits the setup server uses: small bodies (64 KiB), short idle time (15 s), and room
    /// for a phone, a browser and home automation at once (tested with 64 busy connections, with
    /// headroom for sockets a client has closed that the server has not yet reaped).
    public static let limits = ServerLimits(
        maxConnections: 128, maxConnectionsPerIP: 96, connectionTimeoutSeconds: 15, maxBodyBytes: 64 * 1024)

    /// A stopped server for this service on `setup.bind` and `setup.port` (or `port`).
    public func makeServer(port: UInt16? = nil, host: String? = nil, limits: ServerLimits = SetupService.limits)
        -> HTTPServer
    {
        let config = currentConfig()
        return HTTPServer(
            host: host ?? config.setup.bind, port: port ?? UInt16(clamping: config.setup.port), limits: limits,
            logger: logger.child("http"), router: makeRouter())
    }

    // MARK: Config

    /// The config on disk, or the last good one when the file has become invalid (logged).
    public func currentConfig() -> Config {
        do throws(ConfigError) {
            let config = try store.load()
            lastGood.withLock { $0 = config }
            return config
        } catch {
            logger.warning("\(error.code): \(error.message); using the last good config")
            return lastGood.withLock { $0 }
        }
    }

    /// Reads, changes and saves the config under the lock.
    private func updateConfig(_ change: (inout Config) -> Void) throws(ConfigError) -> Config {
        try lastGood.withLock { (last: inout Config) throws(ConfigError) -> Config in
            var config = try store.load()
            change(&config)
            try store.save(config)
            last = config
            return config
        }
    }

    // MARK: Setup routes

    private func setupRoute(_ request: ServerRequest, _ handler: (ServerRequest) throws -> ServerResponse) throws
        -> ServerResponse
    {
        guard setupState.isInSetupMode else {
            return SetupError(
                .notInSetupMode,
                "setup is finished; run `susi setup --reset` on the speaker to set it up again"
            ).response
        }
        do {
            return try handler(request)
        } catch let error as SetupError {
            return error.response
        } catch let error as ConfigError {
            return .error(status: error.kind == .unwritable ? 500 : 400, code: error.code, message: error.message)
        }
    }

    private func speakerConfig(_ request: ServerRequest) throws -> ServerResponse {
        let room = try SetupParameters.room(SetupParameters.required(request, "room_name"))
        _ = try updateConfig { $0.room = room }
        logger.info("room set to \(room)")
        return .json(["room_name": room])
    }

    private func wifiCredentials(_ request: ServerRequest) throws -> ServerResponse {
        let network = try WiFiNetwork(
            ssid: SetupParameters.required(request, "wifissid"),
            passphrase: SetupParameters.required(request, "wifipassd"))
        try storeWiFi(network, config: currentConfig())
        return .json(["wifi": "configured", "wifi_ssid": network.ssid])
    }

    private func storeWiFi(_ network: WiFiNetwork, config: Config) throws(SetupError) {
        let file = WPASupplicantFile(config: config, store: store)
        try file.store(network, country: config.location.countryCode)
        logger.info("stored \(network) in \(file.path)")
        hooks.run(
            "setup.on_wifi", command: config.setup.onWifi,
            environment: [
                "SUSI_WIFI_SSID": network.ssid, "SUSI_WIFI_OPEN": network.isOpen ? "1" : "0",
                "SUSI_WIFI_FILE": file.path, "SUSI_CONFIG": store.path,
            ])
    }

    /// The `/auth` parameters, validated.
    private struct AccountChoice {
        let auth: String
        let email: String
        let password: String
    }

    private func accountChoice(_ request: ServerRequest) throws(SetupError) -> AccountChoice {
        let auth = try SetupParameters.yesNo(SetupParameters.required(request, "auth"), parameter: "auth")
        guard auth == "y" else { return AccountChoice(auth: "n", email: "", password: "") }
        let email = try SetupParameters.email(SetupParameters.required(request, "email"))
        let password = try SetupParameters.password(SetupParameters.required(request, "password"))
        return AccountChoice(auth: "y", email: email, password: password)
    }

    /// Links the account; returns the reply's note when the login is pending.
    private func link(_ choice: AccountChoice) throws(SetupError) -> String? {
        guard choice.auth == "y" else {
            try account.forgetPending()
            logger.info("no SUSI account (anonymous use)")
            return nil
        }
        switch try account.link(email: choice.email, password: choice.password) {
        case .loggedIn:
            logger.info("SUSI account linked")
            return nil
        case .pending:
            logger.info("SUSI account kept; the login will be done when the speaker is online")
            return "the speaker is offline; it will log in to SUSI when it is online"
        }
    }

    private func auth(_ request: ServerRequest) throws -> ServerResponse {
        let choice = try accountChoice(request)
        var reply = ["authentication": "successful", "auth": choice.auth, "email": choice.email]
        reply["note"] = try link(choice)
        return .json(reply)
    }

    /// The `/config` parameters, validated, with the config change they make.
    private struct EngineChoice {
        let stt: String
        let tts: String
        let hotword: String
        let wake: String
        let notes: [String]

        func apply(to config: inout Config) {
            config.stt.engine = EngineNames.recognizer
            config.hotword.wakeButton = wake == "y"
            // Without the wake word and without a button nothing could wake the speaker.
            config.hotword.enabled = hotword == "y" || wake == "n"
        }
    }

    private func engineChoice(_ request: ServerRequest) throws(SetupError) -> EngineChoice {
        func value(_ name: String) throws(SetupError) -> String {
            try SetupParameters.required(request, name)
        }
        let stt = EngineNames.recognizer(for: try SetupParameters.engineName(value("stt"), parameter: "stt"))
        let tts = EngineNames.synthesizer(for: try SetupParameters.engineName(value("tts"), parameter: "tts"))
        let hotword = try SetupParameters.yesNo(value("hotword"), parameter: "hotword")
        let wake = try SetupParameters.yesNo(value("wake"), parameter: "wake")
        var notes = [stt.note, tts.note].compactMap { $0 }
        if hotword == "n", wake == "n" {
            notes.append("the wake word stays on: without it and without a wake button nothing could wake the speaker")
        }
        return EngineChoice(stt: stt.engine, tts: tts.engine, hotword: hotword, wake: wake, notes: notes)
    }

    private func finishSetup(_ request: ServerRequest) throws -> ServerResponse {
        let choice = try engineChoice(request)
        let config = try updateConfig(choice.apply)
        try complete(config)
        var reply = [
            "configuration": "successful", "stt": choice.stt, "tts": choice.tts, "hotword": choice.hotword,
            "wake": choice.wake,
        ]
        if !choice.notes.isEmpty { reply["note"] = choice.notes.joined(separator: "; ") }
        return .json(reply)
    }

    /// Ends setup mode and runs `setup.on_complete`.
    private func complete(_ config: Config) throws(SetupError) {
        try setupState.finish()
        logger.info("setup finished")
        hooks.run(
            "setup.on_complete", command: config.setup.onComplete,
            environment: ["SUSI_ROOM": config.room, "SUSI_CONFIG": store.path])
    }

    /// The old all-in-one form: every field of the four calls must be there (as the old server
    /// required); empty `wifissid` and `wifipassd` keep the current Wi-Fi. Everything is checked
    /// before anything is saved.
    private func reboot(_ request: ServerRequest) throws -> ServerResponse {
        let room = try SetupParameters.room(SetupParameters.required(request, "room_name"))
        let ssid = try SetupParameters.required(request, "wifissid")
        let passphrase = try SetupParameters.required(request, "wifipassd")
        let network: WiFiNetwork? =
            ssid.isEmpty && passphrase.isEmpty ? nil : try WiFiNetwork(ssid: ssid, passphrase: passphrase)
        let choice = try accountChoice(request)
        let engines = try engineChoice(request)

        var notes: [String] = []
        if let note = try link(choice) { notes.append(note) }
        if let network { try storeWiFi(network, config: currentConfig()) }
        let config = try updateConfig { config in
            config.room = room
            engines.apply(to: &config)
        }
        try complete(config)
        notes += engines.notes
        var reply = [
            "wifi": network == nil ? "unchanged" : "configured", "room_name": config.room,
            "wifi_ssid": network?.ssid ?? "", "auth": choice.auth, "email": choice.email, "stt": engines.stt,
            "tts": engines.tts, "hotword": engines.hotword, "wake": engines.wake, "message": "SUSI is rebooting",
        ]
        if !notes.isEmpty { reply["note"] = notes.joined(separator: "; ") }
        return .json(reply)
    }

    // MARK: Status and control

    /// The `/status` object.
    public func statusObject() -> [String: Any] {
        let config = currentConfig()
        let status = control.status()
        let iso = ISO8601DateFormatter()
        return [
            "state": status.state,
            "setup_mode": setupState.isInSetupMode,
            "room": config.room,
            "voice": config.tts.voice,
            "rate": config.tts.rate,
            "brain_mode": config.brain.mode,
            "volume": status.volume,
            "playing": status.playback == "playing",
            "playback": status.playback,
            "media": status.media.map { $0 as Any } ?? NSNull(),
            "last_interaction": status.lastInteraction.map { iso.string(from: $0) as Any } ?? NSNull(),
            "version": version,
            "uptime_seconds": Int(Date().timeIntervalSince(startedAt)),
        ]
    }

    private var simpleCommands: [(String, @Sendable () throws -> Void)] {
        let control = self.control
        return [
            ("pause", { try control.pause() }), ("resume", { try control.resume() }),
            ("stop", { try control.stop() }), ("next", { try control.next() }),
            ("previous", { try control.previous() }),
        ]
    }

    /// Runs a control action (which returns the command's name) and answers with the status,
    /// or with the JSON error of a failing player or sound device.
    private func controlRoute(_ request: ServerRequest, _ action: (ServerRequest) throws -> String) throws
        -> ServerResponse
    {
        do {
            let command = try action(request)
            let status = control.status()
            return .json(object: [
                "command": command, "playback": status.playback, "volume": status.volume, "state": status.state,
            ])
        } catch let error as SetupError {
            return error.response
        } catch let error as any SusiError {
            logger.warning("control failed: \(error.code): \(error.message)")
            return .error(status: 503, code: error.code, message: error.message)
        } catch {
            logger.warning("control failed: \(error)")
            return .error(status: 503, code: SetupError.Kind.unavailable.rawValue, message: "the speaker could not do that")
        }
    }

    private func play(_ request: ServerRequest) throws -> String {
        if let id = request.parameter("ytb") {
            try control.play(identifier: SetupParameters.youtubeID(id), type: "youtube")
        } else if let url = request.parameter("url") {
            try control.play(identifier: SetupParameters.mediaURL(url), type: "url")
        } else {
            throw SetupError.bad("ytb", "give ytb (a YouTube video id) or url (an http(s) URL)")
        }
        return "play"
    }

    private func setVolume(_ request: ServerRequest) throws -> String {
        try control.setVolume(SetupParameters.volume(request.pathParameters["level"] ?? ""))
        return "volume"
    }

    private func changeVolume(up: Bool) throws -> String {
        let step = currentConfig().player.volumeStep
        try control.changeVolume(by: up ? step : -step)
        return up ? "volume-up" : "volume-down"
    }

    private func say(_ request: ServerRequest) throws -> String {
        try control.say(SetupParameters.speech(SetupParameters.required(request, "text")))
        return "say"
    }

    // MARK: Web page settings

    private func settingsObject() -> [String: Any] {
        let config = currentConfig()
        return [
            "room": config.room, "tts.voice": config.tts.voice, "tts.rate": config.tts.rate,
            "brain.mode": config.brain.mode, "rooms": SetupParameters.rooms,
            "brain_modes": ["local", "remote", "hybrid"],
        ]
    }

    /// `POST /settings` with `{"key": "tts.voice", "value": "en-gb"}`: one validated change
    /// through `ConfigStore.set`.
    private func changeSetting(_ request: ServerRequest) -> ServerResponse {
        guard let object = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any] else {
            return SetupError.bad("body", "the body must be a JSON object {\"key\": ..., \"value\": ...}").response
        }
        guard let key = object["key"] as? String, Self.pageSettings.contains(key) else {
            return SetupError.bad("key", "key must be one of \(Self.pageSettings.joined(separator: ", "))").response
        }
        let text: String
        switch object["value"] {
        case let string as String: text = string
        case let number as NSNumber where !(number is Bool): text = number.stringValue
        default: return SetupError.bad("value", "value must be a string or a number").response
        }
        if key == "tts.voice" {
            let installed = voices()
            if !installed.isEmpty, !installed.contains(where: { $0.id == text }) {
                return SetupError.bad("value", "tts.voice must be one of the installed voices (see /voices)").response
            }
        }
        if key == "room", text.unicodeScalars.contains(where: WiFiNetwork.isControl) {
            return SetupError.bad("value", "room must not contain control characters").response
        }
        do throws(ConfigError) {
            let config = try lastGood.withLock { (last: inout Config) throws(ConfigError) -> Config in
                let config = try store.set(key, to: text)
                last = config
                return config
            }
            let value = ConfigSchema.key(named: key)?.value(in: config).description ?? text
            logger.info("\(key) set to \(value) from the web page")
            return .json(["key": key, "value": value])
        } catch {
            var reply = ["error": error.message, "code": error.code]
            reply["parameter"] = "value"
            return .json(reply, status: error.kind == .unwritable ? 500 : 400)
        }
    }
}
