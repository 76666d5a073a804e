import Foundation
import SusiCore

/// The speaker's HTTP API for the SUSI apps, home automation and a phone browser, in three
/// route groups: setup (`SetupRoutes`: `/speaker_config`, `/wifi_credentials`, `/auth`,
/// `/config`, `POST /reboot`), status and control (`ControlRoutes`: `/status`, `/play`,
/// `/pause`, ..., `/volume/N|up|down`, `/say`), and the web page (`SettingsRoutes`: `/`,
/// `/voices`, `/settings`).
///
/// Replies never contain a password or token, and nothing here logs one. The config is read
/// through one `LiveConfig` and changed under one mutex (read, change, atomic save), so
/// concurrent requests never lose each other's changes. Config errors become 400, or 500 when
/// the file cannot be written (`ConfigError.httpStatus`).
///
/// Handlers run on the server's connection threads; the service is safe to share.
public final class SetupService: Sendable {
    /// Where config changes go.
    public let store: ConfigStore
    /// The setup-mode flag.
    public let setupState: SetupStateFile
    /// The hooks' runner (`setup.on_wifi`, `setup.on_complete`).
    public let hooks: HookRunner
    private let config: SetupConfigAccess
    private let setup: SetupRoutes
    private let control: ControlRoutes
    private let settings: SettingsRoutes
    private let logger: Logger

    /// The config keys the web page may change through `POST /settings`.
    public static let pageSettings = SettingsRoutes.keys

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - store: the config file (give it a `voiceCheck` so voices are checked on save).
    ///   - live: the daemon's live config, read by every route; nil for one of the service's
    ///     own that checks the file on every request, so edits from elsewhere count at once.
    ///   - control: the player and voice the control routes drive.
    ///   - account: stores the SUSI account the apps send.
    ///   - voices: the installed voices, for the web page (called per request; keep it cheap).
    ///   - version: shown by `/status`.
    ///   - setupState: the setup-mode file; default `setup-state.json` beside the config.
    ///   - hooks: runs the setup hooks.
    public init(
        store: ConfigStore, live: LiveConfig? = nil, control: any SpeakerControl, account: any AccountLinking,
        voices: @escaping @Sendable () -> [VoiceChoice], version: String,
        setupState: SetupStateFile? = nil, hooks: HookRunner? = nil, logger: Logger = .silent,
        startedAt: Date = Date()
    ) {
        let setupState = setupState ?? SetupStateFile(configStore: store)
        let hooks = hooks ?? HookRunner(logger: logger.child("hook"))
        let config = SetupConfigAccess(store: store, live: live, logger: logger)
        self.store = store
        self.setupState = setupState
        self.hooks = hooks
        self.config = config
        self.logger = logger
        setup = SetupRoutes(config: config, setupState: setupState, hooks: hooks, account: account, logger: logger)
        self.control = ControlRoutes(
            config: config, setupState: setupState, control: control, version: version, startedAt: startedAt,
            logger: logger)
        settings = SettingsRoutes(config: config, voices: voices, logger: logger)
    }

    /// Adds every route to `router`.
    public func install(on router: inout Router) {
        setup.install(on: &router)
        control.install(on: &router)
        settings.install(on: &router)
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
        let current = currentConfig()
        return HTTPServer(
            host: host ?? current.setup.bind, port: port ?? UInt16(clamping: current.setup.port), limits: limits,
            logger: logger.child("http"), router: makeRouter())
    }

    /// The config in force: the file, or the last good one when the file has become invalid.
    public func currentConfig() -> Config {
        config.current
    }

    /// The `/status` reply.
    public func status() -> StatusReply {
        control.status()
    }
}
