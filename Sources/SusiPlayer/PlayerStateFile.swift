import Foundation
import SusiCore
import SusiModel

/// The small JSON file that keeps the player's listening volume across restarts of the speaker.
///
/// Lives next to the config (`StateDirectory.playerState`), mode 0600, written atomically (temporary
/// file, fsync, rename), so a crash leaves the old or the new volume, never half a file.
/// Content: `{"volume": 55}`.
public struct PlayerStateFile: Sendable, Equatable {
    /// The file's path.
    public let path: String

    /// A state file at `path`; nothing is read or written until asked.
    public init(path: String) {
        self.path = path
    }

    /// The conventional state file in the directory of the config file at `configPath`
    /// (`StateDirectory.playerState`).
    public init(nextToConfig configPath: String) {
        self.path = StateDirectory(configPath: configPath).playerState
    }

    /// The saved volume, or nil when no state has been saved yet.
    ///
    /// - Throws: `player-state-unreadable` when the file exists but cannot be read, is not the
    ///   expected JSON, or holds a volume outside 0-100.
    public func loadVolume() throws(PlayerError) -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PlayerError(.stateUnreadable, "cannot read player state \(path): \(error.localizedDescription)")
        }
        guard let volume = value["volume"]?.intValue, (0...100).contains(volume) else {
            throw PlayerError(.stateUnreadable, "player state \(path) has no volume between 0 and 100")
        }
        return volume
    }

    /// Saves `volume` (0-100), replacing the file atomically with mode 0600.
    ///
    /// - Throws: `player-state-unwritable` when the directory or file cannot be written.
    public func save(volume: Int) throws(PlayerError) {
        let text = JSONValue.object(["volume": .number(Double(volume))]).jsonText + "\n"
        do {
            try AtomicFile.write(Data(text.utf8), to: path)
        } catch {
            throw PlayerError(.stateUnwritable, error.message)
        }
    }
}
