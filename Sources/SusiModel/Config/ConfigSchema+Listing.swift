extension ConfigSchema {
    /// `susi config keys`: every key with its default (`""` shown for an empty one), then an
    /// indented line with its meaning, what is allowed, and whether `susi run` needs a restart
    /// to use a change.
    public static func listing() -> [String] {
        let defaults = Config()
        return keys.flatMap { key in
            let value = key.value(in: defaults).description
            let restart = key.needsRestart ? "; susi run uses a change after a restart" : ""
            return ["\(key.name) = \(value.isEmpty ? "\"\"" : value)", "    \(key.summary); \(key.allowed)\(restart)"]
        }
            + secrets.flatMap { secret in
                ["\(secret.name) = \(SecretKey.shown(isSet: false))", "    \(secret.summary); \(secret.allowed)"]
            }
    }

    /// `name = value` for each of `names` that is a key, as `config` holds it (after a save:
    /// what was stored).
    public static func lines(_ names: [String], in config: Config, store: ConfigStore? = nil) -> [String] {
        names.compactMap { name in
            if let secret = secret(named: name) {
                return "\(name) = \(SecretKey.shown(isSet: store.map(secret.isSet(store:)) ?? false))"
            }
            return key(named: name).map { "\(name) = \($0.value(in: config).description)" }
        }
    }
}
