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
}

extension ConfigStore {
    /// Where the speaker keeps its state: beside this config file.
    public var state: StateDirectory { StateDirectory(path: directory) }
}
