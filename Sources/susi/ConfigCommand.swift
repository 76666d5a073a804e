import Foundation
import SusiCore
import SusiModel
import SusiSpeaker

/// `susi config path|show|keys|get KEY|set KEY VALUE|validate [FILE]`.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "read and change the config file"
    static let usage = """
          susi config path              print the config file's path
          susi config show              print the whole config (defaults filled in)
          susi config keys              list every key with its meaning and allowed values (and
                                        whether a running susi run needs a restart to use it)
          susi config get KEY           print one value, e.g. tts.voice
          susi config set KEY VALUE [KEY VALUE ...]
                                        validate and save values together (one check,
                                        one save: brain.language de tts.voice de); a
                                        secret (home_assistant.token) given as - is
                                        read from standard input
          susi config validate [FILE]   check a config file (default: the current one)
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.action("path", "show", "keys", "get", "set", "validate")
        let store = context.store
        switch action {
        case "path":
            try arguments.finish()
            context.print(store.path)
        case "show":
            try arguments.finish()
            let config = try store.loadOrCreate()
            context.printJSON(String(decoding: ConfigStore.encode(config), as: UTF8.self).trimmingCharacters(in: .newlines))
        case "keys":
            try arguments.finish()
            context.print(ConfigSchema.listing())
        case "get":
            let name = try arguments.required("KEY")
            try arguments.finish()
            if let secret = ConfigSchema.secret(named: name) {
                // Never the secret itself: it would land in terminals' scrollback and logs.
                context.print(SecretKey.shown(isSet: secret.isSet(store: store)))
                return
            }
            guard let key = ConfigSchema.key(named: name) else {
                throw ConfigError(.unknownKey, "unknown key '\(name)'; see 'susi config keys'")
            }
            context.print(key.value(in: try store.load()).description)
        case "set":
            var changes = [(key: try arguments.required("KEY"), value: try arguments.required("VALUE"))]
            while let name = try arguments.positional() {
                changes.append((name, try arguments.required("VALUE for \(name)")))
            }
            try arguments.finish()
            // A secret given as "-" is read from standard input, kept out of the shell's history.
            for index in changes.indices
            where changes[index].value == "-" && ConfigSchema.secret(named: changes[index].key) != nil {
                changes[index].value = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
            }
            if let phrase = changes.last(where: { $0.key == "hotword.phrase" })?.value, ConfigSchema.isPhrase(phrase) {
                try calibrateIfNeeded(phrase, store: store, context: context)
            }
            let config = try store.set(changes)
            context.print(ConfigSchema.lines(changes.map(\.key), in: config, store: store))
            if changes.contains(where: { $0.key == "brain.language" }), let note = LanguageSetting.recognitionNote(for: config) {
                context.logger.warning(note)
            }
        default:
            let path = try arguments.positional() ?? store.path
            try arguments.finish()
            var file = ConfigStore(path: path, voiceCheck: store.voiceCheck)
            file.wakePhraseCheck = store.wakePhraseCheck
            try file.validate()
            context.print("\(path): valid")
        }
    }

    /// A new wake phrase with neither a trained head nor a calibration is calibrated here, with
    /// its figures printed, before `set` checks it (the store's check would do it silently).
    private static func calibrateIfNeeded(_ phrase: String, store: ConfigStore, context: CommandContext) throws {
        guard let models = try? Assembly.modelsDirectory(environment: context.environment),
            WakePhraseCheck.readiness(of: phrase, models: models, directory: WakePhraseCheck.directory(store: store))
                == .unchecked
        else { return }
        do {
            _ = try WakewordCommand.calibrate(WakePhraseCheck.normalized(phrase), store: store, models: models, context: context)
        } catch {
            // `set` refuses the phrase with what to do.
            context.logger.debug("wake check of \"\(phrase)\": \(error)")
        }
    }
}
