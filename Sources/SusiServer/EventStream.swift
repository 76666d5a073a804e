import Foundation
import Synchronization

/// One open stream of Server-Sent Events (`text/event-stream`), written by the application
/// from any thread and read by the server's connection thread.
///
/// Writing never blocks: events wait in a bounded queue (the oldest are dropped when a slow
/// client lets `capacity` pile up). The stream ends when the application closes it, the
/// client leaves (the server checks every quarter second) or the server stops; `whenClosed`
/// actions then run once, so a subscription feeding the stream can be cancelled.
public final class EventStream: Sendable {
    private struct State {
        /// Whole events not yet handed to the server, oldest first.
        var queued: [Data] = []
        /// The part of an event the server has not taken yet.
        var partial = Data()
        var closed = false
        var onClose: [@Sendable () -> Void] = []
    }

    /// How many events may wait for a slow client before the oldest are dropped.
    public let capacity: Int
    private let state = Mutex(State())
    /// Signalled on every write and on close; the reader waits on it between events.
    private let signal = DispatchSemaphore(value: 0)

    /// An open stream. Browsers reconnect `retryMilliseconds` after the stream breaks.
    public init(capacity: Int = 256, retryMilliseconds: Int = 3000) {
        self.capacity = max(capacity, 1)
        state.withLock { $0.queued.append(Data("retry: \(retryMilliseconds)\n\n".utf8)) }
    }

    /// Whether the stream has ended.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Queues one event: `event` names it (the browser's `addEventListener(event)`), `data`
    /// is its text; a multi-line text is sent as several `data:` lines, as SSE requires.
    /// Nothing happens once the stream is closed.
    public func send(event: String? = nil, data: String) {
        var text = ""
        if let event { text += "event: \(Self.oneLine(event))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line.replacingOccurrences(of: "\r", with: ""))\n"
        }
        text += "\n"
        let queued = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.queued.append(Data(text.utf8))
            if state.queued.count > capacity { state.queued.removeFirst(state.queued.count - capacity) }
            return true
        }
        if queued { signal.signal() }
    }

    /// Ends the stream (idempotent): the server finishes the reply and `whenClosed` actions run.
    public func close() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.onClose = [] }
            return state.onClose
        }
        signal.signal()
        for action in actions { action() }
    }

    /// Runs `action` once when the stream closes; at once when it is closed already.
    public func whenClosed(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.closed else { return true }
            state.onClose.append(action)
            return false
        }
        if runNow { action() }
    }

    /// For the server: up to `limit` bytes to send next, waiting up to `heartbeat` seconds
    /// for an event (a comment line is sent when none comes, so proxies keep the stream open);
    /// nil once the stream is closed, or once `clientGone`, asked every `checkInterval` seconds
    /// while waiting, says the client has left (so its slot frees without waiting for a write
    /// to fail).
    func read(
        limit: Int, heartbeat: Double, checkInterval: Double = .infinity, clientGone: () -> Bool = { false }
    ) -> Data? {
        let limit = max(limit, 1)
        if let ready = take(limit: limit) { return ready.isEmpty ? nil : ready }
        let deadline = ContinuousClock.now + .seconds(heartbeat)
        while true {
            let left = ContinuousClock.now.duration(to: deadline) / .seconds(1)
            guard left > 0 else { break }
            _ = signal.wait(timeout: .now() + min(left, max(checkInterval, 0.01)))
            if let ready = take(limit: limit) { return ready.isEmpty ? nil : ready }
            if clientGone() { return nil }
        }
        return Data(":\n\n".utf8).prefix(limit)
    }

    /// The next bytes, empty data when closed, nil when nothing is waiting.
    private func take(limit: Int) -> Data? {
        state.withLock { state -> Data? in
            if state.partial.isEmpty, !state.queued.isEmpty { state.partial = state.queued.removeFirst() }
            if !state.partial.isEmpty {
                let chunk = state.partial.prefix(limit)
                state.partial = Data(state.partial.dropFirst(chunk.count))
                return Data(chunk)
            }
            return state.closed ? Data() : nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.filter { $0 != "\n" && $0 != "\r" }
    }
}
