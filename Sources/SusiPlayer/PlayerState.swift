/// What the media player is doing, as far as its last command and report say.
public enum PlayerState: String, Sendable, Equatable, CaseIterable {
    /// Nothing is loaded (also: the player process is not running).
    case idle
    /// A file or stream is loaded and not paused.
    case playing
    /// A file or stream is loaded and paused.
    case paused
}
