import SusiNet
import Synchronization

/// A `ProbeScheduler` that runs nothing by itself: the test runs the waiting checks with
/// `fire()`, on its own thread, so back-off tests need no clock and no sleeping.
public final class ManualProbeScheduler: ProbeScheduler, Sendable {
    private let state = Mutex<(delays: [Duration], waiting: [@Sendable () -> Void])>(([], []))

    /// A scheduler with nothing waiting.
    public init() {}

    /// Every delay asked for, in order.
    public var delays: [Duration] { state.withLock { $0.delays } }

    /// How many checks wait to be fired.
    public var waiting: Int { state.withLock { $0.waiting.count } }

    /// Keeps `work` until `fire()`; `delay` is recorded.
    public func run(after delay: Duration, _ work: @escaping @Sendable () -> Void) {
        state.withLock {
            $0.delays.append(delay)
            $0.waiting.append(work)
        }
    }

    /// Runs the checks waiting now on the calling thread (those they schedule wait for the next
    /// call); how many ran.
    @discardableResult
    public func fire() -> Int {
        let due = state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }
        due.forEach { $0() }
        return due.count
    }
}
