import Foundation

/// A config value as it appears in the JSON file.
public enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case list([String])
    case null

    /// How `susi config get` prints it: strings bare, everything else as JSON.
    public var description: String {
        switch self {
        case .string(let value): return value
        case .int(let value): return String(value)
        case .double(let value): return Self.format(value)
        case .bool(let value): return value ? "true" : "false"
        case .list(let values):
            let data = (try? JSONSerialization.data(withJSONObject: values)) ?? Data("[]".utf8)
            return String(decoding: data, as: UTF8.self)
        case .null: return "null"
        }
    }

    /// The Foundation object written into the JSON file.
    var jsonObject: Any {
        switch self {
        case .string(let value): return value
        case .int(let value): return value
        case .double(let value): return value
        case .bool(let value): return value
        case .list(let values): return values
        case .null: return NSNull()
        }
    }

    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}

/// One config key: its dotted name, meaning, type and allowed values, bound to a `Config` field.
public struct ConfigKey: Sendable {
    /// Dotted name, e.g. `tts.voice`.
    public let name: String
    /// One line for people (README, `susi config show --help`).
    public let summary: String
    /// What values are allowed, in words, for error messages.
    public let allowed: String
    let read: @Sendable (Config) -> ConfigValue
    /// Sets the field from a JSON value, or returns why the value is not allowed.
    let write: @Sendable (inout Config, ConfigValue) -> String?
    /// Parses a command-line string into the key's JSON value.
    let parse: @Sendable (String) -> ConfigValue?

    /// This key's value in `config`.
    public func value(in config: Config) -> ConfigValue { read(config) }

    /// Whether a running speaker uses a new value only after a restart (`ConfigSchema.restartKeys`).
    public var needsRestart: Bool { ConfigSchema.restartKeys.contains(name) }
}

/// The list of every config key, with typed bindings to `Config`.
public enum ConfigSchema {
    /// Every key, in the order `susi config show` prints them.
    public static let keys: [ConfigKey] = [
        string(
            "tts.voice", \.tts.voice, "eSpeak NG voice (accent): en-us, en-gb, en-gb-scotland, en-029, ...",
            allowed: "an eSpeak NG voice name (see `susi voice list`)", check: { Self.isPlainName($0) && !$0.isEmpty }),
        string(
            "tts.variant", \.tts.variant, "eSpeak NG variant: f3, m2, klatt, ... or empty",
            allowed: "empty or an eSpeak NG variant name (f1-f5, m1-m7, klatt, ...)",
            check: { $0.isEmpty || Self.isPlainName($0) }),
        int("tts.rate", \.tts.rate, "speech rate in words per minute", 80...450),
        int("tts.pitch", \.tts.pitch, "voice pitch", 0...99),
        int("tts.volume", \.tts.volume, "speech volume (eSpeak amplitude)", 0...200),
        choice("brain.mode", \.brain.mode, "where answers come from", ["local", "remote", "hybrid"]),
        string(
            "brain.server", \.brain.server, "SUSI server base URL",
            allowed: "an http:// or https:// URL", check: Self.isHTTPURL),
        double("brain.timeout_seconds", \.brain.timeoutSeconds, "whole-request limit for the chat API", 0.5...120),
        double(
            "brain.voice_timeout_seconds", \.brain.voiceTimeoutSeconds,
            "whole-request limit for the chat API while someone waits for the spoken answer (susi run; at most "
                + "brain.timeout_seconds); after one timeout or failed connection the speaker answers offline at once "
                + "until a background check finds the server answering again",
            0.5...10),
        string(
            "brain.language", \.brain.language,
            "ISO 639-1 language sent to SUSI; answers in it are read with a voice of it. Commands are still heard in English "
                + "(PocketSphinx has only en-us); `susi language set CODE` changes it and tts.voice together",
            allowed: "a two-letter language code", check: { $0.count == 2 && $0.allSatisfy { $0.isLetter && $0.isASCII } }),
        bool("hotword.enabled", \.hotword.enabled, "listen for the wake word"),
        string(
            "hotword.phrase", \.hotword.phrase, "wake phrase",
            allowed: "one to four words of letters", check: Self.isPhrase),
        choice(
            "hotword.engine", \.hotword.engine,
            "wake word detector: neural (trained classifier; falls back to pocketsphinx when its files are missing) or pocketsphinx (keyphrase search)",
            ["neural", "pocketsphinx"]),
        double(
            "hotword.neural_threshold", \.hotword.neuralThreshold,
            "neural detector's score threshold (larger wakes less often); 0: the one chosen in training", 0...1),
        double(
            "hotword.threshold", \.hotword.threshold,
            "keyphrase detection threshold (larger wakes less often, smaller catches more)", 1e-80...1),
        bool("hotword.wake_button", \.hotword.wakeButton, "a hardware wake button is fitted (the apps' `wake` setting)"),
        bool("hotword.verify", \.hotword.verify, "re-decode a heard wake word before waking (fewer false wakes)"),
        int(
            "hotword.verify_margin", \.hotword.verifyMargin,
            "also wake when the re-decoding's other readings within this score margin hold the phrase (0: only its best; larger catches more, wakes falsely more)",
            0...5000),
        bool(
            "hotword.name_check", \.hotword.nameCheck,
            "with stt.engine whisper, drop a wake silently when Whisper does not hear the name at its start (fewer false wakes in conversation)"
        ),
        choice(
            "stt.engine", \.stt.engine,
            "speech recogniser: whisper (PocketSphinx streams and ends the command, Whisper hears it whole; pocketsphinx "
                + "where Whisper is not installed) or pocketsphinx alone",
            ["whisper", "pocketsphinx"]),
        choice(
            "stt.whisper_model", \.stt.whisperModel, "Whisper model: tiny.en (English) or base (multilingual, slower)",
            ["tiny.en", "base"]),
        int("stt.whisper_threads", \.stt.whisperThreads, "threads Whisper decodes with", 1...8),
        choice(
            "stt.whisper_when", \.stt.whisperWhen,
            "when Whisper's reading is used: always, or unsure (only when no skill is sure of PocketSphinx's, which answers sooner)",
            ["always", "unsure"]),
        int(
            "stt.whisper_timeout_ms", \.stt.whisperTimeoutMs,
            "longest Whisper may take over a command, then PocketSphinx's reading is kept; 0: the model's own (1200 tiny.en, 3500 base)",
            0...30000),
        int("stt.end_silence_ms", \.stt.endSilenceMs, "silence that ends a command", 100...5000),
        int("stt.no_speech_timeout_ms", \.stt.noSpeechTimeoutMs, "give up when nothing is said for this long", 500...30000),
        int("stt.max_utterance_ms", \.stt.maxUtteranceMs, "longest command", 1000...60000),
        bool("stt.noise_suppression", \.stt.noiseSuppression, "speexdsp noise suppression before recognition"),
        bool(
            "stt.open_questions", \.stt.openQuestions,
            "in hybrid and remote modes, also hear open questions (query domain, SUSI.AI skill examples, generic English)"),
        string(
            "audio.input", \.audio.input, "capture device: default, a name or an index",
            allowed: "`default`, a device name or an index", check: { !$0.isEmpty }),
        string(
            "audio.output", \.audio.output, "playback device: default, a name or an index",
            allowed: "`default`, a device name or an index", check: { !$0.isEmpty }),
        string(
            "player.command", \.player.command, "media player executable",
            allowed: "a program name or path", check: { !$0.isEmpty }),
        list("player.args", \.player.args, "extra player arguments"),
        int("player.volume", \.player.volume, "music volume", 0...100),
        int("player.duck_volume", \.player.duckVolume, "music volume while listening or speaking, percent", 0...100),
        int("player.volume_step", \.player.volumeStep, "volume up/down step", 1...50),
        list(
            "player.media_dirs", \.player.mediaDirectories, "folders answers may play local files from",
            allowed: "a list of absolute folder paths (or ~/...), not / (the whole file system)", check: Self.isMediaFolder),
        bool(
            "player.removable_media", \.player.removableMedia,
            "\"play my music\" also plays from USB sticks and discs mounted under /media and /run/media"),
        bool("player.multiroom", \.player.multiroom, "play music in sync with other speakers through Snapcast"),
        string(
            "player.multiroom_server", \.player.multiroomServer,
            "the speaker whose music this one plays; empty: this one serves the others",
            allowed: "empty, or HOST or HOST:PORT (not starting with -, no spaces or control characters)",
            check: { value in
                value.count <= 255 && !value.hasPrefix("-")
                    && !value.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == " " || $0 == "/" }
            }),
        int("player.multiroom_port", \.player.multiroomPort, "the port a serving speaker streams its music on", 1...65535),
        int("setup.port", \.setup.port, "setup/control HTTP port", 1...65535),
        string(
            "setup.bind", \.setup.bind, "address the setup server listens on",
            allowed: "an IPv4 address such as 0.0.0.0 or 127.0.0.1", check: Self.isIPv4),
        string(
            "setup.wpa_supplicant_file", \.setup.wpaSupplicantFile, "where Wi-Fi networks from the apps are written",
            allowed: "empty (wpa_supplicant.conf beside the config) or an absolute path",
            check: { $0.isEmpty || $0.hasPrefix("/") }),
        string(
            "setup.on_wifi", \.setup.onWifi, "shell command run after the apps sent Wi-Fi credentials",
            allowed: "a shell command or empty", check: { _ in true }),
        string(
            "setup.on_complete", \.setup.onComplete, "shell command run when the apps finish setup",
            allowed: "a shell command or empty", check: { _ in true }),
        string(
            "setup.hotspot.ssid", \.setup.hotspot.ssid, "name of the first-setup Wi-Fi hotspot (the apps look for SUSI.AI)",
            allowed: "1 to 32 bytes without control characters", check: Self.isSSID),
        string(
            "setup.hotspot.passphrase", \.setup.hotspot.passphrase,
            "WPA2 passphrase of the hotspot; empty: this speaker's own (`susi setup hotspot status` prints it)",
            allowed: "empty or 8 to 63 printable ASCII characters", check: Self.isHotspotPassphrase),
        bool(
            "setup.hotspot.open", \.setup.hotspot.open,
            "an open hotspot without a passphrase (anyone in range can join while it is up)"),
        string(
            "setup.hotspot.interface", \.setup.hotspot.interface, "Wi-Fi interface the hotspot runs on",
            allowed: "an interface name: 1 to 15 letters, digits, '-', '_' or '.'", check: Self.isInterfaceName),
        int("setup.hotspot.channel", \.setup.hotspot.channel, "2.4 GHz channel of the hotspot", 1...13),
        bool(
            "setup.hotspot.auto", \.setup.hotspot.auto,
            "open the hotspot by itself in setup mode when no network is up after setup.hotspot.wait_seconds"),
        int(
            "setup.hotspot.wait_seconds", \.setup.hotspot.waitSeconds,
            "seconds to wait for a known network before opening the hotspot", 5...3600),
        int(
            "setup.hotspot.join_timeout_seconds", \.setup.hotspot.joinTimeoutSeconds,
            "seconds the home network has to connect after the hotspot closes, else the hotspot opens again",
            10...3600),
        optionalDouble("location.latitude", \.location.latitude, "latitude sent to SUSI", -90...90),
        optionalDouble("location.longitude", \.location.longitude, "longitude sent to SUSI", -180...180),
        string(
            "location.country_code", \.location.countryCode, "ISO 3166 country code sent to SUSI",
            allowed: "empty or a two-letter country code", check: { $0.isEmpty || ($0.count == 2 && $0.allSatisfy(\.isLetter)) }),
        string(
            "location.country_name", \.location.countryName, "country name sent to SUSI",
            allowed: "any text", check: { _ in true }),
        string(
            "websearch.url", \.websearch.url, "DuckDuckGo instant-answer base URL",
            allowed: "an http:// or https:// URL", check: Self.isHTTPURL),
        string(
            "home_assistant.url", \.homeAssistant.url,
            "Home Assistant's base URL, e.g. http://homeassistant.local:8123 (its token: home_assistant.token); empty: none",
            allowed: "empty or an http:// or https:// URL", check: { $0.isEmpty || Self.isHTTPURL($0) }),
        double(
            "home_assistant.timeout_seconds", \.homeAssistant.timeoutSeconds,
            "whole-request limit for one call to Home Assistant", 0.5...60),
        bool(
            "privacy.mode", \.privacy.mode,
            "privacy mode: keep no history of what was heard and answered (the web page's last 20 interactions)"),
        int("alarms.snooze_minutes", \.alarms.snoozeMinutes, "minutes a snoozed alarm waits before it rings again", 1...60),
        string(
            "room", \.room, "room name set by the phone app",
            allowed: "up to 64 characters, no control characters",
            check: { $0.count <= 64 && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }),
    ]

    /// The key named `name`, if there is one.
    public static func key(named name: String) -> ConfigKey? {
        keys.first { $0.name == name }
    }

    /// The keys only the config file and `susi config set` change, never the web page: they
    /// name programs to run, files to write or folders answers may read, which a browser on
    /// the network must not choose.
    public static let fileOnlyKeys: Set<String> = [
        "setup.on_wifi", "setup.on_complete", "setup.wpa_supplicant_file", "player.command", "player.args",
        "player.media_dirs",
    ]

    /// The keys `susi run` reads only when it starts: the setup server's socket and the sound
    /// devices, which are opened once, and noise suppression, which the recogniser is made
    /// with. Every other key takes effect on the next interaction.
    public static let restartKeys: Set<String> = [
        "setup.port", "setup.bind", "audio.input", "audio.output", "stt.noise_suppression",
        "player.multiroom", "player.multiroom_server", "player.multiroom_port",
    ]

    /// The keys whose values differ between `old` and `new`, in `keys` order.
    public static func changedKeys(from old: Config, to new: Config) -> [ConfigKey] {
        keys.filter { $0.value(in: old) != $0.value(in: new) }
    }

    // MARK: Field kinds

    private static func string(
        _ name: String, _ path: any WritableKeyPath<Config, String> & Sendable, _ summary: String,
        allowed: String, check: @escaping @Sendable (String) -> Bool
    ) -> ConfigKey {
        ConfigKey(
            name: name, summary: summary, allowed: allowed,
            read: { .string($0[keyPath: path]) },
            write: { config, value in
                guard case .string(let text) = value, check(text) else { return allowed }
                config[keyPath: path] = text
                return nil
            },
            parse: { .string($0) })
    }

    private static func choice(
        _ name: String, _ path: any WritableKeyPath<Config, String> & Sendable, _ summary: String, _ options: [String]
    ) -> ConfigKey {
        string(name, path, summary, allowed: "one of " + options.joined(separator: ", "), check: options.contains)
    }

    private static func int(
        _ name: String, _ path: any WritableKeyPath<Config, Int> & Sendable, _ summary: String, _ range: ClosedRange<Int>
    ) -> ConfigKey {
        let allowed = "a whole number from \(range.lowerBound) to \(range.upperBound)"
        return ConfigKey(
            name: name, summary: summary, allowed: allowed,
            read: { .int($0[keyPath: path]) },
            write: { config, value in
                guard case .int(let number) = value, range.contains(number) else { return allowed }
                config[keyPath: path] = number
                return nil
            },
            parse: { Int($0.trimmingCharacters(in: .whitespaces)).map(ConfigValue.int) })
    }

    private static func double(
        _ name: String, _ path: any WritableKeyPath<Config, Double> & Sendable, _ summary: String,
        _ range: ClosedRange<Double>
    ) -> ConfigKey {
        let allowed = "a number from \(ConfigValue.format(range.lowerBound)) to \(ConfigValue.format(range.upperBound))"
        return ConfigKey(
            name: name, summary: summary, allowed: allowed,
            read: { .double($0[keyPath: path]) },
            write: { config, value in
                guard let number = value.number, range.contains(number) else { return allowed }
                config[keyPath: path] = number
                return nil
            },
            parse: parseNumber)
    }

    private static func optionalDouble(
        _ name: String, _ path: any WritableKeyPath<Config, Double?> & Sendable, _ summary: String,
        _ range: ClosedRange<Double>
    ) -> ConfigKey {
        let allowed = "null or a number from \(ConfigValue.format(range.lowerBound)) to \(ConfigValue.format(range.upperBound))"
        return ConfigKey(
            name: name, summary: summary, allowed: allowed,
            read: { $0[keyPath: path].map(ConfigValue.double) ?? .null },
            write: { config, value in
                if value == .null {
                    config[keyPath: path] = nil
                    return nil
                }
                guard let number = value.number, range.contains(number) else { return allowed }
                config[keyPath: path] = number
                return nil
            },
            parse: { text in ["", "null", "none"].contains(text.lowercased()) ? .null : parseNumber(text) })
    }

    private static func bool(
        _ name: String, _ path: any WritableKeyPath<Config, Bool> & Sendable, _ summary: String
    ) -> ConfigKey {
        ConfigKey(
            name: name, summary: summary, allowed: "true or false",
            read: { .bool($0[keyPath: path]) },
            write: { config, value in
                guard case .bool(let flag) = value else { return "true or false" }
                config[keyPath: path] = flag
                return nil
            },
            parse: { text in
                switch text.lowercased() {
                case "true", "yes", "y", "on", "1": return .bool(true)
                case "false", "no", "n", "off", "0": return .bool(false)
                default: return nil
                }
            })
    }

    /// A list key; `check`, when given, must accept every item.
    private static func list(
        _ name: String, _ path: any WritableKeyPath<Config, [String]> & Sendable, _ summary: String,
        allowed items: String = "strings", check: (@Sendable (String) -> Bool)? = nil
    ) -> ConfigKey {
        let allowed =
            "\(items == "strings" ? "a list of strings" : items) (JSON array, or words separated by spaces on the command line)"
        return ConfigKey(
            name: name, summary: summary, allowed: allowed,
            read: { .list($0[keyPath: path]) },
            write: { config, value in
                guard case .list(let items) = value, items.allSatisfy({ check?($0) ?? true }) else { return allowed }
                config[keyPath: path] = items
                return nil
            },
            parse: { text in
                if text.hasPrefix("["),
                    let items = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String]
                {
                    return .list(items)
                }
                return text.hasPrefix("[") ? nil : .list(text.split(separator: " ").map(String.init))
            })
    }

    // MARK: Checks

    @Sendable private static func parseNumber(_ text: String) -> ConfigValue? {
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else { return nil }
        return .double(number)
    }

    @Sendable static func isPlainName(_ text: String) -> Bool {
        text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_+".contains($0)) }
    }

    /// Whether `text` is an allowed `hotword.phrase`: one to four words of letters.
    @Sendable public static func isPhrase(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        return (1...4).contains(words.count) && words.allSatisfy { $0.allSatisfy { $0.isLetter || $0 == "'" } }
    }

    /// Whether `text` is an absolute http:// or https:// URL with a host, written as a URL
    /// is: no whitespace, quotes, backslashes, angle brackets, control or format (bidi)
    /// characters anywhere, and parseable by `URLComponents` as it stands. (`URL(string:)`
    /// alone percent-encodes a space or a quote and accepts the result.)
    @Sendable public static func isHTTPURL(_ text: String) -> Bool {
        let forbidden = text.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace || "\"'\\<>`".unicodeScalars.contains(scalar)
                || [.control, .format, .lineSeparator, .paragraphSeparator].contains(scalar.properties.generalCategory)
        }
        guard !forbidden, let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased(),
            let host = parts.host
        else {
            return false
        }
        return ["http", "https"].contains(scheme) && !host.isEmpty
    }

    /// Whether `text` can be a media folder: absolute (or `~/...`) and not the root of the
    /// file system, however it is spelled (`/`, `//`, `/srv/..`), which would let answers play
    /// any file the speaker can read.
    @Sendable static func isMediaFolder(_ text: String) -> Bool {
        if text.hasPrefix("~/") { return true }
        guard text.hasPrefix("/") else { return false }
        var depth = 0
        for part in text.split(separator: "/") where part != "." {
            depth = part == ".." ? max(depth - 1, 0) : depth + 1
        }
        return depth > 0
    }

    /// Whether `text` can be a Wi-Fi network name in the generated hostapd file: 1-32 bytes, no
    /// control characters (a newline would start a new config line).
    @Sendable public static func isSSID(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count) && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Whether `text` is a usable hotspot passphrase: empty (open) or 8-63 printable ASCII.
    @Sendable public static func isHotspotPassphrase(_ text: String) -> Bool {
        text.isEmpty || ((8...63).contains(text.count) && text.unicodeScalars.allSatisfy { (0x20...0x7e).contains($0.value) })
    }

    /// Whether `text` is a Linux interface name that is safe as a command argument.
    @Sendable public static func isInterfaceName(_ text: String) -> Bool {
        (1...15).contains(text.count) && !text.hasPrefix("-") && text != "." && text != ".."
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }

    @Sendable static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard let number = Int(part), part.count <= 3 else { return false }
                return (0...255).contains(number)
            }
    }
}

extension ConfigValue {
    /// The value as a number, for keys that accept whole or fractional numbers.
    var number: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
}
