import SusiAudio
import SusiCore

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
        let session = try PortAudioSession(logger: context.logger.child("audio"))
        let devices = try session.devices()
        guard !devices.isEmpty else {
            throw AudioError(.noDevice, "no audio devices found (is a sound card or ALSA configured?)")
        }
        for device in devices { context.print(device.description) }
    }
}
