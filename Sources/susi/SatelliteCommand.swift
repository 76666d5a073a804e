import Foundation
import SusiSpeaker

/// `susi satellite serve [--host ADDR] [--port N]`: the speaker as a Home Assistant voice
/// satellite over the Wyoming protocol.
enum SatelliteCommand: Command {
    static let name = "satellite"
    static let summary = "a Home Assistant voice satellite over the Wyoming protocol"
    static let usage = """
          susi satellite serve [--host ADDR] [--port N]
            --host ADDR   address to listen on (default 127.0.0.1, this host only; 0.0.0.0 for
                          a Home Assistant on another machine: Wyoming has no authentication)
            --port N      TCP port (default 10700; 0 picks a free one)
        Home Assistant's Wyoming Protocol integration connects to it (host and port); while it
        runs the satellite, the microphone (audio.input) listens for hotword.phrase, streams
        the command that follows to Home Assistant, and its spoken answer plays on
        audio.output. Prints the address once listening; SIGTERM or SIGINT stop it.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let host = try arguments.option("--host") ?? WyomingSatellite.defaultHost
        let port = try arguments.intOption("--port", in: 0...65535) ?? Int(WyomingSatellite.defaultPort)
        _ = try arguments.action("serve")
        try arguments.finish()
        let satellite = try WyomingSatellite(
            options: WyomingSatellite.Options(host: host, port: UInt16(port)), store: context.store,
            environment: context.environment, logger: context.logger.child("satellite"))
        try satellite.start()
        let shown = host.contains(":") ? "[\(host)]" : host
        context.print("serving the Wyoming satellite at tcp://\(shown):\(satellite.port)")
        waitForTermination()
        satellite.stop()
    }
}
