import Foundation
import SusiModel

/// How actions sound on a speaker with no screen: brief, natural, never a raw URL.
public enum SpokenText {
    /// Longest stretch read out; longer answers are cut at a sentence boundary.
    static let maximumCharacters = 400

    /// The words to say for an `answer` expression; nil when there is nothing to say. Its
    /// lines stay lines, each ended by "\n": a bare "\r" (`%0d` from a SUSI server) or "\r\n"
    /// becomes one, so a terminal shows the lines apart rather than glued.
    public static func answer(_ expression: String) -> String? {
        let text = withNewlines(expression).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        if isImageURL(text) { return "I found an image, but I cannot show it on a speaker." }
        return shortened(withoutURLs(text))
    }

    /// `text` with each web address said as "a link" (its punctuation kept): nobody wants
    /// "h t t p s colon slash slash" read out. The events keep the answer as it came.
    public static func withoutURLs(_ text: String) -> String {
        guard text.contains("://") || text.lowercased().contains("www.") else { return text }
        let opening: Set<Character> = ["(", "[", "<", "\"", "'"]
        let closing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", ">", "\"", "'"]
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            var core = Substring(word)
            var lead = ""
            var tail = ""
            while let first = core.first, opening.contains(first) {
                lead.append(first)
                core = core.dropFirst()
            }
            while let last = core.last, closing.contains(last) {
                tail = String(last) + tail
                core = core.dropLast()
            }
            let lower = core.lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("www.") else {
                return String(word)
            }
            return lead + "a link" + tail
        }
        return words.joined(separator: " ")
    }

    /// The words for a non-answer action, using the answer's data rows; nil when silent.
    public static func brief(_ action: ChatAction, data: [[String: JSONValue]] = []) -> String? {
        switch action {
        case .table(let table):
            guard !data.isEmpty else { return nil }
            let columns = table.columns.all
            let rows = data.prefix(3).map { row in
                columns.compactMap { column in row[column.key]?.stringValue.map { "\(column.title) \($0)" } }.joined(
                    separator: ", ")
            }
            let lead = data.count == 1 ? "I found one result." : "I found \(data.count) results."
            return shortened(([lead] + rows.map { $0 + "." }).joined(separator: " "))
        case .rss(let rss):
            let titles = data.prefix(3).compactMap { $0[rss.title]?.stringValue }
            guard !titles.isEmpty else { return nil }
            return shortened("Here are the headlines. " + titles.map { $0 + "." }.joined(separator: " "))
        case .anchor(let anchor):
            return anchor.text.isEmpty ? nil : answer(anchor.text)
        case .map(let map):
            return String(format: "The place is at latitude %.2f, longitude %.2f.", map.latitude, map.longitude)
        case .piechart(let chart):
            let largest = data.max { ($0[chart.value]?.doubleValue ?? 0) < ($1[chart.value]?.doubleValue ?? 0) }
            guard let largest, let name = largest[chart.key]?.stringValue, let share = largest[chart.value]?.doubleValue else {
                return nil
            }
            return "The largest share is \(name), with \(JSONValue.format(share))\(chart.unit.isEmpty ? "" : " " + chart.unit)."
        case .imageShow:
            return "I found an image, but I cannot show it on a speaker."
        case .answer, .websearch, .videoPlay, .audioPlay, .audioVolume, .stop, .pause, .resume, .restart, .next, .previous,
            .shuffle, .timerSet, .settings, .timerList, .timerCancel, .planner, .homeAssistant, .skillFeedback, .unknown:
            // Spoken by the answer itself, or by what performing them says.
            return nil
        }
    }

    /// What a reply does, one line per action, for `susi ask`: the words that would be
    /// spoken, and the other actions in brackets ("(player: pause)"). Empty when the reply has
    /// no answer.
    public static func lines(for reply: ChatResponse) -> [String] {
        let data = reply.firstAnswer?.data ?? []
        return reply.actions.compactMap { action in
            switch action {
            case .answer(let answer) where answer.isPlanned:
                let when = answer.planDelay.map { "in \(JSONValue.format(Double($0) / 1000)) s" } ?? "at \(answer.planDate ?? "")"
                return "(\(when): \(answer.expression))"
            case .answer(let answer):
                return self.answer(answer.expression)
            case .audioPlay(let media), .videoPlay(let media):
                return "(plays \(media.identifierType) \(media.identifier))"
            case .audioVolume(let volume):
                return "(volume \(volume.volume))"
            case .settings(let setting):
                return "(setting \(setting.key) = \(setting.value))"
            case .stop, .pause, .resume, .restart, .next, .previous, .shuffle:
                return "(player: \(action.type))"
            case .websearch(let search):
                return "(web search: \(search.query))"
            case .timerSet(let timer):
                return "(timer at \(timer.spokenTime ?? "an unknown time"))"
            case .timerList, .timerCancel, .planner, .homeAssistant, .skillFeedback, .unknown:
                return "(\(action.type))"
            case .table, .piechart, .rss, .anchor, .map, .imageShow:
                return brief(action, data: data)
            }
        }
    }

    /// `text` with "\r\n" and a bare "\r" as "\n".
    static func withNewlines(_ text: String) -> String {
        guard text.unicodeScalars.contains("\r") else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// Whether `text` is only the URL of a picture.
    static func isImageURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !lower.contains(" ") else { return false }
        let path = lower.split(separator: "?").first.map(String.init) ?? lower
        return [".jpg", ".jpeg", ".png", ".gif"].contains { path.hasSuffix($0) }
    }

    /// `text` cut at the last sentence end before the limit, with "and more".
    static func shortened(_ text: String) -> String {
        guard text.count > maximumCharacters else { return text }
        let head = String(text.prefix(maximumCharacters))
        if let end = head.lastIndex(where: { ".!?".contains($0) }), head.distance(from: head.startIndex, to: end) > 40 {
            return String(head[...end]) + " And more."
        }
        let words = head.split(separator: " ").dropLast().joined(separator: " ")
        return words + ", and more."
    }
}
