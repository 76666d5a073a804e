import SusiSpeaker

/// `susi devices`: the capture and playback devices PortAudio sees.
enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "list audio capture and playback devices"
    static let usage = """
          susi devices            index, name, sound system, channels, rate; defaults marked
        Use a name or an index as audio.input / audio.output in the config.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        try arguments.finish()
        context.print(try AudioDeviceSetting.listing(logger: context.logger.child("audio")))
    }
}
