import Foundation
import SusiCore
import Synchronization

/// Answers to say later (timers, SUSI's planned answers, reminders) and alarms to ring, kept
/// in a state file so a restart loses none.
///
/// Alarms are taken apart from the rest (`takeDueAlarm`): they ring until stopped or snoozed,
/// and the one ringing is kept here (`ringing`) for "stop" and "snooze". An alarm that repeats
/// on weekdays is planned again for the next weekday as it comes due.
///
/// The file is written with `AtomicFile` (under its lock) from this object's memory: one
/// process, the running speaker, owns the timers; another process's copy is not merged in.
///
/// Times come from `clock`, so file runs can follow their audio. Thread-safe.
public final class PlannedAnswers: Sendable {
    /// What an entry is, for the voice ("what alarms are set") and the web page.
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A countdown, or a planned answer from SUSI.
        case timer
        /// Rings at a clock time until stopped or snoozed.
        case alarm
        /// Says its text at its time.
        case reminder
    }

    /// How an alarm repeats.
    public enum Repeat: String, Codable, Sendable {
        /// Monday to Friday.
        case weekdays
    }

    /// One answer waiting for its time.
    public struct Entry: Codable, Sendable, Equatable {
        /// What to say when it is due.
        public var text: String
        /// When it is due.
        public var due: Date
        /// When it was set, for "your 5 minute timer".
        public var created: Date
        /// Nil in files written before alarms and reminders existed: a timer.
        var storedKind: Kind?
        /// How it repeats (alarms only); nil: once.
        public var repeats: Repeat?
        /// The clock time it was set for ("7:00"), for alarms and reminders at a time: what
        /// "what alarms are set" says, and the time a repeating alarm comes back to.
        public var hour: Int?
        public var minute: Int?

        /// What it is.
        public var kind: Kind { storedKind ?? .timer }

        /// An entry of `kind`; `hour` and `minute` name the clock time it was set for, if any.
        public init(
            text: String, due: Date, created: Date, kind: Kind = .timer, repeats: Repeat? = nil, hour: Int? = nil,
            minute: Int? = nil
        ) {
            self.text = text
            self.due = due
            self.created = created
            self.storedKind = kind == .timer ? nil : kind
            self.repeats = repeats
            self.hour = hour
            self.minute = minute
        }

        enum CodingKeys: String, CodingKey {
            case text, due, created, repeats, hour, minute
            case storedKind = "kind"
        }

        /// The clock time it was set for as said: "7 AM", "6:30 PM"; nil without one.
        public var spokenTime: String? {
            guard let hour, let minute else { return nil }
            return PlannedAnswers.spoken(hour: hour, minute: minute)
        }

        /// A name for this entry that stays the same while it waits (its times in
        /// milliseconds), for the web page's cancel buttons.
        public var id: String {
            "\(Int64((due.timeIntervalSince1970 * 1000).rounded()))-\(Int64((created.timeIntervalSince1970 * 1000).rounded()))"
        }
    }

    private struct Book {
        /// Still to come, soonest first.
        var entries: [Entry]
        /// Entries that came due while the speaker was off, to be announced late, once.
        var missed: [Entry]
        /// The alarm ringing now (taken by `takeDueAlarm`), until stopped or snoozed.
        var ringing: Entry?
    }

    private let path: String
    private let clock: @Sendable () -> Date
    /// Held while the file is written too, so saves happen in the order of the changes.
    private let book: Mutex<Book>

    /// Reads the clock times of repeating alarms; made only when one is planned again (a
    /// calendar loads ICU, which the speaker keeps out of its start).
    private let calendar: @Sendable () -> Calendar

    /// Loads the state file (a missing or unreadable one means no entries). Alarms that
    /// repeat and came due while the speaker was off are planned for their next day (and
    /// announced late once, as the rest). `calendar` reads repeating alarms' clock times.
    public init(
        path: String, clock: @escaping @Sendable () -> Date = Date.init,
        calendar: @escaping @Sendable () -> Calendar = { Calendar.current }
    ) {
        self.path = path
        self.clock = clock
        self.calendar = calendar
        var loaded: [Entry] = []
        if let data = FileManager.default.contents(atPath: path) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            loaded = (try? decoder.decode([Entry].self, from: data)) ?? []
        }
        let now = clock()
        let missed = loaded.filter { $0.due <= now }
        let again = missed.compactMap { Self.nextOccurrence(of: $0, after: now, in: calendar) }
        book = Mutex(
            Book(
                entries: (loaded.filter { $0.due > now } + again).sorted { $0.due < $1.due }, missed: missed, ringing: nil))
    }

    /// Plans `text` for `delayMs` milliseconds from now; returns the entry made.
    @discardableResult
    public func add(_ text: String, inMilliseconds delayMs: Int, kind: Kind = .timer) throws(ConfigError) -> Entry {
        let now = clock()
        let entry = Entry(text: text, due: now.addingTimeInterval(Double(delayMs) / 1000), created: now, kind: kind)
        try change { $0.append(entry) }
        return entry
    }

    /// Plans `text` for `date`.
    public func add(_ text: String, at date: Date) throws(ConfigError) {
        let now = clock()
        try change { $0.append(Entry(text: text, due: date, created: now)) }
    }

    /// Plans `text` for the next time `calendar`'s clock shows `time` (its hour, minute and
    /// second): later today, or tomorrow once that time has passed; with `repeats`
    /// `.weekdays`, the next such time on a Monday to Friday, and again every weekday after.
    /// Returns the entry made; nil when no day has that time (nothing is planned then).
    @discardableResult
    public func add(
        _ text: String, atNext time: DateComponents, in calendar: Calendar, kind: Kind = .timer, repeats: Repeat? = nil
    ) throws(ConfigError) -> Entry? {
        let now = clock()
        let template = Entry(
            text: text, due: now, created: now, kind: kind, repeats: repeats, hour: time.hour, minute: time.minute)
        guard let due = Self.nextDue(of: template, after: now, in: calendar, second: time.second ?? 0) else { return nil }
        var entry = template
        entry.due = due
        try change { $0.append(entry) }
        return entry
    }

    /// The time now, by this book's clock (a file run's follows its audio).
    public var now: Date { clock() }

    /// What is still to come, soonest first.
    public var pending: [Entry] { book.withLock { $0.entries } }

    /// What is still to come of `kind`, soonest first.
    public func pending(_ kind: Kind) -> [Entry] { pending.filter { $0.kind == kind } }

    /// Cancels the entry of `kind` due soonest; returns it, or nil when none was pending.
    @discardableResult
    public func cancelNext(_ kind: Kind = .timer) throws(ConfigError) -> Entry? {
        var cancelled: Entry?
        try change { entries in
            guard let index = entries.firstIndex(where: { $0.kind == kind }) else { return }
            cancelled = entries.remove(at: index)
        }
        return cancelled
    }

    /// Cancels every pending entry of `kind` that `matching` accepts; returns them, soonest
    /// first.
    @discardableResult
    public func cancelAll(_ kind: Kind, matching: (Entry) -> Bool = { _ in true }) throws(ConfigError) -> [Entry] {
        var cancelled: [Entry] = []
        try change { entries in
            cancelled = entries.filter { $0.kind == kind && matching($0) }
            entries.removeAll { $0.kind == kind && matching($0) }
        }
        return cancelled
    }

    /// Cancels the pending entry whose `id` is `id`; returns it, or nil when none is pending
    /// (it came due, or was cancelled already).
    @discardableResult
    public func cancel(id: String) throws(ConfigError) -> Entry? {
        var cancelled: Entry?
        try change { entries in
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
            cancelled = entries.remove(at: index)
        }
        return cancelled
    }

    /// Takes the timers and reminders that are due now (and everything missed while the
    /// speaker was off, once), removing them from the file; the texts to say, in order. Due
    /// alarms stay for `takeDueAlarm`.
    public func takeDue() throws(ConfigError) -> [String] {
        let now = clock()
        var texts: [String] = []
        let late = book.withLock { book -> [Entry] in
            defer { book.missed = [] }
            return book.missed
        }
        texts += late.map { "While I was off, this came due: \($0.text)" }
        let isDue = { (entry: Entry) in entry.due <= now && entry.kind != .alarm }
        guard book.withLock({ $0.entries.contains(where: isDue) }) || !late.isEmpty else { return texts }
        try change { entries in
            texts += entries.filter(isDue).map(\.text)
            entries.removeAll(where: isDue)
        }
        return texts
    }

    /// Takes the alarm that is due now, if any, and makes it the one ringing; a repeating one
    /// is planned again for its next day, saved before it rings. Alarms due at the same time
    /// ring as one.
    public func takeDueAlarm() throws(ConfigError) -> Entry? {
        let now = clock()
        let isDue = { (entry: Entry) in entry.due <= now && entry.kind == .alarm }
        guard book.withLock({ $0.entries.contains(where: isDue) }) else { return nil }
        var rung: Entry?
        let calendar = self.calendar
        try change { entries in
            let due = entries.filter(isDue)
            rung = due.first
            entries.removeAll(where: isDue)
            entries += due.compactMap { Self.nextOccurrence(of: $0, after: now, in: calendar) }
        }
        book.withLock { $0.ringing = rung }
        return rung
    }

    /// The alarm ringing now (or whose ringing was cut by the wake word), until it is stopped
    /// or snoozed.
    public var ringing: Entry? { book.withLock { $0.ringing } }

    /// Ends the ringing; returns the alarm that rang, nil when none did.
    @discardableResult
    public func stopRinging() -> Entry? {
        book.withLock { book in
            defer { book.ringing = nil }
            return book.ringing
        }
    }

    /// Ends the ringing and plans the alarm to ring again, once, in `minutes` (a weekday
    /// alarm's next day stays planned too); returns the entry made, nil when no alarm was ringing.
    @discardableResult
    public func snooze(minutes: Int) throws(ConfigError) -> Entry? {
        guard let alarm = stopRinging() else { return nil }
        let now = clock()
        // No clock time: "what alarms are set" says when it rings again, not the time it was set for.
        let entry = Entry(text: alarm.text, due: now.addingTimeInterval(Double(minutes) * 60), created: now, kind: .alarm)
        try change { $0.append(entry) }
        return entry
    }

    /// What "what timers are running" (or alarms, or reminders) answers.
    public func describe(_ kind: Kind = .timer) -> String {
        let now = clock()
        let list = pending(kind)
        switch kind {
        case .timer:
            guard !list.isEmpty else { return "No timers are running." }
            let parts = list.map { "due in \(Self.spoken(seconds: Int($0.due.timeIntervalSince(now).rounded())))" }
            let lead = list.count == 1 ? "One timer is running, " : "\(list.count) timers are running: "
            return lead + parts.joined(separator: ", ") + "."
        case .alarm:
            guard !list.isEmpty else { return "No alarms are set." }
            let parts = list.map { entry in
                let time = entry.spokenTime ?? "in \(Self.spoken(seconds: Int(entry.due.timeIntervalSince(now).rounded())))"
                return entry.repeats == .weekdays ? "\(time) on weekdays" : time
            }
            let lead = list.count == 1 ? "One alarm is set, for " : "\(list.count) alarms are set: "
            return lead + parts.joined(separator: ", ") + "."
        case .reminder:
            guard !list.isEmpty else { return "You have no reminders." }
            let parts = list.map { entry in
                let when =
                    entry.spokenTime.map { "at \($0)" }
                    ?? "in \(Self.spoken(seconds: Int(entry.due.timeIntervalSince(now).rounded())))"
                return "\(Self.reminderSubject(entry.text)) \(when)"
            }
            let lead = list.count == 1 ? "One reminder: " : "\(list.count) reminders: "
            return lead + parts.joined(separator: "; ") + "."
        }
    }

    /// What a reminder's text is about: "Reminder: call your mom." gives "call your mom".
    static func reminderSubject(_ text: String) -> String {
        var subject = text
        if subject.hasPrefix(reminderLead) { subject.removeFirst(reminderLead.count) }
        while subject.hasSuffix(".") { subject.removeLast() }
        return subject
    }

    /// How a reminder's text begins.
    public static let reminderLead = "Reminder: "

    /// "7 AM", "6:30 PM", "12 PM" (noon), "12:15 AM".
    public static func spoken(hour: Int, minute: Int) -> String {
        let half = hour < 12 ? "AM" : "PM"
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return minute == 0 ? "\(twelve) \(half)" : "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(half)"
    }

    /// When `entry` is due next after `now` on its clock time: any day, or with `.weekdays`
    /// the next Monday to Friday; nil without a clock time, or when no day has it.
    static func nextDue(of entry: Entry, after now: Date, in calendar: Calendar, second: Int = 0) -> Date? {
        guard let hour = entry.hour else { return nil }
        let time = DateComponents(hour: hour, minute: entry.minute ?? 0, second: second)
        var after = now
        // Eight tries reach a weekday from any day, with a day lost to a clock change.
        for _ in 0..<8 {
            guard let due = calendar.nextDate(after: after, matching: time, matchingPolicy: .nextTime) else { return nil }
            let weekday = calendar.component(.weekday, from: due)
            if entry.repeats != .weekdays || (2...6).contains(weekday) { return due }
            after = due
        }
        return nil
    }

    /// The next time a repeating entry comes due after `now`; nil for one that does not repeat.
    private static func nextOccurrence(of entry: Entry, after now: Date, in calendar: () -> Calendar) -> Entry? {
        guard entry.repeats != nil, let due = nextDue(of: entry, after: now, in: calendar()) else { return nil }
        var next = entry
        next.due = due
        return next
    }

    /// "2 minutes and 5 seconds".
    public static func spoken(seconds: Int) -> String {
        let seconds = max(0, seconds)
        var parts: [String] = []
        let hours = seconds / 3600, minutes = seconds % 3600 / 60, rest = seconds % 60
        if hours > 0 { parts.append("\(hours) hour\(hours == 1 ? "" : "s")") }
        if minutes > 0 { parts.append("\(minutes) minute\(minutes == 1 ? "" : "s")") }
        if rest > 0 || parts.isEmpty { parts.append("\(rest) second\(rest == 1 ? "" : "s")") }
        return parts.joined(separator: " and ")
    }

    /// Applies `body` to the entries and saves them; nothing changes when saving fails.
    private func change(_ body: (inout [Entry]) -> Void) throws(ConfigError) {
        try book.withLock { (book: inout Book) throws(ConfigError) in
            var updated = book.entries
            body(&updated)
            updated.sort { $0.due < $1.due }
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = (try? encoder.encode(updated + book.missed)) ?? Data("[]".utf8)
            try AtomicFile.write(data, to: path)
            book.entries = updated
        }
    }
}
