import Foundation
import SusiCore

/// A setting that is a secret (an access token): set like a config key (`susi config set`,
/// `POST /settings`), but kept in a file of its own beside the config, mode 0600, as the SUSI
/// login is (`account.json`), and never shown back: `susi config show`, `get`, the web page's
/// key list and the logs say only whether it is set.
///
/// Reads and writes go through `AtomicFile`, so another process sees the old or the new
/// secret, never half of one.
public struct SecretKey: Sendable {
    /// Dotted name, e.g. `home_assistant.token`.
    public let name: String
    /// The file beside the config that holds it.
    public let fileName: String
    /// One line for people.
    public let summary: String
    /// What values are allowed, in words.
    public let allowed: String
    let check: @Sendable (String) -> Bool

    /// What `susi config get` and the web page show in place of the value.
    public static func shown(isSet: Bool) -> String { isSet ? "(set)" : "(not set)" }

    /// The secret's file beside the config file of `store`.
    public func path(store: ConfigStore) -> String {
        (store.directory as NSString).appendingPathComponent(fileName)
    }

    /// The stored secret; nil when there is none (or the file holds only blanks).
    public func value(store: ConfigStore) -> String? {
        guard let data = try? AtomicFile.read(path(store: store), limit: 64 * 1024) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Whether a secret is stored.
    public func isSet(store: ConfigStore) -> Bool { value(store: store) != nil }

    /// Why `text` cannot be stored, or nil when it can (empty removes the secret).
    public func problem(with text: String) -> String? {
        text.isEmpty || check(text) ? nil : "\(name) must be \(allowed)"
    }

    /// Stores `text` (mode 0600), or removes the file when `text` is empty.
    ///
    /// - Throws: `config-bad-value` for a value `problem(with:)` refuses (never naming it),
    ///   `config-unwritable` when the file cannot be written.
    public func save(_ text: String, store: ConfigStore) throws(ConfigError) {
        if let problem = problem(with: text) { throw ConfigError(.badValue, problem) }
        let path = path(store: store)
        if text.isEmpty {
            try AtomicFile.update(path) { _ throws(ConfigError) in .remove }
        } else {
            try AtomicFile.write(Data((text + "\n").utf8), to: path)
        }
    }
}

extension ConfigSchema {
    /// The secret settings, each in its own 0600 file beside the config.
    public static let secrets: [SecretKey] = [
        SecretKey(
            name: "home_assistant.token", fileName: "home-assistant-token",
            summary: "Home Assistant long-lived access token (made on your profile page in Home Assistant); "
                + "kept in home-assistant-token beside the config (0600), never shown; empty removes it",
            allowed: "empty or 1 to 4096 printable ASCII characters without spaces",
            check: { text in
                (1...4096).contains(text.utf8.count) && text.unicodeScalars.allSatisfy { (0x21...0x7e).contains($0.value) }
            })
    ]

    /// The secret setting named `name`, if there is one.
    public static func secret(named name: String) -> SecretKey? {
        secrets.first { $0.name == name }
    }
}
