import Synchronization

/// A one-way switch that aborts a running transfer with `http-cancelled`.
///
/// Safe to share between threads: `cancel()` may be called from anywhere, the client polls
/// it from its progress callback (at least once a second, more often while data flows).
public final class HTTPCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A switch that is not yet cancelled.
    public init() {}

    /// Asks the transfer to stop as soon as possible. Idempotent.
    public func cancel() {
        flag.store(true, ordering: .releasing)
    }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool {
        flag.load(ordering: .acquiring)
    }
}
