import Foundation
import SusiSpeaker

/// `susi say TEXT [--voice NAME] [--output WAV]`: speak with the configured voice.
enum SayCommand: Command {
    static let name = "say"
    static let summary = "speak text with the configured (or given) voice"
    static let usage = """
          susi say TEXT [--voice NAME] [--variant V] [--output WAV]
        Speaks to the default output device (audio.output), or writes a 16-bit WAV with --output.
        The voice is tts.voice/tts.variant/tts.rate/tts.pitch/tts.volume unless --voice is given
        (an id such as en-gb-scotland or an accent such as scottish).
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let voiceName = try arguments.option("--voice")
        let variant = try arguments.option("--variant")
        let output = try arguments.option("--output", "-o")
        let text = try arguments.words().joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw UsageError("missing TEXT") }

        let config = try context.store.load()
        let written = try SpeechOutput.say(
            text, config: config, voiceName: voiceName, variant: variant, output: output, logger: context.logger)
        if let written, let output { context.print("wrote \(output) (\(written) ms)") }
    }
}
