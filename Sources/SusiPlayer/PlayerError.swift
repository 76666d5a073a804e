import SusiCore
import SusiModel

/// A failure of the media player stage: the mpv process, its control socket, or what it plays.
///
/// `code` is stable (see `PlayerError.Kind`); `message` names the command, file or stream
/// involved so a person can act on it.
public typealias PlayerError = StageError<PlayerErrorKind>

/// The machine-readable reason; its raw value is the stable `code`.
public enum PlayerErrorKind: String, StageErrorKind, CaseIterable {
    /// `player.command` cannot be found or executed.
    case missing = "player-missing"
    /// The player started but exited or never opened its control socket.
    case startFailed = "player-start-failed"
    /// The running player process went away (crashed, was killed, closed its socket).
    case died = "player-died"
    /// A stream or file could not be opened or decoded by the player.
    case loadFailed = "player-load-failed"
    /// The player did not answer a command in time.
    case timeout = "player-timeout"
    /// The player answered a command with an error.
    case commandFailed = "player-command-failed"
    /// A media identifier that cannot be played safely (empty, control characters, too long,
    /// a forbidden URL scheme).
    case invalidIdentifier = "player-invalid-identifier"
    /// A source an answer may not play (`MediaSourcePolicy`): a local file outside
    /// `player.media_dirs`, a directory, a device, or a scheme other than http(s) and searches.
    case sourceRefused = "player-source-refused"
    /// "Play my music" found no audio file in `player.media_dirs` nor on removable media.
    case libraryEmpty = "player-library-empty"
    /// The volume state file exists but cannot be read or parsed.
    case stateUnreadable = "player-state-unreadable"
    /// The volume state file cannot be written.
    case stateUnwritable = "player-state-unwritable"
    /// `susi update` could not update yt-dlp (pip failed, no network, no virtualenv).
    case updateFailed = "player-update-failed"

    public var stage: Stage { .player }
}
