/// Something the media player reported on its own, delivered to `MediaPlayer`'s event handler.
public enum PlayerEvent: Sendable, Equatable {
    /// Why the player stopped playing an entry (mpv's `end-file` reasons).
    public enum EndReason: String, Sendable, Equatable, CaseIterable {
        /// The entry played to its end.
        case eof
        /// Playback was stopped or replaced (stop, next, previous, a new `play`).
        case stop
        /// The player is quitting.
        case quit
        /// The entry could not be opened or decoded.
        case error
        /// The entry was a playlist or redirect and was replaced by what it points to.
        case redirect
        /// A reason this version does not know.
        case unknown

        /// Maps mpv's reason string, keeping unknown future reasons harmless.
        init(mpvReason: String?) {
            self = mpvReason.flatMap(EndReason.init(rawValue:)) ?? .unknown
        }
    }

    /// A file or stream has been opened and starts playing.
    case fileLoaded
    /// Playback of an entry ended, for `reason`.
    case endOfFile(reason: EndReason)
    /// The playlist ran out (or was stopped): nothing is playing any more.
    case idle
    /// Playback was paused.
    case paused
    /// Playback resumed after a pause.
    case resumed
    /// A failure outside any command: `player-load-failed` for an entry that could not be
    /// played, `player-died` when the process went away. Report it once; the next request
    /// that needs the player starts it again.
    case failed(PlayerError)
}
