import SusiCore

extension MediaPlayer {
    /// Performs `action` when it is one for the player; returns false for any other action.
    ///
    /// `audio_play` and `video_play` play (sound only on a speaker), `audio_volume` sets the
    /// listening volume, and `stop`, `pause`, `resume`, `restart`, `next`, `previous`,
    /// `shuffle` control playback. `next`/`previous` past either end of the playlist, and
    /// controls with nothing playing, quietly do nothing. The caller emits the `play`/`player`
    /// events; this only acts.
    /// - Throws: the `PlayerError` of the command that failed.
    @discardableResult
    public func perform(_ action: ChatAction) throws(PlayerError) -> Bool {
        switch action {
        case .audioPlay(let media), .videoPlay(let media): try play(media)
        case .audioVolume(let volume): try setVolume(volume.volume)
        case .stop: try stop()
        case .pause: try pause()
        case .resume: try resume()
        case .restart: try restart()
        case .next: try next()
        case .previous: try previous()
        case .shuffle: try shuffle()
        default: return false
        }
        return true
    }

    /// Raises (positive `delta`) or lowers the listening volume, e.g. by `player.volume_step`
    /// for "volume up" / "volume down"; the result is clamped to 0-100.
    public func changeVolume(by delta: Int) throws(PlayerError) {
        try setVolume(min(max(volume + delta, 0), 100))
    }
}
