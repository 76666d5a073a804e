import SusiCore
import SusiModel

/// The web page's routes: the page itself (`/`), the installed voices (`/voices`), the
/// settings it shows and changes (`GET` and `POST /settings`, the owner's only), and
/// `POST /session`, where the page trades the owner token for a session cookie.
struct SettingsRoutes: Sendable {
    let config: SetupConfigAccess
    let voices: @Sendable () -> [VoiceChoice]
    let access: OwnerAccess
    let logger: Logger
    /// Wrong sign-ins are logged at most once per interval: guessing must not flood the log.
    let warnings: WarningLimiter

    init(
        config: SetupConfigAccess, voices: @escaping @Sendable () -> [VoiceChoice], access: OwnerAccess,
        logger: Logger
    ) {
        self.config = config
        self.voices = voices
        self.access = access
        self.logger = logger
        warnings = WarningLimiter(logger: logger)
    }

    /// The config keys the web page may change through `POST /settings`: all but those that
    /// name programs or files (`ConfigSchema.fileOnlyKeys`).
    /// Secrets (`ConfigSchema.secrets`) are among them: the page sets them, never reads them.
    static let keys =
        ConfigSchema.keys.map(\.name).filter { !ConfigSchema.fileOnlyKeys.contains($0) } + ConfigSchema.secrets.map(\.name)

    /// Adds the web page's routes to `router`.
    func install(on router: inout Router) {
        router.get("/") { _ in .html(SettingsPage.html) }
        router.get("/voices") { [self] _ in .json(voices()) }
        router.get("/settings") { [self] request in
            access.isOwner(request) ? .json(settings()) : OwnerAccess.unauthorized
        }
        router.post("/settings") { [self] request in
            access.isOwner(request) ? change(request) : OwnerAccess.unauthorized
        }
        router.post("/session") { [self] in startSession($0) }
    }

    /// `POST /session` with `{"token": ...}` (or a `token` form field): a session cookie
    /// (HttpOnly, SameSite=Strict) for the owner token, 401 for anything else.
    private func startSession(_ request: ServerRequest) -> ServerResponse {
        let token: String?
        if let form = request.form["token"] {
            token = form
        } else if case .string(let text)? = (try? JSONValue.parse(request.body))?.objectValue?["token"] {
            token = text
        } else {
            token = nil
        }
        guard let token, let cookie = access.startSession(token: token.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            warnings.warn("wrong-owner-token", "a wrong owner token was entered from \(request.remoteAddress)")
            return OwnerAccess.unauthorized
        }
        logger.info("the web page signed in from \(request.remoteAddress)")
        var response = ServerResponse.json(object: ["session": "started"])
        response.headers.append((name: "Set-Cookie", value: cookie))
        return response
    }

    /// The `GET /settings` reply: the keys the page shows, and the choices it offers.
    struct SettingsReply: Encodable {
        let room: String
        let voice: String
        let rate: Int
        let brainMode: String
        let rooms: [String]
        let brainModes: [String]
        /// The first-setup hotspot's name and passphrase (nil when open or not readable), for
        /// the owner to put on the box's label.
        let hotspotSSID: String
        let hotspotPassphrase: String?

        enum CodingKeys: String, CodingKey {
            case room, rooms
            case voice = "tts.voice"
            case rate = "tts.rate"
            case brainMode = "brain.mode"
            case brainModes = "brain_modes"
            case hotspotSSID = "hotspot_ssid"
            case hotspotPassphrase = "hotspot_passphrase"
        }
    }

    /// The `POST /settings` reply: the key and its value as saved.
    struct ChangeReply: Encodable {
        let key: String
        let value: String
    }

    private func settings() -> SettingsReply {
        let current = config.current
        let passphrase: String?
        do throws(SetupError) {
            passphrase = try HotspotPassphraseFile.passphrase(for: current, store: config.store)
        } catch {
            logger.warning("\(error.code): \(error.message)")
            passphrase = nil
        }
        return SettingsReply(
            room: current.room, voice: current.tts.voice, rate: current.tts.rate, brainMode: current.brain.mode,
            rooms: SetupParameters.rooms, brainModes: ["local", "remote", "hybrid"], hotspotSSID: current.setup.hotspot.ssid,
            hotspotPassphrase: passphrase)
    }

    /// `POST /settings` with `{"key": "tts.voice", "value": "en-gb"}`: one validated change
    /// through `ConfigStore.set`.
    private func change(_ request: ServerRequest) -> ServerResponse {
        guard let object = (try? JSONValue.parse(request.body))?.objectValue else {
            return SetupError.bad("body", "the body must be a JSON object {\"key\": ..., \"value\": ...}").response
        }
        guard case .string(let key)? = object["key"], Self.keys.contains(key) else {
            return SetupError.bad("key", "key must be one of \(Self.keys.joined(separator: ", "))").response
        }
        let text: String
        switch object["value"] {
        case .string(let string)?: text = string
        case .number(let number)?: text = JSONValue.format(number)
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
            let saved = try config.set(key, to: text)
            // A secret is never echoed or logged, only whether it is set.
            let value =
                ConfigSchema.secret(named: key).map { SecretKey.shown(isSet: $0.isSet(store: config.store)) }
                ?? ConfigSchema.key(named: key)?.value(in: saved).description ?? text
            logger.info("\(key) set to \(value) from the web page")
            return .json(ChangeReply(key: key, value: value))
        } catch {
            return error.response(parameter: "value")
        }
    }
}
