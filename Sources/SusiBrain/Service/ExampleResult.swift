import SusiModel

/// The outcome of one `!example` run by `Brain.runExamples()` (`susi skills test`).
public struct ExampleResult: Sendable, Equatable {
    /// The id of the skill the example belongs to.
    public let skill: String
    /// Its file.
    public let file: String
    /// The line of the `!example:`.
    public let line: Int
    /// The example query.
    public let query: String
    /// The `!expect:` text, if any.
    public let expect: String?
    /// What the brain answered, as `describe(_:)` writes it.
    public let answer: String
    /// `skill:line` of the intent that answered, `nil` when none did.
    public let answeredBy: String?
    /// Why the example failed; `nil` when it passed.
    public let problem: String?

    /// Whether the example passed.
    public var passed: Bool { problem == nil }

    /// A reply as one line for checking and printing: the spoken text, then each other action
    /// in brackets, e.g. `Playing jazz. [audio_play search: jazz]`,
    /// `[settings tts.voice=en-gb]`, `[audio_volume 60]`, `[answer in 120000 ms: Time is up]`,
    /// `[list_add item=milk list=shopping]` (other actions: their type and fields).
    /// `!expect:` texts are matched (case-insensitively) against this line.
    public static func describe(_ reply: ChatResponse) -> String {
        var parts: [String] = []
        let spoken = reply.spokenText
        if !spoken.isEmpty { parts.append(spoken) }
        for action in reply.actions {
            switch action {
            case .answer(let answer):
                if let delay = answer.planDelay {
                    parts.append("[answer in \(delay) ms: \(answer.expression)]")
                } else if let date = answer.planDate {
                    parts.append("[answer at \(date): \(answer.expression)]")
                }
            case .audioPlay(let media), .videoPlay(let media):
                parts.append("[\(action.type) \(media.identifierType): \(media.identifier)]")
            case .audioVolume(let volume):
                parts.append("[audio_volume \(volume.volume)]")
            case .settings(let setting):
                parts.append("[settings \(setting.key)=\(setting.value)]")
            case .homeAssistant(let home):
                let fields = [home.field("command"), home.entityIDs, home.field("value"), home.asked].compactMap { $0 }
                parts.append("[home_assistant \(fields.joined(separator: " "))]")
            case .planner, .skillFeedback, .unknown:
                // The speaker's own actions with their fields: `[alarm_set hour=7 minute=0]`.
                let fields = action.object.filter { $0.key != "type" }.sorted { $0.key < $1.key }.map { key, value in
                    "\(key)=\(value.stringValue ?? value.intValue.map(String.init) ?? "\(value)")"
                }
                parts.append("[" + ([action.type] + fields).joined(separator: " ") + "]")
            case .table, .piechart, .rss, .websearch, .anchor, .map, .stop, .pause, .resume, .restart, .next, .previous,
                .shuffle, .timerSet, .imageShow, .timerList, .timerCancel:
                parts.append("[\(action.type)]")
            }
        }
        return parts.joined(separator: " ")
    }
}
