import Synchronization

/// Hands every event to whoever subscribed at the time: the web page's live view (one
/// subscription per open page). Subscribers come and go while the pipeline runs.
///
/// Receivers are called on the emitting thread, outside the lock, and must return at once
/// (queue the event, never wait). Thread-safe.
public final class EventBroadcaster: EventSink {
    private struct State {
        var next = 0
        var receivers: [Int: @Sendable (PipelineEvent) -> Void] = [:]
    }

    private let state = Mutex(State())

    /// A broadcaster with no subscribers.
    public init() {}

    /// Calls `receive` with every event from now until the subscription is cancelled.
    public func subscribe(_ receive: @escaping @Sendable (PipelineEvent) -> Void) -> Subscription {
        let id = state.withLock { state in
            defer { state.next += 1 }
            state.receivers[state.next] = receive
            return state.next
        }
        return Subscription { [weak self] in self?.remove(id) }
    }

    /// How many subscriptions are open.
    public var subscriberCount: Int { state.withLock { $0.receivers.count } }

    public func emit(_ event: PipelineEvent) {
        let receivers = state.withLock { Array($0.receivers.values) }
        for receive in receivers { receive(event) }
    }

    private func remove(_ id: Int) {
        _ = state.withLock { $0.receivers.removeValue(forKey: id) }
    }

    /// An open subscription; `cancel()` ends it (later calls do nothing).
    public final class Subscription: Sendable {
        private let cancelling: Mutex<(@Sendable () -> Void)?>

        init(_ cancel: @escaping @Sendable () -> Void) {
            cancelling = Mutex(cancel)
        }

        /// Stops the events; safe from any thread, more than once.
        public func cancel() {
            let action = cancelling.withLock { current -> (@Sendable () -> Void)? in
                defer { current = nil }
                return current
            }
            action?()
        }
    }
}
