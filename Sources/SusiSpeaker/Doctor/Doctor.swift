import Foundation
import SusiAudio
import SusiCore
import SusiModel
import SusiNet
import SusiPlayer
import SusiSpeech

/// `susi doctor`: what a support person asks first, checked on this machine: the config file,
/// the sound devices, the models, the wake word engine in use, the voice, the player and
/// yt-dlp, the SUSI server and free disk space.
///
/// Essential checks (config, sound devices, models, recogniser, wake word, voice) fail the run;
/// the rest (music, server, disk) only warn, since the speaker answers without them.
public struct Doctor {
    /// One line of the report.
    public struct Check: Sendable, Equatable {
        /// How it went.
        public enum Status: String, Sendable {
            /// Fine.
            case ok
            /// Works without it, but something is off.
            case warning
            /// The speaker cannot work like this.
            case failed
        }

        /// What was checked: `config`, `audio`, `models`, `wake`, `voice`, `player`, `yt-dlp`,
        /// `server`, `disk`.
        public var topic: String
        /// How it went.
        public var status: Status
        /// What was found, for people.
        public var detail: String

        /// A report line.
        public init(_ topic: String, _ status: Status, _ detail: String) {
            self.topic = topic
            self.status = status
            self.detail = detail
        }
    }

    /// The config file to check.
    public var store: ConfigStore
    /// The process environment (`SUSI_MODELS`, `XDG_CACHE_HOME`, ...).
    public var environment: [String: String]
    /// Lists the sound devices; PortAudio's by default.
    public var devices: () throws -> [AudioDevice]
    /// The yt-dlp to report; the one beside this binary by default.
    public var ytdl: YTDLP?
    /// How long the SUSI server may take to answer, in seconds.
    public var serverTimeout: Double
    /// Free bytes below which the disk is reported as nearly full.
    public var minimumFreeBytes: Int64

    /// A doctor for `store` with the real probes.
    public init(store: ConfigStore, environment: [String: String], logger: Logger = .silent) {
        self.store = store
        self.environment = environment
        devices = { try PortAudioSession(logger: logger).devices() }
        ytdl = YTDLP.locate()
        serverTimeout = 5
        minimumFreeBytes = 200 * 1024 * 1024
    }

    /// Whether `checks` hold no failure: the exit status of `susi doctor`.
    public static func isHealthy(_ checks: [Check]) -> Bool {
        !checks.contains { $0.status == .failed }
    }

    /// Runs every check, in the order printed. Blocks for up to `serverTimeout` (the server)
    /// plus a few seconds (loading the wake word, asking mpv and yt-dlp their versions).
    public func run() -> [Check] {
        let (configCheck, config) = checkConfig()
        var checks = [configCheck, checkAudio(config)]
        let models = checkModels()
        checks += models.checks
        if let directory = models.directory {
            checks.append(checkWhisper(config, models: directory))
            checks.append(checkWake(config, models: directory))
        }
        checks.append(checkVoice(config))
        checks += checkPlayer(config)
        checks.append(checkServer(config))
        checks.append(checkDisk())
        return checks
    }

    // MARK: Checks

    func checkConfig() -> (Check, Config) {
        guard store.exists else {
            return (Check("config", .ok, "\(store.path) does not exist yet; the defaults are used"), Config())
        }
        do {
            let config = try store.validate()
            return (Check("config", .ok, "\(store.path) is valid"), config)
        } catch {
            // The last good settings cannot be known here: report against the defaults. The
            // store's messages name the file already; the path is said once.
            let detail = error.message.contains(store.path) ? error.message : "\(store.path): \(error.message)"
            return (Check("config", .failed, detail), (try? store.load()) ?? Config())
        }
    }

    func checkAudio(_ config: Config) -> Check {
        let found: [AudioDevice]
        do {
            found = try devices()
        } catch {
            return Check("audio", .failed, "cannot list sound devices: \(error)")
        }
        let inputs = found.filter { $0.maxInputChannels > 0 }
        let outputs = found.filter { $0.maxOutputChannels > 0 }
        func describe(_ list: [AudioDevice], _ wanted: String, isDefault: (AudioDevice) -> Bool) -> String {
            guard !list.isEmpty else { return "none" }
            let chosen = wanted == "default" ? list.first(where: isDefault) ?? list[0] : nil
            let names = list.prefix(4).map { device in
                device == chosen ? "\(device.index) \(device.name) (default)" : "\(device.index) \(device.name)"
            }
            return names.joined(separator: ", ") + (list.count > 4 ? ", ..." : "")
        }
        let detail =
            "microphones: \(describe(inputs, config.audio.input) { $0.isDefaultInput }); "
            + "speakers: \(describe(outputs, config.audio.output) { $0.isDefaultOutput })"
        guard !inputs.isEmpty, !outputs.isEmpty else {
            return Check("audio", .failed, detail + " (a sound card or ALSA configuration is missing)")
        }
        return Check("audio", .ok, detail)
    }

    func checkModels() -> (checks: [Check], directory: String?) {
        let directory: String
        do {
            directory = try Assembly.modelsDirectory(environment: environment)
        } catch {
            return ([Check("models", .failed, "\(error)")], nil)
        }
        let skills = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/skills"))?.filter {
            $0.hasSuffix(".txt")
        }
        var checks = [
            Check(
                "models", skills?.isEmpty == false ? .ok : .failed,
                "\(directory): \(SkillReports.counted(skills?.count ?? 0, "skill file"))")
        ]
        let sphinx = SphinxConfiguration()
        let missing = [sphinx.acousticModelPath, sphinx.dictionaryPath].filter { !FileManager.default.fileExists(atPath: $0) }
        checks.append(
            missing.isEmpty
                ? Check("recogniser", .ok, "PocketSphinx en-us model in \(sphinx.acousticModelPath) (commands in English)")
                : Check("recogniser", .failed, "missing: \(missing.joined(separator: ", ")) (install pocketsphinx-en-us)"))
        return (checks, directory)
    }

    func checkWhisper(_ config: Config, models: String) -> Check {
        guard config.stt.engine == "whisper" else {
            return Check("whisper", .ok, "stt.engine pocketsphinx: Whisper not used")
        }
        let directory = models + "/whisper"
        do {
            let whisper = try WhisperSlot.make(config, directory: directory)
            return Check(
                "whisper", .ok,
                "whisper.cpp \(whisper.version) (\(WhisperTranscriber.libraryPath(in: directory))), model \(whisper.model) "
                    + "(\(WhisperTranscriber.modelPath(whisper.model, in: directory))), \(config.stt.whisperThreads) threads, "
                    + "language \(WhisperSlot.language(of: config)), after each command (stt.whisper_when \(config.stt.whisperWhen))"
            )
        } catch {
            return Check("whisper", .warning, "\(error.message): commands are heard with PocketSphinx alone (`make deps`)")
        }
    }

    /// The engine that wakes on the phrase and how well it did in its own check: a trained
    /// head's dev figures, or the keyphrase search's calibration (`WakePhraseCheck.describe`).
    func checkWake(_ config: Config, models: String) -> Check {
        guard config.hotword.enabled else { return Check("wake", .warning, "hotword.enabled is false: no wake word") }
        let directory = WakePhraseCheck.directory(store: store)
        let settings = Assembly.wakeSettings(config, calibrations: directory)
        var fallback = ""
        if config.hotword.engine == "neural" {
            do {
                _ = try Hearing.makeNeuralWakeDetector(modelsDirectory: models, settings: settings)
                let line = WakePhraseCheck.describe(config, models: models, directory: directory, neuralUsable: true)
                return Check("wake", .ok, line.text)
            } catch {
                fallback = "; neural unavailable: \(error.message) (`make deps`, `make wakeword`)"
            }
        }
        do {
            _ = try Hearing.makeKeyphraseWakeDetector(config: config, modelsDirectory: models, settings: settings)
            let line = WakePhraseCheck.describe(config, models: models, directory: directory, neuralUsable: false)
            return Check("wake", fallback.isEmpty && !line.warning ? .ok : .warning, line.text + fallback)
        } catch {
            return Check("wake", .failed, "no wake word detector: \(error.message)" + fallback)
        }
    }

    func checkVoice(_ config: Config) -> Check {
        if let problem = VoiceCatalogCheck.check(config) { return Check("voice", .failed, problem) }
        let variant = config.tts.variant.isEmpty ? "" : "+" + config.tts.variant
        var detail = "eSpeak NG \(config.tts.voice)\(variant), brain.language \(config.brain.language)"
        if let note = LanguageSetting.recognitionNote(for: config) { detail += "; " + note }
        return Check("voice", .ok, detail)
    }

    func checkPlayer(_ config: Config) -> [Check] {
        var checks: [Check] = []
        if let mpv = MPVPlayer.executable(for: config.player.command) {
            // "mpv 0.35.1 Copyright ..." is cut after the version.
            let version =
                ToolVersion.firstLine(of: mpv, arguments: ["--version"]).map {
                    $0.split(separator: " ").prefix(2).joined(separator: " ")
                }
                ?? "version unknown"
            checks.append(Check("player", .ok, "\(mpv): \(version)"))
        } else {
            checks.append(Check("player", .warning, "'\(config.player.command)' not found: no music (install mpv)"))
        }
        guard let ytdl else {
            checks.append(
                Check(
                    "yt-dlp", .warning, "no yt-dlp virtualenv beside susi: YouTube and \"play ...\" will not play (`make deps`)"))
            return checks
        }
        let deno = ytdl.javaScriptRuntime.flatMap { ToolVersion.firstLine(of: $0, arguments: ["--version"]) }
        guard let version = ytdl.version() else {
            checks.append(Check("yt-dlp", .warning, "\(ytdl.executable) does not run"))
            return checks
        }
        checks.append(
            Check(
                "yt-dlp", deno == nil ? .warning : .ok,
                "\(version) in \(ytdl.virtualenv); " + (deno ?? "no JavaScript runtime: YouTube may fail")
                    + " (`make yt-dlp-update` refreshes it)"))
        return checks
    }

    func checkServer(_ config: Config) -> Check {
        guard config.brain.mode != "local" else { return Check("server", .ok, "not used (brain.mode local)") }
        let client = SusiChatClient(
            server: config.brain.server, timeout: serverTimeout, language: config.brain.language,
            http: CurlHTTPClient(stage: .brain))
        let started = Date()
        do {
            _ = try client.answer("hello")
            let ms = Int(Date().timeIntervalSince(started) * 1000)
            return Check("server", .ok, "\(config.brain.server) answers (\(ms) ms)")
        } catch let error as any SusiError {
            let offline = config.brain.mode == "hybrid" ? "; hybrid mode answers offline meanwhile" : ""
            return Check("server", .warning, "\(config.brain.server): \(error.code): \(error.message)\(offline)")
        } catch {
            return Check("server", .warning, "\(config.brain.server): \(error)")
        }
    }

    func checkDisk() -> Check {
        let directory = (store.path as NSString).deletingLastPathComponent
        var probe = directory
        while !FileManager.default.fileExists(atPath: probe), probe != "/" {
            probe = (probe as NSString).deletingLastPathComponent
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: probe),
            let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value
        else { return Check("disk", .warning, "cannot tell the free space of \(probe)") }
        let megabytes = free / (1024 * 1024)
        let detail = "\(megabytes) MB free on the file system of \(probe)"
        return Check("disk", free < minimumFreeBytes ? .warning : .ok, detail)
    }
}
