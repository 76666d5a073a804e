import Foundation
import SusiAudio
import SusiCore
import SusiSpeaker
import SusiSpeech

/// `susi transcribe WAV [--json]`: recognition only, no wake word.
enum TranscribeCommand: Command {
    static let name = "transcribe"
    static let summary = "recognise a WAV file (no wake word) and print the transcript"
    static let usage = """
          susi transcribe WAV [--json]
        Any rate and channel count, with stt.engine: Whisper hears the file whole (where it is
        installed), PocketSphinx with the skills' and open questions' models. --json prints
        {"text", "engine"}, and PocketSphinx's "words": [{"word", "start_ms", "end_ms", "confidence"}].
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let json = arguments.flag("--json")
        let path = try arguments.required("WAV")
        try arguments.finish()
        let audio = try AudioConverter.convert(try WAVFile.read(path: path), to: .speech)
        let config = try context.store.load()
        let models = try Assembly.modelsDirectory(environment: context.environment)
        if let whisper = try Assembly.whisper(config, models: models, logger: context.logger.child("stt")) {
            let text = try whisper.transcribe(audio.samples)
            if json {
                context.printJSON(JSONValue.object(["text": .string(text), "engine": .string("whisper")]).jsonText)
            } else {
                context.print(text)
            }
            return
        }
        let recognizer = try Assembly.recognizer(
            config, models: models, environment: context.environment, logger: context.logger.child("stt"))
        let transcript = try recognizer.transcribe(audio)
        if json {
            context.printJSON(try transcript.jsonLine())
        } else {
            context.print(transcript.text)
        }
    }
}
