import Foundation
import SusiCore
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

        let logger = context.logger
        var sinks: [any EventSink] = []
        if let eventsPath { sinks.append(JSONLinesEventSink(handle: try eventsHandle(eventsPath))) }
        if conversation {
            let toStdout = eventsPath != "-"
            sinks.append(
                ConversationPrinter { line in
                    (toStdout ? FileHandle.standardOutput : FileHandle.standardError).write(Data((line + "\n").utf8))
                })
        }
        let runtime = try SpeakerRuntime(
            options: SpeakerRuntime.Options(input: input, output: output, realtime: realtime, server: !noServer),
            store: context.store, environment: context.environment, logger: logger, sinks: sinks)
        // SIGTERM or SIGINT: the pipeline cuts its sentence and ends its run, the runtime stops
        // the server and the player (everything it keeps is saved as it changes), and the
        // command returns: exit status 0.
        let stop = runtime.stopHandler
        let shutdown = runtime.shutdownHandler
        let watch = TerminationWatch {
            logger.info("stopping")
            stop()
            // The pipeline stops within a chunk of audio, but a brain request in flight cannot
            // be cut: the process still ends within a second, with the same things stopped.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(800)) {
                shutdown()
                logger.warning("the pipeline did not stop in time; exiting")
                _exit(0)
            }
        }
        defer { withExtendedLifetime(watch) {} }
        try runtime.run()
        if !runtime.readsFile { logger.info("stopped") }
    }

    private static func eventsHandle(_ path: String) throws -> FileHandle {
        if path == "-" { return .standardOutput }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw AudioError(.unwritable, "cannot write events to \(path)")
        }
        return handle
    }
}
