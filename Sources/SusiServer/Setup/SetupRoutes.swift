import SusiCore
import SusiModel

/// The first-setup routes the SUSI apps call: `/speaker_config`, `/wifi_credentials`, `/auth`,
/// `/config` and the old all-in-one `POST /reboot`; and `GET /wifi_networks`, the networks the
/// speaker sees, for the setup page (a browser cannot scan as the apps do on the phone).
///
/// They answer only in setup mode (`SetupStateFile`), else 403. Every parameter is validated
/// before anything is saved, so a 400 (which names the parameter) leaves the config, the Wi-Fi
/// file and the account untouched. They take what the apps and susi_linux's clients send:
/// `/auth` with only `email` and `password`, `/wifi_credentials` without a passphrase for an
/// open network, `sst` for `stt`, and `/config` and `/reboot` keep what a missing parameter
/// would set. The GET forms stay for the apps; `HEAD` runs nothing (405). Finishing setup makes
/// a new owner token (`OwnerTokenFile`) and gives it in the reply as `owner_token`, once.
struct SetupRoutes: Sendable {
    let config: SetupConfigAccess
    let setupState: SetupStateFile
    let hooks: HookRunner
    let account: any AccountLinking
    let tokenFile: OwnerTokenFile
    let scanner: any WiFiScanning
    let logger: Logger

    /// Adds the setup routes to `router`.
    func install(on router: inout Router) {
        let both = ["GET", "POST"]
        router.add(both, "/speaker_config") { [self] in try route($0, speakerConfig) }
        router.add(both, "/wifi_credentials") { [self] in try route($0, wifiCredentials) }
        router.add(both, "/auth") { [self] in try route($0, auth) }
        router.add(both, "/config") { [self] in try route($0, finishSetup) }
        router.post("/reboot") { [self] in try route($0, reboot) }
        router.get("/wifi_networks") { [self] in try route($0) { _ in .json(scanner.scan(interface: interface)) } }
    }

    /// The Wi-Fi interface to scan: the hotspot's, which is the one the speaker joins with.
    private var interface: String { config.current.setup.hotspot.interface }

    // MARK: Replies

    struct RoomReply: Encodable {
        let roomName: String

        enum CodingKeys: String, CodingKey {
            case roomName = "room_name"
        }
    }

    struct WiFiReply: Encodable {
        let wifi = "configured"
        let wifiSSID: String

        enum CodingKeys: String, CodingKey {
            case wifi
            case wifiSSID = "wifi_ssid"
        }
    }

    struct AuthReply: Encodable {
        let authentication = "successful"
        let auth: String
        let email: String
        let note: String?
    }

    struct ConfigurationReply: Encodable {
        let configuration = "successful"
        let stt: String
        let tts: String
        let hotword: String
        let wake: String
        let note: String?
        let ownerToken: String

        enum CodingKeys: String, CodingKey {
            case configuration, stt, tts, hotword, wake, note
            case ownerToken = "owner_token"
        }
    }

    struct RebootReply: Encodable {
        let wifi: String
        let roomName: String
        let wifiSSID: String
        let auth: String
        let email: String
        let stt: String
        let tts: String
        let hotword: String
        let wake: String
        let message = "SUSI is rebooting"
        let note: String?
        let ownerToken: String

        enum CodingKeys: String, CodingKey {
            case wifi, auth, email, stt, tts, hotword, wake, message, note
            case roomName = "room_name"
            case wifiSSID = "wifi_ssid"
            case ownerToken = "owner_token"
        }
    }

    // MARK: Routes

    private func route(_ request: ServerRequest, _ handler: (ServerRequest) throws -> ServerResponse) throws
        -> ServerResponse
    {
        // The GET forms change things for the apps' sake; HEAD (link checkers, prefetch) never does.
        guard request.method != "HEAD" else {
            return .methodNotAllowed("HEAD", allowed: ["GET", "POST"])
        }
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
            return error.response()
        }
    }

    private func speakerConfig(_ request: ServerRequest) throws -> ServerResponse {
        let room = try SetupParameters.room(SetupParameters.required(request, "room_name"))
        _ = try config.update { $0.room = room }
        logger.info("room set to \(room)")
        return .json(RoomReply(roomName: room))
    }

    private func wifiCredentials(_ request: ServerRequest) throws -> ServerResponse {
        // No passphrase, or an empty one, is an open network (as susi_linux took it).
        let network = try WiFiNetwork(
            ssid: SetupParameters.required(request, "wifissid"), passphrase: request.parameter("wifipassd") ?? "")
        try storeWiFi(network, config: config.current)
        return .json(WiFiReply(wifiSSID: network.ssid))
    }

    private func storeWiFi(_ network: WiFiNetwork, config current: Config) throws(SetupError) {
        let file = WPASupplicantFile(config: current, store: config.store)
        try file.store(network, country: current.location.countryCode)
        logger.info("stored \(network) in \(file.path)")
        hooks.run(
            "setup.on_wifi", command: current.setup.onWifi,
            environment: [
                "SUSI_WIFI_SSID": network.ssid, "SUSI_WIFI_OPEN": network.isOpen ? "1" : "0",
                "SUSI_WIFI_FILE": file.path, "SUSI_CONFIG": config.store.path,
            ])
    }

    /// The `/auth` parameters, validated.
    private struct AccountChoice {
        let auth: String
        let email: String
        let password: String
    }

    /// `auth` is optional: `n` is anonymous use, `y` or none needs `email` and `password`.
    private func accountChoice(_ request: ServerRequest) throws(SetupError) -> AccountChoice {
        let auth = try request.parameter("auth").map { text throws(SetupError) in
            try SetupParameters.yesNo(text, parameter: "auth")
        }
        guard auth != "n" else { return AccountChoice(auth: "n", email: "", password: "") }
        let email = try SetupParameters.email(SetupParameters.required(request, "email"))
        let password = try SetupParameters.password(SetupParameters.required(request, "password"))
        return AccountChoice(auth: "y", email: email, password: password)
    }

    /// Links the account; returns the reply's note when the login is pending.
    private func link(_ choice: AccountChoice) throws(SetupError) -> String? {
        guard choice.auth == "y" else {
            try account.signOut()
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
        let note = try link(choice)
        return .json(AuthReply(auth: choice.auth, email: choice.email, note: note))
    }

    /// The `/config` parameters, validated, with the config change they make.
    private struct EngineChoice {
        let stt: String
        let tts: String
        let hotword: String
        let wake: String
        let notes: [String]

        func apply(to config: inout Config) {
            config.stt.engine = stt
            config.hotword.wakeButton = wake == "y"
            // Without the wake word and without a button nothing could wake the speaker.
            config.hotword.enabled = hotword == "y" || wake == "n"
        }
    }

    /// Every parameter is optional; a missing one keeps what the config says now. `sst` is a
    /// spelling of `stt` that clients sent.
    private func engineChoice(_ request: ServerRequest) throws(SetupError) -> EngineChoice {
        let current = config.current
        let sttName = request.parameter("stt").map { ("stt", $0) } ?? request.parameter("sst").map { ("sst", $0) }
        let stt =
            try sttName.map { (name, text) throws(SetupError) in
                EngineNames.recognizer(for: try SetupParameters.engineName(text, parameter: name))
            } ?? (engine: current.stt.engine, note: nil)
        let tts =
            try request.parameter("tts").map { text throws(SetupError) in
                EngineNames.synthesizer(for: try SetupParameters.engineName(text, parameter: "tts"))
            } ?? (engine: EngineNames.synthesizer, note: nil)
        func yesNo(_ name: String, current: Bool) throws(SetupError) -> String {
            guard let text = request.parameter(name) else { return current ? "y" : "n" }
            return try SetupParameters.yesNo(text, parameter: name)
        }
        let hotword = try yesNo("hotword", current: current.hotword.enabled)
        let wake = try yesNo("wake", current: current.hotword.wakeButton)
        var notes = [stt.note, tts.note].compactMap { $0 }
        if hotword == "n", wake == "n" {
            notes.append("the wake word stays on: without it and without a wake button nothing could wake the speaker")
        }
        return EngineChoice(stt: stt.engine, tts: tts.engine, hotword: hotword, wake: wake, notes: notes)
    }

    private func finishSetup(_ request: ServerRequest) throws -> ServerResponse {
        let choice = try engineChoice(request)
        let saved = try config.update(choice.apply)
        let token = try complete(saved)
        return .json(
            ConfigurationReply(
                stt: choice.stt, tts: choice.tts, hotword: choice.hotword, wake: choice.wake,
                note: Self.note(choice.notes), ownerToken: token))
    }

    /// Makes a new owner token, ends setup mode and runs `setup.on_complete`; returns the token
    /// for the reply. The token is new for every setup and given once: to the one client that
    /// finishes it (any other gets `setup-not-in-setup-mode`), never the token of an owner from
    /// before a reset.
    private func complete(_ saved: Config) throws(SetupError) -> String {
        // The token before setup mode ends: setup must never end with control routes no one
        // can open.
        let token = try setupState.finishOnce { () throws(SetupError) in try tokenFile.rotate() }
        logger.info("setup finished")
        hooks.run(
            "setup.on_complete", command: saved.setup.onComplete,
            environment: ["SUSI_ROOM": saved.room, "SUSI_CONFIG": config.store.path])
        return token
    }

    /// The old all-in-one form with the fields of the four calls. A missing field keeps what
    /// is there: no `room_name` keeps the room, no (or empty) `wifissid` the current Wi-Fi, no
    /// `auth`, `email` and `password` the account; the engines as `/config`. Everything is
    /// checked before anything is saved.
    private func reboot(_ request: ServerRequest) throws -> ServerResponse {
        let room = try request.parameter("room_name").map { text throws(SetupError) in try SetupParameters.room(text) }
        let ssid = request.parameter("wifissid") ?? ""
        let passphrase = request.parameter("wifipassd") ?? ""
        let network: WiFiNetwork? =
            ssid.isEmpty && passphrase.isEmpty ? nil : try WiFiNetwork(ssid: ssid, passphrase: passphrase)
        let accountGiven = ["auth", "email", "password"].contains { request.parameter($0) != nil }
        let choice = accountGiven ? try accountChoice(request) : nil
        let engines = try engineChoice(request)

        var notes: [String] = []
        if let choice, let note = try link(choice) { notes.append(note) }
        if let network { try storeWiFi(network, config: config.current) }
        let saved = try config.update { config in
            if let room { config.room = room }
            engines.apply(to: &config)
        }
        let token = try complete(saved)
        notes += engines.notes
        return .json(
            RebootReply(
                wifi: network == nil ? "unchanged" : "configured", roomName: saved.room,
                wifiSSID: network?.ssid ?? "", auth: choice?.auth ?? "unchanged", email: choice?.email ?? "",
                stt: engines.stt, tts: engines.tts, hotword: engines.hotword, wake: engines.wake, note: Self.note(notes),
                ownerToken: token))
    }

    /// The reply's `note`: the notes joined, or none.
    private static func note(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
