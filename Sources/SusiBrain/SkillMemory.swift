import Synchronization

/// What a skill was told in one conversation: SUSI's `_`-variables, set by `>_name` and
/// `^…^>_name` in answers and read back as `$_name$`.
///
/// One per conversation (a speaker session, a `session`/`client` of `susi brain serve`), held
/// by the caller and passed in `BrainContext.memory`. Bounded: at most `maxValues` names of
/// at most `maxValueLength` characters each; the oldest name goes first when full. Safe from
/// any thread.
public final class SkillMemory: Sendable {
    /// The most names kept.
    public static let maxValues = 64
    /// The longest value kept, in characters; longer values are cut.
    public static let maxValueLength = 500

    private struct State {
        var values: [String: String] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())

    /// An empty memory.
    public init() {}

    /// The value of `name` (with its leading `_`), or nil when never set or set empty.
    public func value(_ name: String) -> String? {
        state.withLock { $0.values[name] }
    }

    /// Stores `value` under `name`; an empty value forgets the name (SUSI's `^^>_name`).
    public func set(_ name: String, _ value: String) {
        state.withLock { state in
            state.order.removeAll { $0 == name }
            guard !value.isEmpty else {
                state.values[name] = nil
                return
            }
            state.values[name] = String(value.prefix(Self.maxValueLength))
            state.order.append(name)
            while state.order.count > Self.maxValues {
                state.values[state.order.removeFirst()] = nil
            }
        }
    }

    /// Forgets everything ("forget what I told you").
    public func clear() {
        state.withLock { $0 = State() }
    }

    /// How many names are held.
    public var count: Int { state.withLock { $0.values.count } }
}

/// The memories of many conversations, by key (a session id, a client address), for servers
/// answering several clients. Bounded to `maxConversations`; the least recently used goes.
public final class SkillMemories: Sendable {
    /// The most conversations kept.
    public let maxConversations: Int

    private struct State {
        var memories: [String: SkillMemory] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())

    /// An empty store keeping at most `maxConversations` (at least 1).
    public init(maxConversations: Int = 256) {
        self.maxConversations = max(1, maxConversations)
    }

    /// The memory of the conversation `key`, created empty on first use.
    public func memory(for key: String) -> SkillMemory {
        state.withLock { state in
            state.order.removeAll { $0 == key }
            state.order.append(key)
            if let existing = state.memories[key] { return existing }
            let created = SkillMemory()
            state.memories[key] = created
            while state.order.count > maxConversations {
                state.memories[state.order.removeFirst()] = nil
            }
            return created
        }
    }
}
