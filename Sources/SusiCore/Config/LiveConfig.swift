import Foundation

/// The config of a running daemon: re-read when the file changes, the last good one kept
/// when an edit is invalid.
///
/// `current` looks at the file's modification time at most once per `interval`, so a
/// change is picked up within about that long. Thread-safe.
public final class LiveConfig: @unchecked Sendable {
    // @unchecked: every mutable field is only touched while holding `lock`.
    private let lock = NSLock()
    private let store: ConfigStore
    private let interval: TimeInterval
    private let onInvalid: @Sendable (ConfigError) -> Void
    private var config: Config
    private var lastCheck = Date.distantPast
    private var lastModified: Date?

    /// Loads the config now; `onInvalid` hears about each invalid edit once.
    public init(store: ConfigStore, interval: TimeInterval = 1, onInvalid: @escaping @Sendable (ConfigError) -> Void) throws(ConfigError) {
        self.store = store
        self.interval = interval
        self.onInvalid = onInvalid
        config = try store.load()
        lastModified = Self.modified(store.path)
        lastCheck = Date()
    }

    /// The config in force.
    public var current: Config {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastCheck) >= interval else { return config }
        lastCheck = now
        let modified = Self.modified(store.path)
        guard modified != lastModified else { return config }
        lastModified = modified
        do {
            config = try store.validate()
        } catch {
            onInvalid(error)
        }
        return config
    }

    /// Changes one key through the store (validated, saved) and makes it current at once.
    public func set(_ key: String, to value: String) throws(ConfigError) {
        lock.lock()
        defer { lock.unlock() }
        config = try store.set(key, to: value)
        lastModified = Self.modified(store.path)
    }

    private static func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}
