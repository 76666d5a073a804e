import SusiCore
import SusiModel
import SusiServer

/// `susi brain serve`: the built-in skills of the models directory answering SUSI's
/// `/susi/chat.json` on 127.0.0.1 (`ChatServerHandler.localServer`).
///
/// Owns its HTTP server; nothing listens before `start()`, and `stop()` (or deinit) closes it.
public final class LocalBrainServer: Sendable {
    private let server: HTTPServer
    private let requestedPort: UInt16

    /// The skills of `environment`'s models directory (`Assembly.brain`) behind a server on
    /// `port` (0: a free one), answering with what the config of `store` says at each request.
    /// - Throws: what `Assembly.brain` throws (no models directory, unreadable skills).
    public init(environment: [String: String], store: ConfigStore, port: UInt16, logger: Logger) throws {
        let brain = try Assembly.brain(environment: environment, logger: logger)
        server = ChatServerHandler.localServer(brain: brain, store: store, port: port, logger: logger.child("server"))
        requestedPort = port
    }

    /// Listens on 127.0.0.1.
    /// - Throws: `ServerError` when the port cannot be bound.
    public func start() throws(ServerError) {
        try server.start()
    }

    /// The chat URL: the bound port once started, else the one asked for.
    public var url: String {
        "http://127.0.0.1:\(server.port ?? requestedPort)\(ChatServerHandler.path)"
    }

    /// Stops listening and waits for running requests. Idempotent.
    public func stop() {
        server.stop()
    }
}
