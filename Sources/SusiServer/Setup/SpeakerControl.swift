import Foundation
import SusiCore
import SusiModel

/// What the speaker is doing, as `/status` and the control routes report it.
public struct SpeakerStatus: Sendable, Equatable {
    /// The assistant's state: `idle`, `listening`, `thinking`, `speaking`, or `setup-only`
    /// for a server running without the voice pipeline.
    public var state: String
    /// The player: `idle`, `playing` or `paused`.
    public var playback: String
    /// What is loaded in the player (a YouTube id or URL), when anything is.
    public var media: String?
    /// The listening volume, 0-100.
    public var volume: Int
    /// When the last spoken or app interaction ended; nil when there has been none.
    public var lastInteraction: Date?

    /// Creates a status.
    public init(
        state: String, playback: String, media: String? = nil, volume: Int, lastInteraction: Date? = nil
    ) {
        self.state = state
        self.playback = playback
        self.media = media
        self.volume = volume
        self.lastInteraction = lastInteraction
    }
}

/// The speaker's player and voice, as the control routes drive them.
///
/// The executable provides the implementation (mpv, eSpeak NG and the sound device; the daemon
/// its pipeline's own). Every method may be called from any server thread at the same time and
/// should return promptly: `say` starts speaking and returns, it does not wait for the end.
/// Failures are thrown as `SusiError`s (`player-missing`, `audio-no-device`, ...) and become a
/// JSON error reply with that code; they must never crash the server.
public protocol SpeakerControl: AnyObject, Sendable {
    /// The current status; must not throw or block for long.
    func status() -> SpeakerStatus
    /// Plays `identifier` per `type` (`youtube` for a video id, `url` for a stream or file URL).
    func play(identifier: String, type: String) throws
    /// Appends `identifier` (same types as `play`) to the playlist; starts it when nothing plays.
    func enqueue(identifier: String, type: String) throws
    /// Pauses playback; nothing happens when nothing plays.
    func pause() throws
    /// Resumes paused playback.
    func resume() throws
    /// Stops playback and speech.
    func stop() throws
    /// Skips to the next playlist entry.
    func next() throws
    /// Goes back to the previous playlist entry.
    func previous() throws
    /// Starts the current entry again from its beginning.
    func restart() throws
    /// Shuffles the playlist.
    func shuffle() throws
    /// Sets the listening volume, 0-100 (already validated).
    func setVolume(_ volume: Int) throws
    /// Raises (positive) or lowers the volume by `delta` points, clamped to 0-100.
    func changeVolume(by delta: Int) throws
    /// Speaks `text` with the configured voice; returns once speaking has started.
    func say(_ text: String) throws
}
