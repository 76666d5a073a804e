import Foundation
import SusiCore

/// Reads, validates and atomically saves the JSON config file.
///
/// A missing file means all defaults. Saving goes through `AtomicFile` (unique temporary file,
/// fsync, rename, under the file's lock), so a reader sees either the old or the new file and
/// `set`/`update` never lose a change made by another process; the file's mode is 0600
/// because it may hold account details.
public struct ConfigStore: Sendable {
    /// The config file path.
    public let path: String
    /// Extra check of `tts.voice` and `tts.variant` against the installed eSpeak NG voices
    /// (SusiModel cannot ask eSpeak itself); returns why the config is not allowed, or nil.
    /// Applied by `set` and `validate`, not by every load, so reading the config stays cheap.
    public var voiceCheck: (@Sendable (Config) -> String?)?

    /// Extra check of a new `hotword.phrase`: returns why the speaker could not wake on it
    /// (and what to do), or nil. SusiModel cannot tell whether a phrase has a trained head or a
    /// calibrated keyphrase search; the speaker's check may calibrate one, which takes a few
    /// seconds, so `set` runs it before taking the file's lock, and only when the phrase is
    /// among the changes; `validate` runs it on the file's phrase.
    public var wakePhraseCheck: (@Sendable (String) -> String?)?

    public init(path: String, voiceCheck: (@Sendable (Config) -> String?)? = nil) {
        self.path = path
        self.voiceCheck = voiceCheck
    }

    /// `$XDG_CONFIG_HOME/susi/config.json`, else `~/.config/susi/config.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return xdg + "/susi/config.json"
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/susi/config.json"
    }

    /// The directory holding the config file; state files (tokens, timers) live beside it.
    public var directory: String { (path as NSString).deletingLastPathComponent }

    /// Whether the file exists.
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// The largest config file read: 1 MiB, hundreds of times a full config. A larger file is
    /// refused (`config-too-large`) after reading at most one byte more, so a huge file given
    /// to `susi config validate` or put in place of the config costs no memory.
    public static let maximumFileSize = 1 << 20

    /// Loads the file, or the defaults when it does not exist.
    ///
    /// - Throws: `config-too-large` for a file over `maximumFileSize`, `config-unreadable`,
    ///   and what `parse` throws.
    public func load() throws(ConfigError) -> Config {
        guard let data = try AtomicFile.read(path, limit: Self.maximumFileSize) else { return Config() }
        return try parse(data, source: path)
    }

    /// Loads the file, first writing the defaults if it does not exist yet.
    public func loadOrCreate() throws(ConfigError) -> Config {
        if !exists {
            // Under the lock, so defaults never replace a file another process just wrote.
            try AtomicFile.update(path, limit: Self.maximumFileSize) { data throws(ConfigError) in
                data == nil ? .replace(Self.encode(Config())) : .keep
            }
        }
        return try load()
    }

    /// Parses and validates config JSON; `source` names the file in messages.
    public func parse(_ data: Data, source: String) throws(ConfigError) -> Config {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ConfigError(.badJSON, "\(source): invalid JSON \(Self.position(of: error, in: data))")
        }
        guard let object = root as? [String: Any] else {
            throw ConfigError(.badJSON, "\(source): the top level must be a JSON object")
        }
        // Foundation keeps the last of two equal keys; which one the writer meant is unknown.
        if let key = JSONDuplicateKeys.first(in: data) {
            throw ConfigError(.badJSON, "\(source): the key '\(key)' appears twice; keep one")
        }
        var values: [(String, Any)] = []
        try Self.flatten(object, prefix: "", into: &values, source: source)
        var config = Config()
        for (name, raw) in values {
            guard let key = ConfigSchema.key(named: name) else {
                throw ConfigError(.unknownKey, "\(source): unknown key '\(name)'\(Self.suggestion(for: name))")
            }
            guard let value = Self.value(from: raw), key.write(&config, value) == nil else {
                throw ConfigError(.badValue, "\(source): \(name) must be \(key.allowed)")
            }
        }
        return config
    }

    /// Loads the file and applies every check, the voice included; a missing file is an error.
    @discardableResult
    public func validate() throws(ConfigError) -> Config {
        guard exists else { throw ConfigError(.unreadable, "\(path): no such file") }
        let config = try load()
        try checkVoice(config, source: path)
        if let problem = wakePhraseCheck?(config.hotword.phrase) {
            throw ConfigError(.badValue, "\(path): \(problem)")
        }
        return config
    }

    /// Sets one key from its command-line text, validates the whole config and saves it.
    @discardableResult
    public func set(_ name: String, to text: String) throws(ConfigError) -> Config {
        try set([(name, text)])
    }

    /// Sets several keys together: all are saved, or none is (one validation, one save).
    ///
    /// Secret settings (`ConfigSchema.secrets`) among `changes` go to their own files, after
    /// the config was saved; a refused secret is refused before anything is saved.
    @discardableResult
    public func set(_ changes: [(key: String, value: String)]) throws(ConfigError) -> Config {
        if let check = wakePhraseCheck, let phrase = Self.phrase(in: changes), let problem = check(phrase) {
            throw ConfigError(.badValue, problem)
        }
        let secrets = changes.compactMap { change in ConfigSchema.secret(named: change.key).map { ($0, change.value) } }
        for (secret, text) in secrets {
            if let problem = secret.problem(with: text) { throw ConfigError(.badValue, problem) }
        }
        let plain = changes.filter { ConfigSchema.secret(named: $0.key) == nil }
        let config = try plain.isEmpty ? load() : setPlain(plain)
        for (secret, text) in secrets { try secret.save(text, store: self) }
        return config
    }

    private func setPlain(_ changes: [(key: String, value: String)]) throws(ConfigError) -> Config {
        try update { (config: inout Config) throws(ConfigError) in
            for (name, text) in changes {
                guard let key = ConfigSchema.key(named: name) else {
                    throw ConfigError(.unknownKey, "unknown key '\(name)'\(Self.suggestion(for: name))")
                }
                guard let value = key.parse(text), key.write(&config, value) == nil else {
                    throw ConfigError(.badValue, "\(name) must be \(key.allowed), not '\(text)'")
                }
            }
            try checkVoice(config, source: nil)
        }
    }

    /// The JSON text of `config`: nested sections, sorted keys, two-space indent.
    public static func encode(_ config: Config) -> Data {
        var root: [String: Any] = [:]
        for key in ConfigSchema.keys {
            let parts = key.name.split(separator: ".").map(String.init)
            insert(key.read(config).jsonObject, at: parts[...], into: &root)
        }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return data + Data("\n".utf8)
    }

    /// Writes `config` atomically with mode 0600, creating the directory (0700) if needed.
    public func save(_ config: Config) throws(ConfigError) {
        try AtomicFile.write(Self.encode(config), to: path)
    }

    /// Writes `data` to `path` through `AtomicFile.write` (unique temporary, fsync, rename,
    /// under the file's lock), mode 0600. Kept so state files written this way before
    /// `AtomicFile` existed get the same protection; a read-modify-write needs
    /// `AtomicFile.update` instead.
    public static func writeAtomically(_ data: Data, to path: String) throws(ConfigError) {
        try AtomicFile.write(data, to: path)
    }

    /// Reads the file (defaults when missing), changes it with `change` and saves it, holding
    /// the file's lock throughout, so a change made meanwhile by another thread or process
    /// (`susi config set` while `susi run` serves the apps) is never overwritten.
    ///
    /// - Throws: what `load` and `change` throw, and `config-unwritable`; nothing is saved then.
    @discardableResult
    public func update(_ change: (inout Config) throws(ConfigError) -> Void) throws(ConfigError) -> Config {
        var result = Config()
        try AtomicFile.update(path, limit: Self.maximumFileSize) { (data: Data?) throws(ConfigError) -> AtomicFile.Change in
            var config = try data.map { (data: Data) throws(ConfigError) -> Config in try parse(data, source: path) } ?? Config()
            try change(&config)
            result = config
            return .replace(Self.encode(config))
        }
        return result
    }

    // MARK: Helpers

    /// The last valid `hotword.phrase` among `changes`, as it would be saved; nil when there
    /// is none (an invalid one is refused by `set` itself).
    private static func phrase(in changes: [(key: String, value: String)]) -> String? {
        guard let change = changes.last(where: { $0.key == "hotword.phrase" }),
            let key = ConfigSchema.key(named: change.key), let value = key.parse(change.value)
        else { return nil }
        var probe = Config()
        guard key.write(&probe, value) == nil else { return nil }
        return probe.hotword.phrase
    }

    /// `source` names the file in the message; nil when the problem is a value just given.
    private func checkVoice(_ config: Config, source: String?) throws(ConfigError) {
        if let problem = voiceCheck?(config) {
            throw ConfigError(.badValue, source.map { "\($0): \(problem)" } ?? problem)
        }
    }

    private static func flatten(
        _ object: [String: Any], prefix: String, into values: inout [(String, Any)], source: String
    ) throws(ConfigError) {
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            let full = prefix.isEmpty ? name : prefix + "." + name
            if let nested = value as? [String: Any] {
                guard ConfigSchema.keys.contains(where: { $0.name.hasPrefix(full + ".") }) else {
                    throw ConfigError(.unknownKey, "\(source): unknown section '\(full)'\(suggestion(for: full))")
                }
                try flatten(nested, prefix: full, into: &values, source: source)
            } else {
                values.append((full, value))
            }
        }
    }

    private static func insert(_ value: Any, at path: ArraySlice<String>, into object: inout [String: Any]) {
        guard let head = path.first else { return }
        if path.count == 1 {
            object[head] = value
            return
        }
        var child = object[head] as? [String: Any] ?? [:]
        insert(value, at: path.dropFirst(), into: &child)
        object[head] = child
    }

    /// Foundation JSON values to `ConfigValue`; JSON booleans are told apart from 0/1 by type.
    private static func value(from raw: Any) -> ConfigValue? {
        switch raw {
        case is NSNull: return .null
        case let text as String: return .string(text)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" { return .bool(number.boolValue) }
            if ["d", "f"].contains(type) {
                let double = number.doubleValue
                return double == double.rounded() && abs(double) < 1e15 ? .int(Int(double)) : .double(double)
            }
            return .int(number.intValue)
        case let array as [Any]:
            let strings = array.compactMap { $0 as? String }
            return strings.count == array.count ? .list(strings) : nil
        default: return nil
        }
    }

    /// "at line L, column C" from Foundation's "around character N" message.
    static func position(of error: any Error, in data: Data) -> String {
        let detail = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "\(error)"
        guard let range = detail.range(of: "character "),
            let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
        else {
            return data.isEmpty ? "(the file is empty)" : "(\(detail))"
        }
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "at line \(line), column \(column)"
    }

    private static func suggestion(for name: String) -> String {
        let last = name.split(separator: ".").last.map(String.init) ?? name
        let close = ConfigSchema.keys.first { $0.name.hasSuffix("." + last) || $0.name == last }
        return close.map { " (did you mean '\($0.name)'?)" } ?? "; see `susi config show` for the keys"
    }
}
