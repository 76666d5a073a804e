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

/// The speaker's player and voice, as the control routes drive them: each route is one
/// `ChatAction`, performed as the same action in an answer would be.
///
/// The executable provides the implementation (mpv, eSpeak NG and the sound device; the daemon
/// its pipeline's own). Every method may be called from any server thread at the same time and
/// should return promptly: an `answer` starts speaking and returns, it does not wait for the
/// end. Failures are thrown as `SusiError`s (`player-missing`, `audio-no-device`, ...) and
/// become a JSON error reply with that code; they must never crash the server.
public protocol SpeakerControl: AnyObject, Sendable {
    /// The current status; must not throw or block for long.
    func status() -> SpeakerStatus
    /// Performs `action`: the player's controls, `audio_play` (with its `queue`),
    /// `audio_volume` (remembered for the next start when nothing plays), and `answer`
    /// (speaks its expression with the configured voice; returns once speaking has started).
    func perform(_ action: ChatAction) throws
}
