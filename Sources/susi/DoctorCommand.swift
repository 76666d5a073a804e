import Foundation
import SusiSpeaker

/// `susi doctor`: one line per check; exit status 1 when something essential is missing.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "check devices, models, wake word, voice, player, yt-dlp, server, config, disk"
    static let usage = """
          susi doctor    one line per check (ok, warning, FAILED); exits 1 when something the
                         speaker cannot work without is missing (config, sound devices, models,
                         recogniser, wake word, voice)
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        try arguments.finish()
        let checks = Doctor(store: context.store, environment: context.environment, logger: context.logger.child("audio")).run()
        context.print(Doctor.lines(checks))
        if let failure = Doctor.failure(checks) { throw failure }
    }
}
