import Foundation
import SusiBrain
import SusiCore
import SusiNet
import SusiSpeech

/// Where the bundled models (skills, hotword dictionary) are and how the pieces are built
/// from the config: the wiring shared by several commands.
enum Assembly {
    /// The `models` directory: `$SUSI_MODELS`, else the nearest `models/` above the
    /// executable (a build inside the repository), else the current directory's, else the
    /// installed copies.
    static func modelsDirectory(environment: [String: String]) throws -> String {
        if let explicit = environment["SUSI_MODELS"], !explicit.isEmpty {
            guard FileManager.default.fileExists(atPath: explicit + "/skills") else {
                throw SetupFailure("SUSI_MODELS=\(explicit) has no skills/ directory")
            }
            return explicit
        }
        var candidates: [String] = []
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("models").path)
            directory = directory.deletingLastPathComponent()
        }
        candidates += [FileManager.default.currentDirectoryPath + "/models", "/usr/local/share/susi/models", "/usr/share/susi/models"]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/skills") }) else {
            throw SetupFailure("cannot find the models directory (set SUSI_MODELS to the repository's models/)")
        }
        return found
    }

    /// What the brain knows of the speaker, from the config.
    static func brainContext(_ config: Config, volume: Int? = nil, lastAnswer: String? = nil, lastSkill: String? = nil)
        -> BrainContext
    {
        BrainContext(
            room: config.room, voice: config.tts.voice, rate: config.tts.rate, volume: volume ?? config.player.volume, volumeStep: config.player.volumeStep,
            lastAnswer: lastAnswer, lastSkill: lastSkill, language: config.brain.language)
    }

    /// The built-in skills, loaded from the models directory; bad skill files are logged.
    static func brain(_ context: CommandContext) throws -> Brain {
        let directory = try modelsDirectory(environment: context.environment) + "/skills"
        return try Brain(directory: directory, logger: context.logger.child("brain"))
    }
}

/// A missing piece of the installation (models, devices) named in one line.
struct SetupFailure: SusiError {
    let message: String
    init(_ message: String) { self.message = message }
    var stage: Stage { .config }
    var code: String { "setup-missing" }
}

extension Assembly {
    /// The speaker's ears: the wake word detector for `hotword.*` (verified, as measured best)
    /// and the command recogniser, which adapts to the room from what the detector heard.
    static func ears(_ config: Config, models: String, environment: [String: String], logger: Logger) throws
        -> (wake: any WakeWordDetector, recognizer: SphinxRecognizer)
    {
        try Hearing.makeEars(
            config: config, modelsDirectory: models, skillsDirectory: models + "/skills",
            cacheDirectory: cacheDirectory(environment: environment), logger: logger)
    }

    /// The command recogniser alone, with the language model generated from the skills (cached
    /// in `$XDG_CACHE_HOME/susi`, rebuilt when the skills change).
    static func recognizer(_ config: Config, models: String, environment: [String: String], logger: Logger) throws
        -> SphinxRecognizer
    {
        try Hearing.makeRecognizer(
            config: config, modelsDirectory: models, skillsDirectory: models + "/skills",
            cacheDirectory: cacheDirectory(environment: environment), logger: logger)
    }

    /// `$XDG_CACHE_HOME/susi`, else `~/.cache/susi`.
    static func cacheDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/susi" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/susi"
    }

    /// The voice to speak with under `config`.
    static func voice(_ config: Config) -> VoiceSettings {
        VoiceSettings(
            name: config.tts.voice, variant: config.tts.variant, rate: config.tts.rate, pitch: config.tts.pitch,
            volume: config.tts.volume)
    }
}

/// The generic-model second pass, loaded on first use (it costs about 40 MB).
final class OpenQuestionRecognizer {
    private let make: () throws -> SphinxRecognizer
    private var recognizer: SphinxRecognizer?

    init(models: String, logger: Logger) {
        make = { try Hearing.makeOpenRecognizer(modelsDirectory: models, logger: logger) }
    }

    func transcribe(_ samples: [Int16]) throws -> String {
        let loaded = try recognizer ?? make()
        recognizer = loaded
        return try loaded.transcribe(samples).text
    }
}
