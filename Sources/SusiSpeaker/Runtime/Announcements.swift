import Synchronization

/// Words for the speaker to say at its next chance: a stream that failed, the control API's
/// `/say`. Thread-safe.
public final class Announcements: Sendable {
    private let queue = Mutex<[String]>([])

    /// An empty queue.
    public init() {}

    /// Queues `text`.
    public func add(_ text: String) {
        queue.withLock { $0.append(text) }
    }

    /// Everything queued, oldest first; the queue is empty afterwards.
    public func take() -> [String] {
        queue.withLock { queue in
            defer { queue = [] }
            return queue
        }
    }
}
