import SusiCore

/// The first-setup routes the SUSI apps call: `/speaker_config`, `/wifi_credentials`, `/auth`,
/// `/config` and the old all-in-one `POST /reboot`.
///
/// They answer only in setup mode (`SetupStateFile`), else 403. Every parameter is validated
/// before anything is saved, so a 400 (which names the parameter) leaves the config, the Wi-Fi
/// file and the account untouched.
struct SetupRoutes: Sendable {
    let config: SetupConfigAccess
    let setupState: SetupStateFile
    let hooks: HookRunner
    let account: any AccountLinking
    let logger: Logger

    /// Adds the setup routes to `router`.
    func install(on router: inout Router) {
        let both = ["GET", "POST"]
        router.add(both, "/speaker_config") { [self] in try route($0, speakerConfig) }
        router.add(both, "/wifi_credentials") { [self] in try route($0, wifiCredentials) }
        router.add(both, "/auth") { [self] in try route($0, auth) }
        router.add(both, "/config") { [self] in try route($0, finishSetup) }
        router.post("/reboot") { [self] in try route($0, reboot) }
    }

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

        enum CodingKeys: String, CodingKey {
            case wifi, auth, email, stt, tts, hotword, wake, message, note
            case roomName = "room_name"
            case wifiSSID = "wifi_ssid"
        }
    }

    // MARK: Routes

    private func route(_ request: ServerRequest, _ handler: (ServerRequest) throws -> ServerResponse) throws
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
        let network = try WiFiNetwork(
            ssid: SetupParameters.required(request, "wifissid"),
            passphrase: SetupParameters.required(request, "wifipassd"))
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
        let saved = try config.update(choice.apply)
        try complete(saved)
        return .json(
            ConfigurationReply(
                stt: choice.stt, tts: choice.tts, hotword: choice.hotword, wake: choice.wake,
                note: Self.note(choice.notes)))
    }

    /// Ends setup mode and runs `setup.on_complete`.
    private func complete(_ saved: Config) throws(SetupError) {
        try setupState.finish()
        logger.info("setup finished")
        hooks.run(
            "setup.on_complete", command: saved.setup.onComplete,
            environment: ["SUSI_ROOM": saved.room, "SUSI_CONFIG": config.store.path])
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
        if let network { try storeWiFi(network, config: config.current) }
        let saved = try config.update { config in
            config.room = room
            engines.apply(to: &config)
        }
        try complete(saved)
        notes += engines.notes
        return .json(
            RebootReply(
                wifi: network == nil ? "unchanged" : "configured", roomName: saved.room,
                wifiSSID: network?.ssid ?? "", auth: choice.auth, email: choice.email, stt: engines.stt,
                tts: engines.tts, hotword: engines.hotword, wake: engines.wake, note: Self.note(notes)))
    }

    /// The reply's `note`: the notes joined, or none.
    private static func note(_ notes: [String]) -> String? {
        notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}
