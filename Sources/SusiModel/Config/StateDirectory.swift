import Foundation

/// The directory of the config file, where the speaker keeps its state, and the name of every
/// file it keeps there: one place for the paths, so a file is never named twice.
public struct StateDirectory: Sendable, Equatable {
    /// The directory; "." for a config file named without one.
    public let path: String

    /// The state directory at `path`.
    public init(path: String) {
        self.path = path.isEmpty ? "." : path
    }

    /// The state directory of the config file at `configPath`.
    public init(configPath: String) {
        self.init(path: (configPath as NSString).deletingLastPathComponent)
    }

    /// `name` in the directory.
    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The last interactions (`InteractionLog`).
    public var history: String { file("history.json") }
    /// The timers, alarms and reminders (`PlannedAnswers`).
    public var timers: String { file("timers.json") }
    /// The named lists, shopping and to-do (`NamedLists`).
    public var lists: String { file("lists.json") }
    /// The index of the owner's music.
    public var musicLibrary: String { file("music-library.json") }
    /// The player's listening volume across restarts.
    public var playerState: String { file("player-state.json") }
    /// The pipe a multi-room group's leader plays into.
    public var multiroomPipe: String { file("multiroom.pipe") }
    /// The voice chosen for each answer language.
    public var languageVoices: String { file("language-voices.json") }
    /// This speaker's record with the SUSI server.
    public var deviceRegistration: String { file("device-registration.json") }
    /// Where the first-run setup has got to.
    public var setupState: String { file("setup-state.json") }
    /// A sign-in waiting for the network.
    public var pendingLogin: String { file("pending-login.json") }
    /// The SUSI.AI account's token.
    public var account: String { file("account.json") }
    /// The owner token the control routes require.
    public var ownerToken: String { file("owner-token") }
    /// This speaker's own passphrase for its setup hotspot.
    public var hotspotPassphrase: String { file("hotspot-passphrase") }
    /// The Wi-Fi networks joined, where `setup.wpa_supplicant_file` names no other file.
    public var wpaSupplicant: String { file("wpa_supplicant.conf") }
}

/// A file the speaker keeps in its state directory, under the name `StateDirectory` gives it.
public protocol StateFile {
    /// The file's name in a `StateDirectory`.
    static var location: KeyPath<StateDirectory, String> { get }
    /// The file's path.
    var path: String { get }
    /// The file at `path`.
    init(path: String)
}

extension StateFile {
    /// The file in the state directory beside the config file of `store`.
    public init(configStore store: ConfigStore) {
        self.init(path: store.state[keyPath: Self.location])
    }

    /// The file's text without the blanks and newlines around it; nil when it cannot be read.
    public var trimmedText: String? {
        FileManager.default.contents(atPath: path).map {
            String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}

extension ConfigStore {
    /// Where the speaker keeps its state: beside this config file.
    public var state: StateDirectory { StateDirectory(path: directory) }
}
