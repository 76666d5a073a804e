import Foundation
import SusiModel
import SusiSpeaker

/// `susi setup serve [--port N] [--bind ADDR]` and `susi setup --reset`: the setup and control
/// HTTP server for the SUSI apps without the voice pipeline, and the way back to setup mode.
enum SetupCommand: Command {
    static let name = "setup"
    static let summary = "the setup/control HTTP server for the SUSI apps"
    static let usage = """
          susi setup serve [--port N] [--bind ADDR]   serve the apps' API until interrupted
          susi setup --reset                          back to setup mode (setup routes open again; a new owner token)
          susi setup status                           say whether the speaker is in setup mode
          susi setup token [--rotate]                 print the owner token (--rotate: a new one)
          susi setup hotspot start|stop|status        the "SUSI.AI" Wi-Fi hotspot at 10.0.0.1 for first setup
                                                      (status: what runs, and its password for the box's label;
                                                      exit 0 as wanted, 3 wanted but not running, 4 left running)
        The port and address default to setup.port (5000) and setup.bind (0.0.0.0); --port 0
        picks a free port; --no-hotspot serves without driving the hotspot. Prints the URL once
        listening. No microphone is used; /say speaks on audio.output and /play starts the player.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let reset = arguments.flag("--reset")
        let rotate = arguments.flag("--rotate")
        let port = try arguments.intOption("--port", in: 0...65535)
        let bind = try arguments.option("--bind")
        let noHotspot = arguments.flag("--no-hotspot")
        let action = try arguments.positional()
        let hotspotAction = action == "hotspot" ? try arguments.required("hotspot action") : nil
        try arguments.finish()
        if rotate, action != "token" { throw UsageError("--rotate goes with `susi setup token`") }
        let store = context.store
        let mode = SetupMode(store: store)
        if reset {
            try mode.reset()
            context.print("setup mode is on: the SUSI apps can set the speaker up again; the owner token was replaced")
        }
        switch action {
        case nil:
            guard reset else { throw UsageError("missing an action (serve or status) or --reset") }
        case "status":
            if let reason = mode.reason {
                context.print("setup mode: the setup routes are open again since \(reason)")
            } else {
                context.print(mode.isOn ? "setup mode: the setup routes are open" : "set up: the setup routes are closed")
            }
        case "serve":
            try serve(context, store: store, port: port, bind: bind, hotspot: !noHotspot)
        case "token":
            context.print(try mode.ownerToken(rotate: rotate))
        case "hotspot":
            try hotspot(hotspotAction ?? "", context: context, store: store)
        case let other?:
            throw UsageError("unknown action '\(other)'; expected serve, status, token or hotspot")
        }
    }

    /// `start|stop|status`, and `helper STEP`: what the privileged helper units run as root.
    private static func hotspot(_ action: String, context: CommandContext, store: ConfigStore) throws {
        let controller = HotspotController.forSpeaker(store: store, logger: context.logger.child("hotspot"))
        switch action {
        case "start": try controller.start()
        case "stop": try controller.stop()
        case "status": break
        case "helper-up", "helper-down", "helper-join":
            try HotspotController.runHelperStep(String(action.dropFirst("helper-".count)), store: store)
            return
        default: throw UsageError("unknown hotspot action '\(action)'; expected start, stop or status")
        }
        let status = controller.status()
        context.print(status.description)
        // How to join, for the box's label and the person setting it up; only here, never on a network reply.
        if action == "status" {
            context.print(status.label)
            switch status.exitStatus {
            case 0: break
            case 3: throw StatusExit(status: 3, message: "the hotspot is not running")
            default: throw StatusExit(status: status.exitStatus, message: "the hotspot runs though hotspot mode is off")
            }
        }
    }

    private static func serve(_ context: CommandContext, store: ConfigStore, port: Int?, bind: String?, hotspot: Bool)
        throws
    {
        let standalone = try StandaloneSetup(
            store: store, port: port.map { UInt16($0) }, host: bind, hotspot: hotspot, logger: context.logger.child("setup"))
        try standalone.start()
        let mode = standalone.isInSetupMode ? "on" : "off"
        context.print("serving the setup API at \(standalone.url) (setup mode \(mode))")
        waitForTermination()
        standalone.stop()
    }
}
