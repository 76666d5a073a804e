import Foundation
import SusiAudio
import SusiCore
import SusiSpeaker
import SusiSpeech

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
        var words: [String] = []
        while let word = try arguments.positional() { words.append(word) }
        let text = words.joined(separator: " ").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw UsageError("missing TEXT") }

        let config = try context.store.load()
        var voice = Assembly.voice(config)
        if let voiceName {
            voice.name = voiceName
            voice.variant = ""
        }
        if let variant { voice.variant = variant }
        let engine = try ESpeakEngine.shared()
        // Resolve before opening any output, so a bad voice leaves nothing behind.
        _ = try engine.espeakVoiceName(for: voice)

        let (sink, file) = try Assembly.speechSink(
            path: output, device: config.audio.output, sampleRate: engine.format.sampleRate, logger: context.logger)
        try SpeechOutput.speak(text, voice: voice, engine: engine, into: sink)
        if let file, let output {
            try file.close()
            context.print("wrote \(output) (\(file.framesWritten * 1000 / WAVFileSink.format.sampleRate) ms)")
        }
    }
}
