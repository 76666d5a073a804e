/// Commands of DESIGN.md whose features are still open issues: each says so and exits non-zero.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "the assistant: wake word, recognition, answer, speech"
    static let usage = "  susi run [--config F] [--input WAV] [--output WAV] [--events FILE|-] [--realtime]"
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the voice pipeline, issue #5")
    }
}

enum TranscribeCommand: Command {
    static let name = "transcribe"
    static let summary = "recognise a WAV file (no wake word) and print the transcript"
    static let usage = "  susi transcribe WAV [--json]"
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the voice pipeline, issue #5")
    }
}

