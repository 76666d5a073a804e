import Foundation
import SusiSpeaker

/// `susi run`: the assistant.
enum RunCommand: Command {
    static let name = "run"
    static let summary = "the assistant: wake word, recognition, answer, speech"
    static let usage = """
          susi run [--input WAV] [--output WAV] [--events FILE|-] [--realtime] [--conversation] [--no-server]
            --input WAV       listen to a WAV file (any rate/channels) instead of the microphone;
                              exits when it is consumed and the last answer is done
            --output WAV      write what is said to a WAV file instead of the speaker
            --events FILE|-   JSON Lines events (ready, wake, listening, speech_end, transcript,
                              answer, speak_start, speak_end, play, player, error, idle)
            --realtime        pace --input at real time, as a microphone would
            --conversation    print heard / understood / answered lines for people
            --no-server       do not host the setup/control server for the SUSI apps
        With the microphone, the setup/control server runs on setup.port beside the assistant;
        SIGTERM or SIGINT stop both within a second.
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let input = try arguments.option("--input")
        let output = try arguments.option("--output")
        let eventsPath = try arguments.option("--events")
        let realtime = arguments.flag("--realtime")
        let conversation = arguments.flag("--conversation")
        let noServer = arguments.flag("--no-server")
        try arguments.finish()
        if realtime, input == nil { throw UsageError("--realtime paces --input; the microphone is real time already") }

        let runtime = try SpeakerRuntime(
            options: SpeakerRuntime.Options(input: input, output: output, realtime: realtime, server: !noServer),
            store: context.store, environment: context.environment, logger: context.logger,
            sinks: try RunEventSinks.make(events: eventsPath, conversation: conversation))
        // SIGTERM or SIGINT: the pipeline and the server stop and the command returns (exit 0).
        try runtime.runUntilTerminated(logger: context.logger)
        if !runtime.readsFile { context.logger.info("stopped") }
    }
}
