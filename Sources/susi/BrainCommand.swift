import Foundation
import SusiSpeaker

/// `susi brain serve [--port N]`: the built-in brain as a SUSI-compatible `/susi/chat.json`.
enum BrainCommand: Command {
    static let name = "brain"
    static let summary = "serve the built-in brain as /susi/chat.json on 127.0.0.1"
    static let usage = """
          susi brain serve [--port N]   (default port 4000; 0 picks a free one)
        Serves GET and POST /susi/chat.json with SUSI's parameters (q, timezoneOffset, language)
        on 127.0.0.1 until interrupted. Prints the URL once listening.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let port = try arguments.intOption("--port", in: 0...65535) ?? 4000
        _ = try arguments.action("serve")
        try arguments.finish()
        let server = try LocalBrainServer(
            environment: context.environment, store: context.store, port: UInt16(port), logger: context.logger)
        try server.start()
        context.print("serving the built-in brain at \(server.url)")
        waitForTermination()
        server.stop()
    }
}
