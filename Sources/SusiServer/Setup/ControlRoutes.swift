import Foundation
import SusiCore
import SusiModel

/// The status and control routes for apps and home automation: `/status`, `/mac`, `/play`,
/// `/pause`, `/resume`, `/stop`, `/next`, `/previous`, `/restart`, `/shuffle`,
/// `/volume/N|up|down|dn` and `/say`, as susi_linux's control server had them.
///
/// Commands are `POST` or `PUT` only, so a link or an `<img>` (GET, HEAD) changes nothing, and
/// they need the owner (`OwnerAccess`): 401 otherwise. `/status` tells anyone else only
/// `{"ok": true}`. A control route answers with the status after the command, or with the JSON
/// error of a failing player or sound device (503, its own code).
struct ControlRoutes: Sendable {
    let config: SetupConfigAccess
    let setupState: SetupStateFile
    let control: any SpeakerControl
    let access: OwnerAccess
    let network: NetworkInterfaces
    let version: String
    let startedAt: Date
    let logger: Logger

    /// The methods that run a command.
    static let commandMethods = ["POST", "PUT"]

    /// Adds the status and control routes to `router`.
    func install(on router: inout Router) {
        let command = Self.commandMethods
        router.add(["GET", "POST", "PUT"], "/status") { [self] request in
            access.isOwner(request) ? .json(status()) : .json(object: ["ok": true])
        }
        router.add(["GET", "POST", "PUT"], "/mac") { [self] request in
            guard access.isOwner(request) else { return OwnerAccess.unauthorized }
            guard let mac = network.primaryMAC() else {
                return SetupError(.unavailable, "this machine has no network interface with a MAC address").response
            }
            return .json(object: ["macid": mac])
        }
        router.add(command, "/play") { [self] in try route($0, play) }
        for action in Self.simpleCommands {
            router.add(command, "/" + action.type) { [self] in
                try route($0) { _ throws in
                    try control.perform(action)
                    return action.type
                }
            }
        }
        for down in ["down", "dn"] {
            router.add(command, "/volume/" + down) { [self] in try route($0) { _ throws in try changeVolume(up: false) } }
        }
        router.add(command, "/volume/up") { [self] in try route($0) { _ throws in try changeVolume(up: true) } }
        router.add(command, "/volume/:level") { [self] in try route($0, setVolume) }
        router.add(command, "/say") { [self] in try route($0, say) }
    }

    /// The `/status` reply for the owner; a played URL is shown without `user:password@`.
    func status() -> StatusReply {
        let current = config.current
        let status = control.status()
        return StatusReply(
            state: status.state, setupMode: setupState.isInSetupMode, setupModeReason: setupState.setupModeReason,
            room: current.room, voice: current.tts.voice,
            rate: current.tts.rate, brainMode: current.brain.mode, volume: status.volume,
            playing: status.playback == "playing", playback: status.playback,
            media: status.media.map(SetupParameters.withoutCredentials),
            lastInteraction: status.lastInteraction.map { Timestamp.iso8601($0) },
            version: version, uptimeSeconds: Int(Date().timeIntervalSince(startedAt)))
    }

    /// What a control route answers after its command.
    struct CommandReply: Encodable {
        let command: String
        let playback: String
        let volume: Int
        let state: String
    }

    /// The routes named after the player's controls (`/pause` ... `/shuffle`).
    private static let simpleCommands: [ChatAction] = [.pause, .resume, .stop, .next, .previous, .restart, .shuffle]

    /// Runs a control action (which returns the command's name) for the owner and answers with
    /// the status.
    private func route(_ request: ServerRequest, _ action: (ServerRequest) throws -> String) throws
        -> ServerResponse
    {
        guard access.isOwner(request) else { return OwnerAccess.unauthorized }
        do {
            let command = try action(request)
            let status = control.status()
            return .json(
                CommandReply(command: command, playback: status.playback, volume: status.volume, state: status.state))
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

    /// `ytb` (a YouTube id), `url`, or susi_linux's `mrl`: one http(s) URL, or several separated
    /// by `;`, which become a playlist.
    private func play(_ request: ServerRequest) throws -> String {
        let media: MediaPlayAction
        if let id = request.parameter("ytb") {
            media = MediaPlayAction(identifier: try SetupParameters.youtubeID(id), identifierType: MediaPlayAction.youtube)
        } else if let url = request.parameter("url") {
            media = MediaPlayAction(identifier: try SetupParameters.mediaURL(url), identifierType: MediaPlayAction.url)
        } else if let list = request.parameter("mrl") {
            let urls = try SetupParameters.playlist(list)
            media = MediaPlayAction(identifier: urls[0], identifierType: MediaPlayAction.url, queue: Array(urls.dropFirst()))
        } else {
            throw SetupError.bad("ytb", "give ytb (a YouTube video id), url or mrl (http(s) URLs separated by ;)")
        }
        try control.perform(.audioPlay(media))
        return "play"
    }

    private func setVolume(_ request: ServerRequest) throws -> String {
        try control.perform(.audioVolume(VolumeAction(volume: SetupParameters.volume(request.pathParameters["level"] ?? ""))))
        return "volume"
    }

    private func changeVolume(up: Bool) throws -> String {
        let step = config.current.player.volumeStep
        try control.perform(.audioVolume(VolumeAction(volume: control.status().volume + (up ? step : -step))))
        return up ? "volume-up" : "volume-down"
    }

    private func say(_ request: ServerRequest) throws -> String {
        try control.perform(.answer(AnswerAction(expression: SetupParameters.speech(SetupParameters.required(request, "text")))))
        return "say"
    }
}

/// The `/status` reply: what the speaker is doing and how it is set up.
public struct StatusReply: Encodable, Sendable, Equatable {
    /// The assistant's state (`idle`, `listening`, `thinking`, `speaking`, `setup-only`).
    public let state: String
    /// Whether the setup routes are open.
    public let setupMode: Bool
    /// Why setup mode came back by itself (a failed Wi-Fi join); JSON `null` otherwise.
    public let setupModeReason: String?
    /// The configured room.
    public let room: String
    /// The configured voice id.
    public let voice: String
    /// The configured speaking rate.
    public let rate: Int
    /// The configured brain mode.
    public let brainMode: String
    /// The listening volume, 0-100.
    public let volume: Int
    /// Whether the player is playing.
    public let playing: Bool
    /// The player: `idle`, `playing` or `paused`.
    public let playback: String
    /// What is loaded in the player; JSON `null` when nothing is.
    public let media: String?
    /// When the last interaction ended (ISO 8601); JSON `null` when there has been none.
    public let lastInteraction: String?
    /// The program version.
    public let version: String
    /// Seconds since the service started.
    public let uptimeSeconds: Int

    enum CodingKeys: String, CodingKey {
        case state, room, voice, rate, volume, playing, playback, media, version
        case setupMode = "setup_mode"
        case setupModeReason = "setup_mode_reason"
        case brainMode = "brain_mode"
        case lastInteraction = "last_interaction"
        case uptimeSeconds = "uptime_seconds"
    }

    /// Writes every key, `media` and `last_interaction` as `null` when absent (apps read them).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(setupMode, forKey: .setupMode)
        try container.encode(setupModeReason, forKey: .setupModeReason)
        try container.encode(room, forKey: .room)
        try container.encode(voice, forKey: .voice)
        try container.encode(rate, forKey: .rate)
        try container.encode(brainMode, forKey: .brainMode)
        try container.encode(volume, forKey: .volume)
        try container.encode(playing, forKey: .playing)
        try container.encode(playback, forKey: .playback)
        try container.encode(media, forKey: .media)
        try container.encode(lastInteraction, forKey: .lastInteraction)
        try container.encode(version, forKey: .version)
        try container.encode(uptimeSeconds, forKey: .uptimeSeconds)
    }
}
