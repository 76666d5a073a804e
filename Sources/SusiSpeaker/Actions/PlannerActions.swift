import Foundation
import SusiCore
import SusiModel
import SusiPipeline

/// The built-in skills' alarm, reminder and list actions, for `ActionDispatcher`: what each
/// does to the speaker's planned answers and named lists, and what to say about it.
///
/// | type | fields | does |
/// |---|---|---|
/// | `alarm_set` | `hour`, `minute`, `repeat` (`weekdays`), `either`; or `delay` (ms) | plans an alarm |
/// | `alarm_list` | | says the alarms set |
/// | `alarm_cancel` | `all`, or `hour`/`minute`/`either` | stops the ringing alarm, else cancels the soonest, all, or the one at that time |
/// | `alarm_snooze` | `seconds` (else `alarms.snooze_minutes`) | the ringing alarm rings again later |
/// | `reminder_set` | `text`, and `delay` (ms) or `hour`/`minute`/`either` | plans a reminder |
/// | `reminder_list`, `reminder_cancel` (`all`) | | as for alarms |
/// | `list_add`, `list_remove` | `item`, `list` | changes a named list ("eggs and milk" are two items) |
/// | `list_read`, `list_clear` | `list` | reads or empties it (`list` empty: the only list, or their names) |
///
/// `either` ("true") marks an hour said without am or pm: the sooner of the morning's and the
/// evening's is meant. Clock times are read in `calendar`.
struct PlannerActions: Sendable {
    let planned: PlannedAnswers
    /// Nil where no lists are kept (a dispatcher made without them).
    let lists: NamedLists?
    let calendar: Calendar
    let snoozeMinutes: @Sendable () -> Int
    let logger: Logger

    /// Performs `action`: what to say about it.
    func perform(_ action: PlannerAction) throws(ConfigError) -> ActionOutcome {
        let fields = action.fields
        switch action.kind {
        case .alarmSet: return try setAlarm(fields)
        case .alarmList: return ActionOutcome(say: planned.describe(.alarm))
        case .alarmCancel: return try cancelAlarm(fields)
        case .alarmSnooze: return try snooze(fields)
        case .reminderSet: return try setReminder(fields)
        case .reminderList: return ActionOutcome(say: planned.describe(.reminder))
        case .reminderCancel: return try cancelReminder(fields)
        case .listAdd: return try withLists { lists throws(ConfigError) in try addToList(fields, in: lists) }
        case .listRead: return try withLists { lists in readList(fields, in: lists) }
        case .listRemove: return try withLists { lists throws(ConfigError) in try removeFromList(fields, in: lists) }
        case .listClear: return try withLists { lists throws(ConfigError) in try clearList(fields, in: lists) }
        }
    }

    /// `body` over the named lists; an apology where none are kept.
    private func withLists(_ body: (NamedLists) throws(ConfigError) -> ActionOutcome) throws(ConfigError) -> ActionOutcome {
        guard let lists else { return ActionOutcome(say: "Sorry, I keep no lists here.") }
        return try body(lists)
    }

    /// "stop" while an alarm rings stops the alarm, not the music; nil when none rings.
    func stopRinging() -> ActionOutcome? {
        guard let alarm = planned.stopRinging() else { return nil }
        logger.info("alarm stopped: \(alarm.text)")
        return ActionOutcome(say: "Okay, the alarm is off.")
    }

    // MARK: Alarms

    private func setAlarm(_ fields: [String: JSONValue]) throws(ConfigError) -> ActionOutcome {
        if let delay = fields["delay"]?.intValue, delay > 0 {
            let entry = try planned.add("Wake up! Your alarm is ringing.", inMilliseconds: delay, kind: .alarm)
            logger.info("alarm set for \(entry.due)")
            return ActionOutcome(say: "Okay, an alarm in \(PlannedAnswers.spoken(seconds: delay / 1000)).")
        }
        let repeats: PlannedAnswers.Repeat? = fields["repeat"]?.stringValue == "weekdays" ? .weekdays : nil
        guard let time = clockTime(fields, morningIfEither: repeats != nil) else { return badTime("alarm") }
        let spoken = PlannedAnswers.spoken(hour: time.hour ?? 0, minute: time.minute ?? 0)
        guard
            let entry = try planned.add(
                "Wake up! This is your \(spoken) alarm.", atNext: time, in: calendar, kind: .alarm, repeats: repeats)
        else { return badTime("alarm") }
        logger.info("alarm set for \(entry.due)\(repeats == nil ? "" : " and every weekday")")
        if repeats == .weekdays {
            let first = day(of: entry).hasPrefix("on ") ? weekdayName(of: entry) : day(of: entry)
            return ActionOutcome(say: "Okay, an alarm for \(spoken) on weekdays, starting \(first).")
        }
        return ActionOutcome(say: "Okay, an alarm for \(spoken) \(day(of: entry)).")
    }

    private func cancelAlarm(_ fields: [String: JSONValue]) throws(ConfigError) -> ActionOutcome {
        if let stopped = stopRinging() { return stopped }
        if fields["all"]?.stringValue == "true" {
            let cancelled = try planned.cancelAll(.alarm)
            return ActionOutcome(
                say: cancelled.isEmpty
                    ? "There are no alarms to cancel."
                    : "Okay, I cancelled \(cancelled.count == 1 ? "your alarm" : "all \(cancelled.count) alarms").")
        }
        if let hour = fields["hour"]?.intValue {
            let minute = fields["minute"]?.intValue ?? 0
            let hours = fields["either"]?.stringValue == "true" && hour < 12 ? [hour, hour + 12] : [hour]
            let cancelled = try planned.cancelAll(.alarm) { entry in
                entry.hour.map(hours.contains) == true && entry.minute == minute
            }
            guard let first = cancelled.first else {
                return ActionOutcome(say: "There is no alarm at \(PlannedAnswers.spoken(hour: hour, minute: minute)).")
            }
            let count = cancelled.count == 1 ? "" : " and \(cancelled.count - 1) more"
            return ActionOutcome(say: "Okay, I cancelled your \(first.spokenTime ?? "") alarm\(count).")
        }
        guard let cancelled = try planned.cancelNext(.alarm) else { return ActionOutcome(say: "There is no alarm to cancel.") }
        return ActionOutcome(say: "Okay, I cancelled your \(cancelled.spokenTime.map { "\($0) " } ?? "")alarm.")
    }

    private func snooze(_ fields: [String: JSONValue]) throws(ConfigError) -> ActionOutcome {
        let minutes = fields["seconds"]?.intValue.map { max(1, $0 / 60) } ?? snoozeMinutes()
        guard let entry = try planned.snooze(minutes: minutes) else { return ActionOutcome(say: "No alarm is ringing.") }
        logger.info("alarm snoozed until \(entry.due)")
        return ActionOutcome(say: "Okay, I'll ring again in \(PlannedAnswers.spoken(seconds: minutes * 60)).")
    }

    // MARK: Reminders

    private func setReminder(_ fields: [String: JSONValue]) throws(ConfigError) -> ActionOutcome {
        let subject = Self.addressed(fields["text"]?.stringValue ?? "")
        guard !subject.isEmpty else { return ActionOutcome(say: "What should I remind you of?") }
        let text = PlannedAnswers.reminderLead + subject + "."
        if let delay = fields["delay"]?.intValue, delay > 0 {
            let entry = try planned.add(text, inMilliseconds: delay, kind: .reminder)
            logger.info("reminder set for \(entry.due)")
            return ActionOutcome(
                say: "Okay, I'll remind you to \(subject) in \(PlannedAnswers.spoken(seconds: delay / 1000)).")
        }
        guard let time = clockTime(fields, morningIfEither: false),
            let entry = try planned.add(text, atNext: time, in: calendar, kind: .reminder)
        else { return badTime("reminder") }
        logger.info("reminder set for \(entry.due)")
        return ActionOutcome(say: "Okay, I'll remind you to \(subject) at \(entry.spokenTime ?? "") \(day(of: entry)).")
    }

    private func cancelReminder(_ fields: [String: JSONValue]) throws(ConfigError) -> ActionOutcome {
        if fields["all"]?.stringValue == "true" {
            let cancelled = try planned.cancelAll(.reminder)
            return ActionOutcome(
                say: cancelled.isEmpty
                    ? "You have no reminders."
                    : "Okay, I cancelled \(cancelled.count) reminder\(cancelled.count == 1 ? "" : "s").")
        }
        guard let cancelled = try planned.cancelNext(.reminder) else { return ActionOutcome(say: "You have no reminders.") }
        let subject = cancelled.text.dropFirst(PlannedAnswers.reminderLead.count).trimmingCharacters(in: .punctuationCharacters)
        return ActionOutcome(say: "Okay, I won't remind you to \(subject).")
    }

    // MARK: Lists

    private func addToList(_ fields: [String: JSONValue], in lists: NamedLists) throws(ConfigError) -> ActionOutcome {
        let name = listName(fields)
        let items = Self.items(fields["item"]?.stringValue ?? "")
        guard !items.isEmpty else { return ActionOutcome(say: "What should I add to your \(name) list?") }
        var added: [String] = []
        var there: [String] = []
        for item in items {
            if try lists.add(item, to: name) == .done { added.append(item) } else { there.append(item) }
        }
        var words: [String] = []
        if !added.isEmpty { words.append("Okay, I added \(Self.joined(added)) to your \(name) list.") }
        if !there.isEmpty {
            words.append("\(Self.joined(there).capitalizedFirst) \(there.count == 1 ? "is" : "are") already on it.")
        }
        return ActionOutcome(say: words.joined(separator: " "))
    }

    private func readList(_ fields: [String: JSONValue], in lists: NamedLists) -> ActionOutcome {
        var name = listName(fields, default: "")
        if name.isEmpty {
            let names = lists.names
            guard names.count == 1, let only = names.first else {
                return ActionOutcome(
                    say: names.isEmpty
                        ? "Your lists are empty." : "You have \(names.count) lists: \(Self.joined(names)). Which one?")
            }
            name = only
        }
        let items = lists.items(name)
        guard !items.isEmpty else { return ActionOutcome(say: "Your \(name) list is empty.") }
        let count = items.count == 1 ? "one item" : "\(items.count) items"
        return ActionOutcome(say: "Your \(name) list has \(count): \(Self.joined(items)).")
    }

    private func removeFromList(_ fields: [String: JSONValue], in lists: NamedLists) throws(ConfigError) -> ActionOutcome {
        let name = listName(fields)
        let item = fields["item"]?.stringValue ?? ""
        if ["everything", "all", "all items", "all the items", "it all"].contains(item.lowercased()) {
            return try clearList(fields, in: lists)
        }
        var removed: [String] = []
        var missing: [String] = []
        for item in Self.items(item) {
            if try lists.remove(item, from: name) == .done { removed.append(item) } else { missing.append(item) }
        }
        var words: [String] = []
        if !removed.isEmpty { words.append("Okay, I removed \(Self.joined(removed)) from your \(name) list.") }
        if !missing.isEmpty {
            words.append(
                "\(Self.joined(missing).capitalizedFirst) \(missing.count == 1 ? "is" : "are") not on your \(name) list.")
        }
        return ActionOutcome(say: words.isEmpty ? "What should I remove from your \(name) list?" : words.joined(separator: " "))
    }

    private func clearList(_ fields: [String: JSONValue], in lists: NamedLists) throws(ConfigError) -> ActionOutcome {
        let name = listName(fields)
        let count = try lists.clear(name)
        return ActionOutcome(say: count == 0 ? "Your \(name) list is already empty." : "Okay, I cleared your \(name) list.")
    }

    // MARK: Helpers

    /// The list an action names, as `NamedLists` keeps it; `default` when it names none.
    private func listName(_ fields: [String: JSONValue], default fallback: String = "shopping") -> String {
        let name = NamedLists.name(fields["list"]?.stringValue ?? "")
        return name.isEmpty ? fallback : name
    }

    /// The clock time of `hour`/`minute`; an hour said without am or pm is the sooner of the
    /// two (the morning's, with `morningIfEither`). Nil for a time no clock shows.
    private func clockTime(_ fields: [String: JSONValue], morningIfEither: Bool) -> DateComponents? {
        guard var hour = fields["hour"]?.intValue, (0...23).contains(hour) else { return nil }
        let minute = fields["minute"]?.intValue ?? 0
        guard (0...59).contains(minute) else { return nil }
        if fields["either"]?.stringValue == "true", hour >= 1, hour < 12, !morningIfEither {
            let now = planned.now
            let morning = calendar.nextDate(
                after: now, matching: DateComponents(hour: hour, minute: minute, second: 0), matchingPolicy: .nextTime)
            let evening = calendar.nextDate(
                after: now, matching: DateComponents(hour: hour + 12, minute: minute, second: 0), matchingPolicy: .nextTime)
            if let morning, let evening, evening < morning { hour += 12 }
        }
        return DateComponents(hour: hour, minute: minute, second: 0)
    }

    /// "today", "tomorrow", or the weekday's name, for when `entry` is due.
    private func day(of entry: PlannedAnswers.Entry) -> String {
        if calendar.isDate(entry.due, inSameDayAs: entry.created) { return "today" }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: entry.created),
            calendar.isDate(entry.due, inSameDayAs: tomorrow)
        {
            return "tomorrow"
        }
        return "on " + weekdayName(of: entry)
    }

    /// The English name of the day `entry` is due (the answers are English; a calendar's own
    /// symbols follow its locale).
    private func weekdayName(of entry: PlannedAnswers.Entry) -> String {
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        return names[(calendar.component(.weekday, from: entry.due) + 6) % 7]
    }

    private func badTime(_ what: String) -> ActionOutcome {
        ActionOutcome(
            say: "Sorry, I could not set that \(what).",
            failure: PipelineError(stage: .brain, code: "brain-bad-timer", message: "\(what) without a clock time 0:00-23:59"))
    }

    /// The items in "eggs, milk and butter".
    static func items(_ text: String) -> [String] {
        text.replacingOccurrences(of: ",", with: " and ").components(separatedBy: " and ")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// "milk", "milk and eggs", "milk, eggs and bread".
    static func joined(_ items: [String]) -> String {
        guard let last = items.last else { return "" }
        return items.count == 1 ? last : items.dropLast().joined(separator: ", ") + " and " + last
    }

    /// What the person said about themselves, said back to them: "call my mom" as "call your mom".
    static func addressed(_ text: String) -> String {
        let swaps = [
            "my": "your", "me": "you", "i": "you", "mine": "yours", "myself": "yourself", "im": "you're", "i'm": "you're",
            "am": "are", "our": "your", "us": "you",
        ]
        return text.split(separator: " ").map { word in swaps[word.lowercased()] ?? String(word) }.joined(separator: " ")
    }
}

extension String {
    /// The text with its first letter in upper case.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
