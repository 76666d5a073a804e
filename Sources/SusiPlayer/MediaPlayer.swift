import SusiModel

/// The external media player the speaker hands music and video to.
///
/// Methods block until the player has acknowledged the command (bounded by a reply timeout)
/// and may be called from any thread; calls are serialised. Control commands (`pause`,
/// `next`, `duck`, ...) never start a player that is not running: with nothing playing there is
/// nothing to control, so they do nothing. Only `play` and `enqueue` start it.
/// Reports that arrive on their own (end of file, idle, a stream that failed, the process dying)
/// go to the handler set with `setEventHandler(_:)`.
public protocol MediaPlayer: AnyObject {
    /// What is playing now, per the last command and the player's last report.
    var state: PlayerState { get }
    /// The listening volume, 0-100: what `setVolume` set, not lowered by ducking.
    var volume: Int { get }
    /// Whether `duck(to:)` is in force.
    var isDucked: Bool { get }

    /// Sets the function that receives `PlayerEvent`s, replacing any earlier one.
    ///
    /// The implementation documents the thread it calls on; it must allow the handler to call
    /// back into the player.
    func setEventHandler(_ handler: (@Sendable (PlayerEvent) -> Void)?)

    /// Replaces whatever plays with `identifier`, read per `type` (`youtube`, `url`,
    /// `soundcloud`, `search`; see `MediaLocator`), and unpauses.
    ///
    /// Returns once the player accepted the entry; whether it can actually be opened is reported
    /// later as `PlayerEvent.failed` with `player-load-failed`.
    func play(identifier: String, type: String) throws(PlayerError)
    /// Appends `identifier` to the playlist; starts it when nothing plays.
    func enqueue(identifier: String, type: String) throws(PlayerError)
    /// Pauses playback.
    func pause() throws(PlayerError)
    /// Resumes paused playback.
    func resume() throws(PlayerError)
    /// Stops playback and clears the playlist.
    func stop() throws(PlayerError)
    /// Skips to the next playlist entry; false when there is none.
    @discardableResult func next() throws(PlayerError) -> Bool
    /// Goes back to the previous playlist entry; false when there is none.
    @discardableResult func previous() throws(PlayerError) -> Bool
    /// Starts the current entry again from its beginning.
    func restart() throws(PlayerError)
    /// Shuffles the playlist.
    func shuffle() throws(PlayerError)
    /// Sets the listening volume (clamped to 0-100) and remembers it across restarts.
    func setVolume(_ volume: Int) throws(PlayerError)
    /// Lowers the sound to `percent` of the listening volume, for listening and speaking.
    ///
    /// Idempotent (ducking twice does not compound) and safe when nothing plays; failures are
    /// logged, never thrown, so it can be called on every path.
    func duck(to percent: Int)
    /// Restores the listening volume after `duck(to:)`; does nothing when not ducked.
    func unduck()
    /// Stops the player process, removes its socket and releases everything it holds.
    ///
    /// Final: afterwards `play` fails with `player-start-failed` and controls do nothing, so a
    /// late call from another thread cannot leave an orphaned process behind.
    func shutdown()
}
