import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiServer
import Synchronization

/// The setup/control HTTP server for the SUSI apps over a `SpeakerControl`, with the account
/// link and its background retry: what `susi setup serve` and `susi run` both host.
public final class SetupServer: Sendable {
    /// The routes, for the setup state the caller may show.
    public let service: SetupService
    /// The listening server; `port` is known once started.
    public let server: HTTPServer
    private let retry: PendingLoginRetry
    private let hotspot: HotspotController?
    /// The port the server listens on, once started: where the captive redirect points.
    private let listening: ListeningPort

    /// A server on `port` and `host` (default `setup.port` and `setup.bind`); nothing listens
    /// before `start()`. `live` is the daemon's live config, which the routes then read and
    /// change (nil: the service checks the file on every request). `dashboard` is what the
    /// web page shows beyond settings; nil: `SpeakerDashboards.standalone`'s. `hotspot` drives
    /// the first-setup hotspot while the server runs (nil: none). `http` reaches the SUSI
    /// server for the account link and the device registration. `scanner` lists the networks
    /// around the speaker for the setup page (`wpa_cli`).
    public init(
        store: ConfigStore, live: LiveConfig? = nil, control: any SpeakerControl, port: UInt16? = nil,
        host: String? = nil, hotspot: HotspotController? = nil,
        http: @escaping @Sendable () -> any HTTPClient = { CurlHTTPClient(stage: .brain) }, logger: Logger,
        dashboard: SpeakerDashboard? = nil, scanner: any WiFiScanning = WPAScanner()
    ) {
        self.hotspot = hotspot
        var registration = DeviceRegistration(store: store, logger: logger.child("device"))
        registration.http = http
        var account = SetupAccountLink(store: store, logger: logger.child("account"))
        account.http = http
        account.registration = registration
        let retry = PendingLoginRetry(account: account, registration: registration)
        // Registered right after the apps' /auth, not a minute later.
        account.onLoggedIn = { retry.nudge() }
        let listening = ListeningPort()
        self.listening = listening
        service = SetupService(
            store: store, live: live, control: control, account: account, voices: { Assembly.installedVoices(store: store) },
            version: Assembly.version, logger: logger,
            policy: Self.policy(setupState: SetupStateFile(configStore: store), listening: listening),
            dashboard: dashboard
                ?? SpeakerDashboards.standalone(
                    store: store, environment: ProcessInfo.processInfo.environment, logger: logger.child("brain")),
            scanner: scanner)
        server = service.makeServer(port: port, host: host)
        self.retry = retry
    }

    /// Listens, retries in the background a login the apps sent while the speaker was offline
    /// and the device's registration with the account, and starts the hotspot's checks.
    /// - Throws: `ServerError` when the port cannot be bound.
    public func start() throws(ServerError) {
        try server.start()
        listening.port.withLock { $0 = server.port }
        retry.start()
        hotspot?.startChecking()
    }

    /// The cross-site checks, with the captive-portal landing while the setup state file records
    /// the hotspot as open (whichever process drives it): a phone's requests under any other
    /// name, which dnsmasq resolves to 10.0.0.1 and the hotspot's redirect brings from port 80
    /// to this server, are sent to the setup page at `http://10.0.0.1:PORT/`.
    static func policy(setupState: SetupStateFile, listening: ListeningPort) -> RequestPolicy {
        RequestPolicy(landing: {
            guard setupState.hotspot?.phase == HotspotPhase.hotspot.rawValue,
                let port = listening.port.withLock({ $0 })
            else { return nil }
            return HotspotSettings.landingPage(port: Int(port))
        })
    }

    /// Stops the retry and the server.
    public func stop() {
        hotspot?.stopChecking()
        retry.stop()
        server.stop()
    }
}

/// The setup server's port once it listens (nil before).
final class ListeningPort: Sendable {
    let port = Mutex<UInt16?>(nil)
}
