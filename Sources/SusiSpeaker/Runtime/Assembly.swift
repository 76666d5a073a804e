import Foundation
import SusiAudio
import SusiBrain
import SusiCore
import SusiModel
import SusiNet
import SusiServer
import SusiSpeech

/// Where the bundled models (skills, hotword dictionary) are and how the pieces are built
/// from the config: the wiring shared by several commands.
public enum Assembly {
    /// The `models` directory: `$SUSI_MODELS`, else the nearest `models/` above the
    /// executable (a build inside the repository), else the current directory's, else the
    /// installed copies.
    public static func modelsDirectory(environment: [String: String]) throws -> String {
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
        candidates += [
            FileManager.default.currentDirectoryPath + "/models", "/usr/local/share/susi/models", "/usr/share/susi/models",
        ]
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/skills") }) else {
            throw SetupFailure("cannot find the models directory (set SUSI_MODELS to the repository's models/)")
        }
        return found
    }

    /// Whisper for `config` (`stt.engine whisper`) from `models/whisper`; nil for
    /// `pocketsphinx`, or when Whisper is not installed (logged: PocketSphinx hears then).
    public static func whisper(_ config: Config, models: String, logger: Logger) -> WhisperTranscriber? {
        guard config.stt.engine == "whisper" else { return nil }
        do {
            return try WhisperSlot.make(config, directory: models + "/whisper")
        } catch {
            logger.warning("\(error.code): \(error.message); hearing with PocketSphinx")
            return nil
        }
    }

    /// What the brain knows of the speaker, from the config.
    /// `home`: the Home Assistant names (`HomeAssistantLink.names`), nil without one.
    public static func brainContext(
        _ config: Config, volume: Int? = nil, lastAnswer: String? = nil, lastSkill: String? = nil,
        home: HomeDirectory? = nil
    ) -> BrainContext {
        BrainContext(
            room: config.room, voice: config.tts.voice, rate: config.tts.rate, volume: volume ?? config.player.volume,
            volumeStep: config.player.volumeStep,
            lastAnswer: lastAnswer, lastSkill: lastSkill, language: config.brain.language, home: home)
    }

    /// The built-in skills, loaded from the models directory; bad skill files are logged.
    /// Console data is fetched with libcurl (`HTTPSkillDataFetcher`).
    public static func brain(environment: [String: String], logger: Logger) throws -> Brain {
        let directory = try modelsDirectory(environment: environment) + "/skills"
        let options = SkillLoadOptions(cacheDirectory: SkillLoadOptions.defaultCacheDirectory(environment: environment))
        return try Brain(
            directory: directory, options: options, fetcher: HTTPSkillDataFetcher(),
            scripts: ProcessScriptRunner.besideExecutable(), logger: logger.child("brain"))
    }
}

/// A missing piece of the installation (models, devices) named in one line.
public struct SetupFailure: SusiError {
    /// The missing piece, for people.
    public let message: String
    /// A failure saying `message`.
    public init(_ message: String) { self.message = message }
    /// Always `.config`.
    public var stage: Stage { .config }
    /// Always `setup-missing`.
    public var code: String { "setup-missing" }
}

extension Assembly {
    /// The speaker's ears: the command recogniser and the wake word detector for `hotword.*`
    /// (verified, as measured best), whose verifier decodes with the recogniser's acoustic
    /// model (one copy in memory; both are used from the pipeline's thread).
    public static func ears(
        _ config: Config, models: String, environment: [String: String], calibrations: String? = nil, logger: Logger
    ) throws -> (wake: any WakeWordDetector, recognizer: SphinxRecognizer) {
        let recognizer = try Hearing.makeRecognizer(
            config: config, modelsDirectory: models, skillsDirectory: models + "/skills",
            cacheDirectory: cacheDirectory(environment: environment), logger: logger)
        let wake = try wakeDetector(config, models: models, calibrations: calibrations, host: recognizer, logger: logger)
        return (wake, recognizer)
    }

    /// The wake word detector for `hotword.*`; its verifier decodes with `host`'s decoder
    /// when that holds its search (`Hearing.makeWakeDetector`). The keyphrase search takes
    /// the threshold calibrated for the phrase from `calibrations` (`WakePhraseCheck.directory`)
    /// when there is one (`Hearing.Settings.apply`).
    public static func wakeDetector(
        _ config: Config, models: String, calibrations: String? = nil, host: SphinxRecognizer? = nil, logger: Logger
    ) throws(SpeechError) -> any WakeWordDetector {
        try Hearing.makeWakeDetector(
            config: config, modelsDirectory: models, settings: wakeSettings(config, calibrations: calibrations), host: host,
            logger: logger)
    }

    /// `Hearing.Settings` for `config`, with the keyphrase threshold calibrated for its phrase
    /// in `calibrations`, if any.
    public static func wakeSettings(_ config: Config, calibrations: String?) -> Hearing.Settings {
        var settings = Hearing.Settings(config: config)
        if let calibrations {
            settings.apply(WakeCalibration.load(phrase: config.hotword.phrase, directory: calibrations), config: config)
        }
        return settings
    }

    /// The command recogniser alone, with the language model generated from the skills (cached
    /// in `$XDG_CACHE_HOME/susi`, rebuilt when the skills change); no wake verifier inside.
    public static func recognizer(_ config: Config, models: String, environment: [String: String], logger: Logger) throws
        -> SphinxRecognizer
    {
        var settings = Hearing.Settings(config: config)
        settings.shareWakeVerifier = false
        return try Hearing.makeRecognizer(
            config: config, modelsDirectory: models, skillsDirectory: models + "/skills",
            cacheDirectory: cacheDirectory(environment: environment), settings: settings, logger: logger)
    }

    /// `$XDG_CACHE_HOME/susi`, else `~/.cache/susi`.
    public static func cacheDirectory(environment: [String: String]) -> String {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/susi" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/susi"
    }

    /// The voice to speak with under `config`.
    public static func voice(_ config: Config) -> VoiceSettings {
        VoiceSettings(
            name: config.tts.voice, variant: config.tts.variant, rate: config.tts.rate, pitch: config.tts.pitch,
            volume: config.tts.volume)
    }
}

extension Assembly {
    /// Where speech goes: the WAV file at `path` when given (also returned, to close), else
    /// the sound device `device`, opened at `sampleRate`.
    public static func speechSink(
        path: String?, realtime: Bool = false, device: String, sampleRate: Int = 22_050, logger: Logger
    ) throws(AudioError) -> (sink: any AudioSink, file: WAVFileSink?) {
        if let path {
            let file = try WAVFileSink(path: path, realtime: realtime)
            return (file, file)
        }
        let session = try PortAudioSession(logger: logger.child("audio"))
        return (try SpeakerSink(session: session, device: device, sampleRate: sampleRate, logger: logger.child("audio")), nil)
    }

    /// The brain that answers: `brain.mode`'s (or `mode`, with `server` for remote), over
    /// libcurl, with the account of `store` for remote queries. `onFallback` hears each time
    /// the hybrid brain answers offline because the server failed; `backoff` makes the voice
    /// path's brain (`ChatBrainFactory.make`).
    public static func chatBrain(
        config: Config, mode: ChatBrainFactory.Mode? = nil, server: String? = nil, local: LocalChatBrain,
        store: ConfigStore, logger: Logger, backoff: ChatBackoff? = nil,
        onFallback: @escaping @Sendable (any SusiError) -> Void
    ) -> any ChatBrain & Sendable {
        ChatBrainFactory.make(
            config: config, mode: mode, server: server, http: CurlHTTPClient(logger: logger.child("http")), local: local,
            account: AccountStore(configStore: store), logger: logger.child("brain"), backoff: backoff,
            onFallback: onFallback)
    }

    /// The speaker's version, shown by the control server's `/status`.
    public static let version = "0.1.0"

    /// The installed voices that speak `brain.language`, for the web page; empty when eSpeak NG
    /// is missing (the page then offers the configured voice only).
    public static func installedVoices(store: ConfigStore) -> [VoiceChoice] {
        guard let catalog = try? ESpeakEngine.shared().catalog else { return [] }
        let language = ((try? store.load()) ?? Config()).brain.language
        var seen = Set<String>()
        return catalog.voices
            .filter { voice in
                !voice.needsMBROLA
                    && voice.languages.contains { $0.code == language || $0.code.hasPrefix(language + "-") }
            }
            .compactMap { voice -> VoiceChoice? in
                guard seen.insert(voice.identifier).inserted else { return nil }
                return VoiceChoice(id: voice.identifier, name: voice.name.replacingOccurrences(of: "_", with: " "))
            }
            .sorted { $0.name < $1.name }
    }
}
