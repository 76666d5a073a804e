import Foundation
import SusiCore
import Synchronization

/// The config of a running daemon: re-read when the file changes, the last good one kept
/// when an edit is invalid, and every change told to its observers.
///
/// `current` looks at the file at most once per `interval`, so an edit is picked up within
/// about that long. The file is read, and `onInvalid` and the observers are called, without
/// holding the state's lock, so a slow disk or a slow observer never blocks another reader.
/// Thread-safe.
public final class LiveConfig: Sendable {
    private struct State {
        var config: Config
        /// What the file looked like when `config` was read from it (or written).
        var stamp: FileStamp?
        var lastCheck: ContinuousClock.Instant
        /// Counts the changes put in force; a file read that started before a change is dropped.
        var generation = 0
        /// Whether a reader is looking at the file now (the others keep the config in force).
        var checking = false
        var observers: [@Sendable (ConfigChange) -> Void] = []
    }

    private let store: ConfigStore
    private let interval: Duration
    private let onInvalid: @Sendable (ConfigError) -> Void
    private let state: Mutex<State>
    /// Held by `set` and `update` for their read, change and save of the file, so two changes
    /// never lose each other; readers never wait for it.
    private let writing = Mutex(())

    /// Loads the config now; `onInvalid` hears about each invalid edit once.
    public init(store: ConfigStore, interval: TimeInterval = 1, onInvalid: @escaping @Sendable (ConfigError) -> Void)
        throws(ConfigError)
    {
        self.store = store
        self.interval = .milliseconds(Int((interval * 1000).rounded()))
        self.onInvalid = onInvalid
        let stamp = FileStamp(path: store.path)
        let config = try store.load()
        state = Mutex(State(config: config, stamp: stamp, lastCheck: .now))
    }

    /// The config in force, after looking at the file if `interval` has passed since the last look.
    public var current: Config {
        refresh()
        return state.withLock { $0.config }
    }

    /// Hears every change put in force from now on (a file edit or `set`), on the thread that
    /// noticed it, after it is in force. Changes noticed on two threads at once may arrive out
    /// of order; `ConfigChange.generation` tells which is newer. Observers are kept for the
    /// life of this object.
    public func observe(_ observer: @escaping @Sendable (ConfigChange) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Changes one key through the store (validated, saved) and makes it current at once.
    @discardableResult
    public func set(_ key: String, to value: String) throws(ConfigError) -> Config {
        try write { () throws(ConfigError) -> Config in try store.set(key, to: value) }
    }

    /// Reads the file, changes it with `change`, saves it and makes it current at once; for
    /// changes of several fields that typed code makes (the setup routes).
    @discardableResult
    public func update(_ change: (inout Config) -> Void) throws(ConfigError) -> Config {
        try write { () throws(ConfigError) -> Config in try store.update(change) }
    }

    /// Runs `save` (a read, change and save of the file) while holding the write mutex, then
    /// puts its config in force and tells the observers.
    private func write(_ save: () throws(ConfigError) -> Config) throws(ConfigError) -> Config {
        let (config, stamp) = try writing.withLock { _ throws(ConfigError) -> (Config, FileStamp?) in
            let config = try save()
            return (config, FileStamp(path: store.path))
        }
        let change = state.withLock { state in
            state.stamp = stamp
            return Self.put(config, in: &state)
        }
        change.map(notify)
        return config
    }

    /// Looks at the file if `interval` has passed, and puts a valid edit in force.
    private func refresh() {
        let look = state.withLock { state -> (generation: Int, stamp: FileStamp?)? in
            let now = ContinuousClock.now
            guard !state.checking, now - state.lastCheck >= interval else { return nil }
            state.lastCheck = now
            state.checking = true
            return (state.generation, state.stamp)
        }
        guard let look else { return }
        let stamp = FileStamp(path: store.path)
        guard stamp != look.stamp else {
            state.withLock { $0.checking = false }
            return
        }
        let read = Result { () throws(ConfigError) -> Config in try store.validate() }
        let change = state.withLock { state -> ConfigChange? in
            state.checking = false
            // A `set` in the meantime wrote the file after this look; its config stands.
            guard state.generation == look.generation else { return nil }
            state.stamp = stamp
            guard case .success(let config) = read else { return nil }
            return Self.put(config, in: &state)
        }
        if case .failure(let error) = read { onInvalid(error) }
        change.map(notify)
    }

    /// Puts `config` in force; the change to tell the observers, nil when nothing differs.
    private static func put(_ config: Config, in state: inout State) -> ConfigChange? {
        guard config != state.config else { return nil }
        state.generation += 1
        defer { state.config = config }
        return ConfigChange(old: state.config, new: config, generation: state.generation)
    }

    private func notify(_ change: ConfigChange) {
        let observers = state.withLock { $0.observers }
        for observer in observers { observer(change) }
    }
}

/// A change of the config in force.
public struct ConfigChange: Sendable {
    /// The config before the change.
    public let old: Config
    /// The config now in force.
    public let new: Config
    /// Counts the changes of one `LiveConfig`: the higher, the newer.
    public let generation: Int

    /// A change from `old` to `new`, the `generation`th of its live config.
    public init(old: Config, new: Config, generation: Int) {
        self.old = old
        self.new = new
        self.generation = generation
    }

    /// The keys whose values differ, in `ConfigSchema.keys` order.
    public var keys: [ConfigKey] { ConfigSchema.changedKeys(from: old, to: new) }

    /// Whether any key whose name starts with one of `prefixes` changed (`"brain."`, `"room"`).
    public func touches(_ prefixes: String...) -> Bool {
        keys.contains { key in prefixes.contains { key.name.hasPrefix($0) } }
    }
}

/// What identifies one version of a file without reading it: a save renames a new file over
/// the old one, so its inode changes even when the modification time does not.
struct FileStamp: Equatable {
    var modified: Date?
    var size: Int?
    var inode: Int?

    /// The file's stamp; nil when it does not exist.
    init?(path: String) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        modified = attributes[.modificationDate] as? Date
        size = (attributes[.size] as? NSNumber)?.intValue
        inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
    }
}
