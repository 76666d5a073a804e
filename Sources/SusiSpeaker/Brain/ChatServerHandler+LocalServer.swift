import SusiBrain
import SusiCore
import SusiModel
import SusiServer

extension ChatServerHandler {
    /// `susi brain serve`: `brain` as a SUSI-compatible `/susi/chat.json` on 127.0.0.1:`port`
    /// (0: a free one), answering with what the config of `store` says of the speaker at each
    /// request. Nothing listens before `start()`.
    public static func localServer(brain: Brain, store: ConfigStore, port: UInt16, logger: Logger) -> HTTPServer {
        let handler = ChatServerHandler(brain: brain, context: { Assembly.brainContext((try? store.load()) ?? Config()) })
        var router = Router()
        handler.install(on: &router)
        return HTTPServer(host: "127.0.0.1", port: port, logger: logger, router: router)
    }
}
