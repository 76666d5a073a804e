import Foundation
import SusiCore
import SusiModel

/// This speaker's own passphrase for its first-setup hotspot, kept in `hotspot-passphrase`
/// beside the config (0600), so that no two speakers share one and no guide prints it.
///
/// Made on first use: 16 characters from 31 letters and digits that cannot be misread (no
/// 0/o, 1/l/i), in four groups of four ("k7mq-3xfp-9tcw-h2rd", about 79 bits), short enough
/// to print on the box's label and type on a phone. `susi setup hotspot status` prints it; the
/// web page shows it to the owner.
public struct HotspotPassphraseFile: StateFile, Sendable, Equatable {
    public static var location: KeyPath<StateDirectory, String> { \.hotspotPassphrase }

    /// The file's path.
    public let path: String

    /// A passphrase file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The letters passphrases are made of.
    static let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// The passphrase the hotspot uses under `config`: nil for an open hotspot
    /// (`setup.hotspot.open`), `setup.hotspot.passphrase` when one is set, else this
    /// speaker's own (made now when there is none).
    public static func passphrase(for config: Config, store: ConfigStore) throws(SetupError) -> String? {
        let hotspot = config.setup.hotspot
        if hotspot.open { return nil }
        if !hotspot.passphrase.isEmpty { return hotspot.passphrase }
        return try HotspotPassphraseFile(configStore: store).ensure()
    }

    /// The stored passphrase; nil when there is none or the file holds no usable one.
    public var passphrase: String? {
        trimmedText.flatMap { ConfigSchema.isHotspotPassphrase($0) && !$0.isEmpty ? $0 : nil }
    }

    /// The stored passphrase, made first when there is none. Made by root (the hotspot's
    /// helper), the file is given to the owner of the config's directory, the service user,
    /// who must read it too.
    public func ensure() throws(SetupError) -> String {
        if let passphrase { return passphrase }
        let made = Self.generate()
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                // Another process may have made one meanwhile: keep the first.
                if let data, !String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    return .keep
                }
                return .replace(Data((made + "\n").utf8))
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
        if geteuid() == 0 {
            var directory = stat()
            if stat((path as NSString).deletingLastPathComponent, &directory) == 0 {
                _ = chown(path, directory.st_uid, directory.st_gid)
            }
        }
        guard let stored = passphrase else { throw SetupError(.storeFailed, "cannot read back \(path)") }
        return stored
    }

    /// A new passphrase: four groups of four, from the system's random generator.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<16).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: 16, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }
}
