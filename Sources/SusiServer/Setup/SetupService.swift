import Foundation
import SusiCore
import SusiModel

/// The speaker's HTTP API for the SUSI apps, home automation and a phone browser, in three
/// route groups behind the cross-site checks of `RequestPolicy`: setup (`SetupRoutes`: `/speaker_config`, `/wifi_credentials`, `/auth`,
/// `/config`, `POST /reboot`, `GET /wifi_networks`), status and control (`ControlRoutes`: `/status`, `/play`,
/// `/pause`, ..., `/volume/N|up|down`, `/say`), and the web page (`SettingsRoutes`: `/`,
/// `/voices`, `/settings`).
///
/// After setup the control routes, `/settings` and `/status` details need the owner
/// (`OwnerAccess`); the setup routes stay open only in setup mode. Replies never contain a
/// password, and nothing here logs one or the owner token; the token is given out only in the
/// reply that finishes setup. The config is read
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
    /// Who may use the control routes, `/settings` and `/status` details: the owner token.
    public let access: OwnerAccess
    /// The cross-site checks every request passes first.
    public let policy: RequestPolicy
    private let config: SetupConfigAccess
    private let setup: SetupRoutes
    private let control: ControlRoutes
    private let settings: SettingsRoutes
    private let dashboard: DashboardRoutes
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
    ///   - tokenFile: the owner token; default `owner-token` beside the config. Made here when
    ///     setup is finished and there is none yet.
    ///   - policy: the cross-site checks (default: this machine's hostname).
    ///   - network: where `/mac` reads the interfaces (default `/sys/class/net` and `/proc`).
    ///   - dashboard: what the web page shows beyond settings (live view, history, timers, ...).
    ///   - scanner: lists the Wi-Fi networks around the speaker for the setup page (default:
    ///     none, `GET /wifi_networks` then says it cannot scan).
    public init(
        store: ConfigStore, live: LiveConfig? = nil, control: any SpeakerControl, account: any AccountLinking,
        voices: @escaping @Sendable () -> [VoiceChoice], version: String,
        setupState: SetupStateFile? = nil, hooks: HookRunner? = nil, logger: Logger = .silent,
        startedAt: Date = Date(), tokenFile: OwnerTokenFile? = nil, policy: RequestPolicy = RequestPolicy(),
        network: NetworkInterfaces = NetworkInterfaces(),
        dashboard: SpeakerDashboard = SpeakerDashboard(), scanner: any WiFiScanning = NoWiFiScanner()
    ) {
        let setupState = setupState ?? SetupStateFile(configStore: store)
        let hooks = hooks ?? HookRunner(logger: logger.child("hook"))
        let config = SetupConfigAccess(store: store, live: live, logger: logger)
        let access = OwnerAccess(tokenFile: tokenFile ?? OwnerTokenFile(configStore: store), setupState: setupState)
        do throws(SetupError) {
            try access.ensureTokenAfterSetup()
        } catch {
            // Fails closed: without a token file the control routes stay shut after setup.
            logger.warning("\(error.code): cannot make the owner token: \(error.message)")
        }
        self.store = store
        self.setupState = setupState
        self.hooks = hooks
        self.access = access
        self.policy = policy
        self.config = config
        self.logger = logger
        setup = SetupRoutes(
            config: config, setupState: setupState, hooks: hooks, account: account, tokenFile: access.tokenFile,
            scanner: scanner, logger: logger)
        self.control = ControlRoutes(
            config: config, setupState: setupState, control: control, access: access, network: network,
            version: version, startedAt: startedAt, logger: logger)
        settings = SettingsRoutes(config: config, voices: voices, access: access, logger: logger)
        self.dashboard = DashboardRoutes(config: config, dashboard: dashboard, access: access, logger: logger)
    }

    /// Adds the cross-site checks and every route to `router`.
    public func install(on router: inout Router) {
        let policy = self.policy
        router.filter { policy.refusal(for: $0) }
        setup.install(on: &router)
        control.install(on: &router)
        settings.install(on: &router)
        dashboard.install(on: &router)
    }

    /// A router serving only this service's routes.
    public func makeRouter() -> Router {
        var router = Router()
        install(on: &router)
        return router
    }

    /// The limits the setup server uses: small bodies (64 KiB), short idle time (15 s), 10 s to
    /// send a whole request, and room for a phone, a browser and home automation at once. One
    /// address may hold 16 of the 128 connections, and 16 slots are kept free by closing the
    /// slowest waiting connection, so clients dripping bytes from many addresses still leave
    /// room for everyone else (reliability/run.sh measures it).
    public static let limits = ServerLimits(
        maxConnections: 128, maxConnectionsPerIP: 16, connectionTimeoutSeconds: 15, maxBodyBytes: 64 * 1024,
        requestDeadlineSeconds: 10, reservedConnections: 16)

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
