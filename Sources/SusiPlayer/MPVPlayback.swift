import SusiCore

/// What one mpv is doing, as its replies and events said: the player's state machine, a plain
/// value so its transitions are tested without mpv. `MPVPlayer` starts a fresh one with every
/// session and keeps it behind its mutex.
struct MPVPlayback {
    /// mpv's observed properties, by the ids used in `observe_property`.
    enum Observed: Int, CaseIterable {
        case pause = 1
        case idleActive = 2

        var name: String {
            switch self {
            case .pause: return "pause"
            case .idleActive: return "idle-active"
            }
        }
    }

    var paused = false
    var idle = true
    /// What the handler was last told, so repeated reports do not repeat events.
    var reportedPause = false
    var reportedIdle = true
    /// What each playlist entry was asked to play, for load-failure messages.
    var entries: [Int: String] = [:]

    /// Turns one of mpv's lines into the events it means for the handler.
    mutating func apply(_ event: MPVConnection.Event) -> [PlayerEvent] {
        switch event.name {
        case "property-change":
            guard let value = event.fields["data"]?.boolValue else { return [] }
            switch event.fields["name"]?.stringValue {
            case Observed.pause.name?:
                paused = value
                guard value != reportedPause else { return [] }
                reportedPause = value
                return [value ? .paused : .resumed]
            case Observed.idleActive.name?:
                if value { return enterIdle() }
                idle = false
                reportedIdle = false
                return []
            default:
                return []
            }
        case "idle":
            // Property changes can be coalesced away; mpv's own idle event is the backstop.
            return enterIdle()
        case "start-file":
            idle = false
            reportedIdle = false
            return []
        case "file-loaded":
            return [.fileLoaded]
        case "end-file":
            let reason = PlayerEvent.EndReason(mpvReason: event.fields["reason"]?.stringValue)
            guard reason == .error else { return [.endOfFile(reason: reason)] }
            let entry = event.fields["playlist_entry_id"]?.intValue
            let what = entry.flatMap { entries[$0] } ?? "the requested media"
            let why = event.fields["file_error"]?.stringValue ?? "unknown error"
            return [
                .endOfFile(reason: reason),
                .failed(
                    PlayerError(.loadFailed, "the media player could not play \(URLRedaction.redacted(what)): \(why)")),
            ]
        default:
            return []
        }
    }

    private mutating func enterIdle() -> [PlayerEvent] {
        idle = true
        guard !reportedIdle else { return [] }
        reportedIdle = true
        return [.idle]
    }
}
