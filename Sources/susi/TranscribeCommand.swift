import Foundation
import SusiSpeaker

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
        let result = try TranscribeFile.run(
            path: path, store: context.store, environment: context.environment, logger: context.logger.child("stt"))
        if json {
            context.printJSON(try result.jsonLine())
        } else {
            context.print(result.text)
        }
    }
}
