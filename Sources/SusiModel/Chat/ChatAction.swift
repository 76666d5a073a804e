/// One action of a SUSI answer, performed in list order by the executor.
///
/// Decoding is lenient (numbers as strings, missing fields defaulted, see each payload) and
/// never fails on an unknown `type`: such actions become `.unknown` with the whole object
/// kept, so they can be re-encoded and passed on; executors ignore them.
public enum ChatAction: Sendable, Equatable, Codable {
    /// `answer`: say something, now or later.
    case answer(AnswerAction)
    /// `table`: data rows as a table.
    case table(TableAction)
    /// `piechart`: data rows as a pie chart.
    case piechart(PieChartAction)
    /// `rss`: data rows as feed items.
    case rss(RSSAction)
    /// `websearch`: search the web for a query.
    case websearch(WebSearchAction)
    /// `anchor`: a link with text.
    case anchor(AnchorAction)
    /// `map`: a place.
    case map(MapAction)
    /// `video_play`: a video for the player (audio only on a speaker).
    case videoPlay(MediaPlayAction)
    /// `audio_play`: audio for the player.
    case audioPlay(MediaPlayAction)
    /// `audio_volume`: set the output volume.
    case audioVolume(VolumeAction)
    /// `stop`: stop playback.
    case stop
    /// `pause`: pause playback.
    case pause
    /// `resume`: continue paused playback.
    case resume
    /// `restart`: play the current item from its start.
    case restart
    /// `next`: skip to the next item.
    case next
    /// `previous`: go back to the previous item.
    case previous
    /// `shuffle`: shuffle the play queue.
    case shuffle
    /// `timer_set`: ring at a clock time.
    case timerSet(TimerSetAction)
    /// `image_show`: show an image.
    case imageShow(ImageShowAction)
    /// `settings`: change a config key of this speaker.
    case settings(SettingsAction)
    /// `timer_list`: say the timers set.
    case timerList
    /// `timer_cancel`: cancel the soonest timer.
    case timerCancel
    /// `alarm_*`, `reminder_*`, `list_*`: the built-in skills' alarms, reminders and lists.
    case planner(PlannerAction)
    /// `home_assistant`: the home skill's command for Home Assistant.
    case homeAssistant(HomeAssistantAction)
    /// `skill_rate`, `skill_report`, `skill_reviews`, `skill_ratings`: the apps' skill
    /// features by voice.
    case skillFeedback(SkillFeedbackAction)
    /// Any other type, kept verbatim.
    case unknown(UnknownAction)

    /// Builds an action from its JSON object; never fails (see the type's documentation).
    public init(object: [String: JSONValue]) {
        let type = object.lenientString("type") ?? ""
        let known = type.lowercased()
        if let kind = PlannerAction.Kind(rawValue: known) {
            self = .planner(PlannerAction(kind, fields: object))
            return
        }
        if let kind = SkillFeedbackAction.Kind(rawValue: known) {
            self = .skillFeedback(SkillFeedbackAction(kind, stars: object.lenientInt("stars")))
            return
        }
        switch known {
        case "answer": self = .answer(AnswerAction(object: object))
        case "table": self = .table(TableAction(object: object))
        case "piechart": self = .piechart(PieChartAction(object: object))
        case "rss": self = .rss(RSSAction(object: object))
        case "websearch": self = .websearch(WebSearchAction(object: object))
        case "anchor": self = .anchor(AnchorAction(object: object))
        case "map": self = .map(MapAction(object: object))
        case "video_play": self = .videoPlay(MediaPlayAction(object: object))
        case "audio_play": self = .audioPlay(MediaPlayAction(object: object))
        case "audio_volume": self = .audioVolume(VolumeAction(object: object))
        case "stop": self = .stop
        case "pause": self = .pause
        case "resume": self = .resume
        case "restart": self = .restart
        case "next": self = .next
        case "previous": self = .previous
        case "shuffle": self = .shuffle
        case "timer_set": self = .timerSet(TimerSetAction(object: object))
        case "image_show": self = .imageShow(ImageShowAction(object: object))
        case "settings": self = .settings(SettingsAction(object: object))
        case "timer_list": self = .timerList
        case "timer_cancel": self = .timerCancel
        case "home_assistant": self = .homeAssistant(HomeAssistantAction(object: object))
        default: self = .unknown(UnknownAction(type: type, raw: object))
        }
    }

    /// The SUSI `type` string of this action.
    public var type: String {
        switch self {
        case .answer: return "answer"
        case .table: return "table"
        case .piechart: return "piechart"
        case .rss: return "rss"
        case .websearch: return "websearch"
        case .anchor: return "anchor"
        case .map: return "map"
        case .videoPlay: return "video_play"
        case .audioPlay: return "audio_play"
        case .audioVolume: return "audio_volume"
        case .stop: return "stop"
        case .pause: return "pause"
        case .resume: return "resume"
        case .restart: return "restart"
        case .next: return "next"
        case .previous: return "previous"
        case .shuffle: return "shuffle"
        case .timerSet: return "timer_set"
        case .imageShow: return "image_show"
        case .settings: return "settings"
        case .timerList: return "timer_list"
        case .timerCancel: return "timer_cancel"
        case .planner(let action): return action.kind.rawValue
        case .homeAssistant: return "home_assistant"
        case .skillFeedback(let action): return action.kind.rawValue
        case .unknown(let action): return action.type
        }
    }

    /// The action as a JSON object, `type` included.
    public var object: [String: JSONValue] {
        var result: [String: JSONValue]
        switch self {
        case .answer(let payload): result = payload.object
        case .table(let payload): result = payload.object
        case .piechart(let payload): result = payload.object
        case .rss(let payload): result = payload.object
        case .websearch(let payload): result = payload.object
        case .anchor(let payload): result = payload.object
        case .map(let payload): result = payload.object
        case .videoPlay(let payload), .audioPlay(let payload): result = payload.object
        case .audioVolume(let payload): result = payload.object
        case .timerSet(let payload): result = payload.object
        case .imageShow(let payload): result = payload.object
        case .settings(let payload): result = payload.object
        case .planner(let payload): result = payload.object
        case .homeAssistant(let payload): result = payload.object
        case .skillFeedback(let payload): result = payload.object
        case .stop, .pause, .resume, .restart, .next, .previous, .shuffle, .timerList, .timerCancel: result = [:]
        case .unknown(let action): return action.raw
        }
        result["type"] = .string(type)
        return result
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard case .object(let members) = try container.decode(JSONValue.self) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "an action must be a JSON object")
        }
        self.init(object: members)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(JSONValue.object(object))
    }
}
