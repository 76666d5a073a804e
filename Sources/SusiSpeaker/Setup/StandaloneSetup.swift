import Foundation
import SusiCore
import SusiModel
import SusiServer

/// `susi setup serve`: the setup/control server for the SUSI apps without the voice pipeline,
/// over the speaker's `SpeakerServices` with their own player, and a control that opens the
/// sound device itself for `/say`.
public final class StandaloneSetup {
    /// The server and its setup state.
    public let setup: SetupServer
    private let control: StandaloneSpeakerControl
    private let configuredPort: Int

    /// A server on `port` and `host` (default `setup.port` and `setup.bind`), driving the
    /// first-setup hotspot when `hotspot` is true; nothing listens before `start()`.
    /// - Throws: `ConfigError` when the config cannot be read or made.
    public init(store: ConfigStore, port: UInt16?, host: String?, hotspot: Bool, logger: Logger) throws {
        configuredPort = try store.loadOrCreate().setup.port
        // An invalid config edit is logged and the last good config kept.
        control = try SpeakerServices(store: store, logger: logger) { error in
            logger.warning("\(error.code): \(error.message)")
        }.control()
        setup = SetupServer(
            store: store, control: control, port: port, host: host,
            hotspot: hotspot ? .forSpeaker(store: store, logger: logger.child("hotspot")) : nil, logger: logger)
    }

    /// Listens (and starts the login retry and the hotspot's checks).
    /// - Throws: `ServerError` when the port cannot be bound.
    public func start() throws(ServerError) {
        try setup.start()
    }

    /// Where a browser on this machine reaches the server once started: the bound address,
    /// or 127.0.0.1 when bound to every address.
    public var url: String {
        let server = setup.server
        let host = server.host == "0.0.0.0" ? "127.0.0.1" : server.host
        return "http://\(host):\(server.port ?? UInt16(clamping: configuredPort))/"
    }

    /// Whether the setup routes are open (`SetupStateFile.isInSetupMode`).
    public var isInSetupMode: Bool {
        setup.service.setupState.isInSetupMode
    }

    /// Stops the server, then the control's player and speech.
    public func stop() {
        setup.stop()
        control.shutdown()
    }
}
