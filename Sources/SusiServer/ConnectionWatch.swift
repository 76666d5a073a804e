import Foundation
import Synchronization

/// The server's open connections with the deadline of the request each is receiving: the
/// absolute limit against slowloris clients, which send a byte now and then so the idle
/// timeout never fires.
///
/// Slots are kept for new clients too: when a new connection leaves fewer than `reserve` of
/// the server's `capacity` free, the connection that has waited longest for its request to
/// arrive is shed, so clients that trickle in from many addresses cannot hold every slot
/// until the deadline. A connection whose handler runs is never shed.
///
/// Each connection's socket is kept as a duplicate descriptor, so the watchdog can shut down a
/// late one (`shutdown(2)` acts on the socket; libmicrohttpd then sees the client gone and
/// closes it) without ever touching a descriptor number the server has closed and reused. The
/// duplicate is closed when the connection is. Safe to use from every server thread.
final class ConnectionWatch: Sendable {
    /// Seconds a request may take to arrive; 0 turns the deadline off.
    let deadlineSeconds: Int
    /// The server's connection limit; 0 means none (nothing is shed).
    let capacity: Int
    /// Slots kept free for new clients by shedding the slowest.
    let reserve: Int
    private let connections = Mutex<[UInt: Connection]>([:])
    private let onExpired: @Sendable (_ address: String) -> Void
    private let wake = DispatchSemaphore(value: 0)
    private let running = Mutex(false)
    private let stopped = DispatchSemaphore(value: 0)

    private struct Connection {
        /// Our duplicate of the socket, or -1 when none could be made.
        let socket: Int32
        let address: String
        /// When the request being received must be complete; nil while a handler runs.
        var deadline: ContinuousClock.Instant?
        /// Set once the connection was cut (late or shed), so it is not cut twice.
        var isCut = false
        /// The thread receiving the current request (libmicrohttpd gives each connection its
        /// own), so a diagnostic it logs can be tied to the connection; nil before the first.
        var thread: pthread_t?
        /// When the current wait for a request began (connection start or last reply).
        var since: ContinuousClock.Instant = .now
    }

    /// A watch with `deadlineSeconds` keeping `reserve` of `capacity` slots free; `onCut` is told
    /// each connection closed for being late (`shed` false) or to make room (`shed` true).
    init(
        deadlineSeconds: Int, capacity: Int = 0, reserve: Int = 0,
        onCut: @escaping @Sendable (_ address: String, _ shed: Bool) -> Void
    ) {
        self.deadlineSeconds = max(deadlineSeconds, 0)
        self.capacity = max(capacity, 0)
        self.reserve = max(min(reserve, capacity - 1), 0)
        self.onExpired = { onCut($0, false) }
        self.onShed = { onCut($0, true) }
    }

    private let onShed: @Sendable (_ address: String) -> Void

    /// A new connection on `socket`, from `address`: its first request's clock starts. When it
    /// leaves fewer than `reserve` slots free, the longest-waiting receiving connection is shed.
    func opened(_ key: UInt, socket: Int32, address: String) {
        let copy = socket >= 0 ? dup(socket) : -1
        if copy >= 0 { _ = fcntl(copy, F_SETFD, FD_CLOEXEC) }
        let (previous, shed) = connections.withLock { connections -> (Connection?, [(Int32, String)]) in
            let previous = connections[key]
            connections[key] = Connection(socket: copy, address: address, deadline: nextDeadline(), since: .now)
            return (previous, shedForRoom(&connections, keeping: key))
        }
        if let previous, previous.socket >= 0 { close(previous.socket) }
        for (socket, address) in shed {
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            onShed(address)
        }
    }

    /// Marks and returns the connections to cut so that `reserve` slots stay free: those
    /// waiting longest for a request, never `keeping` and never one whose handler runs.
    private func shedForRoom(_ connections: inout [UInt: Connection], keeping: UInt) -> [(Int32, String)] {
        guard capacity > 0, reserve > 0 else { return [] }
        let live = connections.values.filter { !$0.isCut }.count
        let excess = live - (capacity - reserve)
        guard excess > 0 else { return [] }
        let waiting = connections.filter { $0.key != keeping && !$0.value.isCut && $0.value.deadline != nil }
            .sorted { $0.value.since < $1.value.since }
            .prefix(excess)
        return waiting.map { key, connection in
            connections[key]?.isCut = true
            return (connection.socket, connection.address)
        }
    }

    /// The connection is gone.
    func closed(_ key: UInt) {
        let gone = connections.withLock { $0.removeValue(forKey: key) }
        if let gone, gone.socket >= 0 { close(gone.socket) }
    }

    /// A new request line arrived, read by `thread`.
    func requestStarted(_ key: UInt, thread: pthread_t) {
        connections.withLock { $0[key]?.thread = thread }
    }

    /// Sends `reply` on the connection whose request `thread` is reading and shuts it down, so
    /// whatever the server would write after it goes nowhere; false when `thread` reads none.
    @discardableResult
    func answerAndCut(onThread thread: pthread_t, _ reply: [UInt8]) -> Bool {
        let socket = connections.withLock { connections -> Int32? in
            guard let (key, connection) = connections.first(where: { $0.value.thread == thread && !$0.value.isCut }),
                connection.socket >= 0
            else { return nil }
            connections[key]?.isCut = true
            connections[key]?.deadline = nil
            return connection.socket
        }
        guard let socket else { return false }
        _ = reply.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        _ = shutdown(socket, Int32(SHUT_RDWR))
        return true
    }

    /// The whole request is in; its handler's time does not count.
    func received(_ key: UInt) {
        connections.withLock { $0[key]?.deadline = nil }
    }

    /// The reply went out (or the request ended otherwise): the next request's clock starts.
    func replied(_ key: UInt) {
        connections.withLock { connections in
            guard connections[key]?.isCut == false else { return }
            connections[key]?.deadline = nextDeadline()
            connections[key]?.since = .now
        }
    }

    /// How many connections are open.
    var count: Int {
        connections.withLock { $0.count }
    }

    /// Starts the watchdog thread (when there is a deadline); idempotent.
    func start() {
        guard deadlineSeconds > 0 else { return }
        let starting = running.withLock { running -> Bool in
            defer { running = true }
            return !running
        }
        guard starting else { return }
        let thread = Thread { [self] in watch() }
        thread.name = "susi-http-deadline"
        thread.start()
    }

    /// Stops the watchdog thread and waits for it; idempotent.
    func stop() {
        let wasRunning = running.withLock { running -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        wake.signal()
        stopped.wait()
    }

    /// Closes every connection whose request is late; returns the addresses closed.
    @discardableResult
    func expire(now: ContinuousClock.Instant = .now) -> [String] {
        let late = connections.withLock { connections -> [(Int32, String)] in
            var late: [(Int32, String)] = []
            for (key, connection) in connections where !connection.isCut {
                guard let deadline = connection.deadline, deadline <= now else { continue }
                late.append((connection.socket, connection.address))
                connections[key]?.deadline = nil
                connections[key]?.isCut = true
            }
            return late
        }
        for (socket, address) in late {
            if socket >= 0 { _ = shutdown(socket, Int32(SHUT_RDWR)) }
            onExpired(address)
        }
        return late.map(\.1)
    }

    private func nextDeadline() -> ContinuousClock.Instant? {
        deadlineSeconds > 0 ? .now + .seconds(deadlineSeconds) : nil
    }

    private func watch() {
        defer { stopped.signal() }
        while running.withLock({ $0 }) {
            // A quarter second: a late client is cut within that of its deadline.
            _ = wake.wait(timeout: .now() + 0.25)
            expire()
        }
    }
}
