import Foundation
import Synchronization

/// Answers to say later (timers, SUSI's planned answers), kept in a state file so a restart
/// loses none.
///
/// The file is written with `AtomicFile` (under its lock) from this object's memory: one
/// process, the running speaker, owns the timers; another process's copy is not merged in.
///
/// Times come from `clock`, so file runs can follow their audio. Thread-safe.
public final class PlannedAnswers: Sendable {
    /// One answer waiting for its time.
    public struct Entry: Codable, Sendable, Equatable {
        /// What to say when it is due.
        public var text: String
        /// When it is due.
        public var due: Date
        /// When it was set, for "your 5 minute timer".
        public var created: Date

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
    }

    private let path: String
    private let clock: @Sendable () -> Date
    /// Held while the file is written too, so saves happen in the order of the changes.
    private let book: Mutex<Book>

    /// Loads the state file (a missing or unreadable one means no entries; the latter is
    /// reported by `loadProblem`).
    public init(path: String, clock: @escaping @Sendable () -> Date = Date.init) {
        self.path = path
        self.clock = clock
        var loaded: [Entry] = []
        if let data = FileManager.default.contents(atPath: path) {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            loaded = (try? decoder.decode([Entry].self, from: data)) ?? []
        }
        let now = clock()
        book = Mutex(
            Book(
                entries: loaded.filter { $0.due > now }.sorted { $0.due < $1.due }, missed: loaded.filter { $0.due <= now }))
    }

    /// Plans `text` for `delayMs` milliseconds from now.
    public func add(_ text: String, inMilliseconds delayMs: Int) throws(ConfigError) {
        let now = clock()
        try change { $0.append(Entry(text: text, due: now.addingTimeInterval(Double(delayMs) / 1000), created: now)) }
    }

    /// Plans `text` for `date`.
    public func add(_ text: String, at date: Date) throws(ConfigError) {
        let now = clock()
        try change { $0.append(Entry(text: text, due: date, created: now)) }
    }

    /// Plans `text` for the next time `calendar`'s clock shows `time` (its hour, minute and
    /// second): later today, or tomorrow once that time has passed. Returns the entry made;
    /// nil when no day has that time (nothing is planned then).
    @discardableResult
    public func add(_ text: String, atNext time: DateComponents, in calendar: Calendar) throws(ConfigError) -> Entry? {
        let now = clock()
        guard let due = calendar.nextDate(after: now, matching: time, matchingPolicy: .nextTime) else { return nil }
        let entry = Entry(text: text, due: due, created: now)
        try change { $0.append(entry) }
        return entry
    }

    /// What is still to come, soonest first.
    public var pending: [Entry] { book.withLock { $0.entries } }

    /// Cancels the entry due soonest; returns it, or nil when none was pending.
    @discardableResult
    public func cancelNext() throws(ConfigError) -> Entry? {
        var cancelled: Entry?
        try change { entries in
            guard !entries.isEmpty else { return }
            cancelled = entries.removeFirst()
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

    /// Takes the entries that are due now (and those missed while the speaker was off, once),
    /// removing them from the file; the texts to say, in order.
    public func takeDue() throws(ConfigError) -> [String] {
        let now = clock()
        var texts: [String] = []
        let late = book.withLock { book -> [Entry] in
            defer { book.missed = [] }
            return book.missed
        }
        texts += late.map { "While I was off, this came due: \($0.text)" }
        guard book.withLock({ $0.entries.first.map { $0.due <= now } ?? false }) || !late.isEmpty else { return texts }
        try change { entries in
            texts += entries.filter { $0.due <= now }.map(\.text)
            entries.removeAll { $0.due <= now }
        }
        return texts
    }

    /// What "what timers are running" answers.
    public func describe() -> String {
        let now = clock()
        let list = pending
        guard !list.isEmpty else { return "No timers are running." }
        let parts = list.map { "due in \(Self.spoken(seconds: Int($0.due.timeIntervalSince(now).rounded())))" }
        let lead = list.count == 1 ? "One timer is running, " : "\(list.count) timers are running: "
        return lead + parts.joined(separator: ", ") + "."
    }

    /// "2 minutes and 5 seconds".
    static func spoken(seconds: Int) -> String {
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
