/// What each action is to the speaker around the pipeline: whether it changes the speaker,
/// whether it starts the player, and the event it raises. Each is one switch that names every
/// action, so a new action is placed by the compiler.
extension ChatAction {
    /// Whether the action changes the speaker itself (its player, volume, config or timers):
    /// a built-in skill's answer that does so is given without asking the server.
    public var controlsSpeaker: Bool {
        switch self {
        case .stop, .pause, .resume, .restart, .next, .previous, .shuffle, .audioVolume, .settings, .timerSet:
            return true
        case .answer, .table, .piechart, .rss, .websearch, .anchor, .map, .videoPlay, .audioPlay, .imageShow, .timerList,
            .timerCancel, .planner, .homeAssistant, .skillFeedback, .unknown:
            return false
        }
    }

    /// Whether performing the action starts the player (`audio_play`, `video_play`).
    public var startsPlayback: Bool {
        switch self {
        case .audioPlay, .videoPlay:
            return true
        case .answer, .table, .piechart, .rss, .websearch, .anchor, .map, .audioVolume, .stop, .pause, .resume, .restart,
            .next, .previous, .shuffle, .timerSet, .imageShow, .settings, .timerList, .timerCancel, .planner,
            .homeAssistant, .skillFeedback, .unknown:
            return false
        }
    }

    /// The event raised as the action is performed (`play`, `player`); nil for none.
    public var event: PipelineEvent.Kind? {
        switch self {
        case .audioPlay(let media), .videoPlay(let media):
            return .play(type: type, identifier: media.identifier, identifierType: media.identifierType)
        case .stop, .pause, .resume, .restart, .next, .previous, .shuffle:
            return .player(command: type)
        case .audioVolume(let volume):
            return .player(command: "volume \(volume.volume)")
        case .answer, .table, .piechart, .rss, .websearch, .anchor, .map, .timerSet, .imageShow, .settings, .timerList,
            .timerCancel, .planner, .homeAssistant, .skillFeedback, .unknown:
            return nil
        }
    }
}
