import Foundation
import Synchronization

/// The owner's named lists ("shopping", "to-do"), kept in a state file so a restart loses
/// none: items added, read, removed and cleared by voice and on the web page.
///
/// A list's name is kept as `name(_:)` gives it ("to do list" and "todo" are "to-do"); items
/// keep their words and order, and an item already on the list is not added twice
/// (case-insensitively). A list that becomes empty is dropped.
///
/// The file is written with `AtomicFile` from this object's memory, as `PlannedAnswers` does:
/// the running speaker owns it, and `susi setup serve` reads it when the speaker does not run.
/// Thread-safe.
public final class NamedLists: Sendable {
    /// What changing a list did.
    public enum Change: Sendable, Equatable {
        /// The item was added, or removed.
        case done
        /// Adding: it was on the list already. Removing: it was not on it.
        case unchanged
    }

    private let path: String
    /// Name to items; held while the file is written, so saves happen in the order of the changes.
    private let lists: Mutex<[String: [String]]>

    /// Loads the state file (a missing or unreadable one means no lists).
    public init(path: String) {
        self.path = path
        var loaded: [String: [String]] = [:]
        if let data = FileManager.default.contents(atPath: path),
            let decoded = try? JSONDecoder().decode([String: [String]].self, from: data)
        {
            loaded = decoded.filter { !$0.value.isEmpty }
        }
        lists = Mutex(loaded)
    }

    /// The name a list is kept under: lower-case words without "list" and "my", "to do" and
    /// "todo" as "to-do", "groceries" as "shopping"; empty for no name.
    public static func name(_ spoken: String) -> String {
        let words = spoken.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
            .filter { !["my", "the", "list", "lists", "a", "our"].contains($0) }
        let joined = words.joined(separator: " ")
        switch joined {
        case "to do", "todo", "to-do", "to dos", "todos", "things to do": return "to-do"
        case "grocery", "groceries", "grocery shopping", "shopping": return "shopping"
        default: return joined
        }
    }

    /// Every list's name, in alphabetical order.
    public var names: [String] { lists.withLock { $0.keys.sorted() } }

    /// The items of list `name` (as `name(_:)` keeps it), oldest first; empty when there is none.
    public func items(_ name: String) -> [String] { lists.withLock { $0[name] ?? [] } }

    /// Adds `item` to list `name`, unless it is on it already.
    @discardableResult
    public func add(_ item: String, to name: String) throws(ConfigError) -> Change {
        let item = Self.cleaned(item)
        return try change(name) { items in
            guard !item.isEmpty, !items.contains(where: { $0.caseInsensitiveCompare(item) == .orderedSame }) else {
                return .unchanged
            }
            items.append(item)
            return .done
        }
    }

    /// Removes `item` from list `name` (case-insensitively, a plural or singular form too:
    /// "eggs" removes "egg").
    @discardableResult
    public func remove(_ item: String, from name: String) throws(ConfigError) -> Change {
        let item = Self.cleaned(item)
        return try change(name) { items in
            let forms = Set([item.lowercased(), item.lowercased() + "s", String(item.lowercased().dropLast())])
            guard let index = items.firstIndex(where: { forms.contains($0.lowercased()) }) else { return .unchanged }
            items.remove(at: index)
            return .done
        }
    }

    /// Empties list `name`; returns how many items it held.
    @discardableResult
    public func clear(_ name: String) throws(ConfigError) -> Int {
        var count = 0
        _ = try change(name) { items in
            count = items.count
            items = []
            return count == 0 ? .unchanged : .done
        }
        return count
    }

    /// An item as kept: single spaces, no edge punctuation.
    static func cleaned(_ item: String) -> String {
        item.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespaces))
    }

    /// Applies `body` to list `name` and saves the lists when it changed anything; nothing
    /// changes when saving fails.
    private func change(_ name: String, _ body: (inout [String]) -> Change) throws(ConfigError) -> Change {
        try lists.withLock { (lists: inout [String: [String]]) throws(ConfigError) -> Change in
            var updated = lists
            var items = updated[name] ?? []
            let result = body(&items)
            guard result == .done else { return result }
            updated[name] = items.isEmpty ? nil : items
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = (try? encoder.encode(updated)) ?? Data("{}".utf8)
            try AtomicFile.write(data, to: path)
            lists = updated
            return result
        }
    }
}
