import Foundation
import Synchronization

/// A SUSI server on 127.0.0.1 that hangs: it accepts every connection and reads the request, and
/// while `hangs` never answers it (the connection is held open until `stop`); otherwise it
/// answers `reply` as JSON and closes. It counts the requests it read.
///
/// One helper thread serves; it ends on `stop()` (or deinit) and at the latest after `lifetime`
/// seconds, so a failing test cannot leave it behind.
public final class HangingServer: Sendable {
    /// The port it listens on.
    public let port: UInt16
    /// The listening socket; only the helper thread accepts on it, `stop` closes it after the
    /// thread has ended.
    private let listener: Int32
    private let state: Mutex<State>
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var hangs = true
        var reply: String
        var targets: [String] = []
        var held: [Int32] = []
        var stopped = false
    }

    /// Listens on a free loopback port and starts hanging.
    public init(reply: String, lifetime: Double = 60) throws {
        (listener, port) = try loopbackSocket(listenBacklog: 16)
        state = Mutex(State(reply: reply))
        let deadline = Date().addingTimeInterval(lifetime)
        let thread = Thread { [self] in
            serve(until: deadline)
            finished.signal()
        }
        thread.name = "hanging-server"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`.
    public var base: String { "http://127.0.0.1:\(port)" }

    /// The request targets read so far (`/susi/chat.json?q=...`), in order.
    public var targets: [String] { state.withLock { $0.targets } }

    /// How many requests it has read.
    public var requests: Int { state.withLock { $0.targets.count } }

    /// From now on requests get `reply` (those already held stay unanswered).
    public func answer() {
        state.withLock { $0.hangs = false }
    }

    /// From now on requests are held unanswered again.
    public func hang() {
        state.withLock { $0.hangs = true }
    }

    /// Ends the helper thread (within 100 ms) and closes every socket. Idempotent.
    public func stop() {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        _ = finished.wait(timeout: .now() + 5)
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        held.forEach { close($0) }
        close(listener)
    }

    private func serve(until deadline: Date) {
        while Date() < deadline, !state.withLock({ $0.stopped }) {
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) == 1 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            guard let target = Self.requestTarget(client) else {
                close(client)
                continue
            }
            let reply = state.withLock { state -> String? in
                state.targets.append(target)
                if state.hangs {
                    state.held.append(client)
                    return nil
                }
                return state.reply
            }
            guard let reply else { continue }
            let bytes = Array(
                ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(reply.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n" + reply).utf8)
            _ = send(client, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            close(client)
        }
    }

    /// The target of the request line; the whole head is read (within a second), so closing
    /// after the reply leaves nothing unread that would reset the connection. Nil when none came.
    private static func requestTarget(_ client: Int32) -> String? {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while received.count < 16 * 1024, !received.ends(with: end) {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            received += buffer[0..<count]
        }
        guard let line = String(decoding: received, as: UTF8.self).split(separator: "\r\n").first else {
            return nil
        }
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
