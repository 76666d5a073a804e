import SusiCore

/// The web page's routes: the page itself (`/`), the installed voices (`/voices`), and the
/// settings it shows and changes (`GET` and `POST /settings`).
struct SettingsRoutes: Sendable {
    let config: SetupConfigAccess
    let voices: @Sendable () -> [VoiceChoice]
    let logger: Logger

    /// The config keys the web page may change through `POST /settings`.
    static let keys = ["tts.voice", "tts.rate", "room", "brain.mode"]

    /// Adds the web page's routes to `router`.
    func install(on router: inout Router) {
        router.get("/") { _ in .html(StatusPage.html) }
        router.get("/voices") { [self] _ in .json(voices()) }
        router.get("/settings") { [self] _ in .json(settings()) }
        router.post("/settings") { [self] in change($0) }
    }

    /// The `GET /settings` reply: the keys the page shows, and the choices it offers.
    struct SettingsReply: Encodable {
        let room: String
        let voice: String
        let rate: Int
        let brainMode: String
        let rooms: [String]
        let brainModes: [String]

        enum CodingKeys: String, CodingKey {
            case room, rooms
            case voice = "tts.voice"
            case rate = "tts.rate"
            case brainMode = "brain.mode"
            case brainModes = "brain_modes"
        }
    }

    /// The `POST /settings` reply: the key and its value as saved.
    struct ChangeReply: Encodable {
        let key: String
        let value: String
    }

    private func settings() -> SettingsReply {
        let current = config.current
        return SettingsReply(
            room: current.room, voice: current.tts.voice, rate: current.tts.rate, brainMode: current.brain.mode,
            rooms: SetupParameters.rooms, brainModes: ["local", "remote", "hybrid"])
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
            let value = ConfigSchema.key(named: key)?.value(in: saved).description ?? text
            logger.info("\(key) set to \(value) from the web page")
            return .json(ChangeReply(key: key, value: value))
        } catch {
            return error.response(parameter: "value")
        }
    }
}
