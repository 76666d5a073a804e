import Foundation
import SusiModel
import Synchronization

/// One JSON IPC session with a running mpv: requests matched to replies by `request_id`, and
/// everything else (events, property changes) handed to `onEvent`.
///
/// A dedicated reader thread owns the socket's receive side. `onEvent` and `onClose` run on
/// that thread, in the order mpv wrote the lines, and must not block on a reply (they would wait
/// for themselves). Requests may come from any thread.
final class MPVConnection: Sendable {
    /// A line from mpv that is not a reply: an `event` object with its fields.
    struct Event: Sendable {
        /// mpv's event name (`end-file`, `property-change`, `file-loaded`, ...).
        let name: String
        /// The whole object, for the event's fields (`reason`, `name`, `data`, ...).
        let fields: [String: JSONValue]
    }

    /// A reply slot one waiting request owns.
    private final class PendingReply: Sendable {
        /// Written by the reader before `done` is signalled, read by the requester after.
        let result = Mutex<Result<JSONValue, PlayerError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let onSuccess: (@Sendable (JSONValue) -> Void)?

        init(onSuccess: (@Sendable (JSONValue) -> Void)?) {
            self.onSuccess = onSuccess
        }

        /// Stores `result` and wakes the requester.
        func complete(_ result: Result<JSONValue, PlayerError>) {
            self.result.withLock { $0 = result }
            done.signal()
        }
    }

    /// The session's bookkeeping, shared by requesters and the reader.
    private struct State {
        var nextRequestID = 1
        var pending: [Int: PendingReply] = [:]
        var isClosed = false
    }

    private let socket: UnixSocket
    private let onEvent: @Sendable (Event) -> Void
    private let onClose: @Sendable () -> Void
    private let state = Mutex(State())

    /// Takes over `socket` and starts reading it at once.
    init(socket: UnixSocket, onEvent: @escaping @Sendable (Event) -> Void, onClose: @escaping @Sendable () -> Void) {
        self.socket = socket
        self.onEvent = onEvent
        self.onClose = onClose
        let thread = Thread { [self] in readLoop() }
        thread.name = "susi.player.mpv-reader"
        thread.start()
    }

    /// Whether the session has ended (mpv closed the socket or `close` was called).
    var closed: Bool {
        state.withLock { $0.isClosed }
    }

    /// Sends `command` and waits up to `timeout` seconds for mpv's reply.
    ///
    /// `onSuccess` runs on the reader thread when the reply says success, before any later line
    /// is read: the place to record what the command changed, in order with mpv's events (a
    /// change recorded after `request` returned could overwrite a newer event).
    /// - Returns: the reply's `data` (`.null` when it has none).
    /// - Throws: `player-died` when the session is or becomes closed, `player-timeout` when mpv
    ///   does not answer in time, `player-command-failed` when it answers with an error.
    @discardableResult
    func request(
        _ command: [JSONValue], timeout: TimeInterval, onSuccess: (@Sendable (JSONValue) -> Void)? = nil
    ) throws(PlayerError) -> JSONValue {
        let reply = PendingReply(onSuccess: onSuccess)
        let registered: Int? = state.withLock { state in
            guard !state.isClosed else { return nil }
            let id = state.nextRequestID
            state.nextRequestID += 1
            state.pending[id] = reply
            return id
        }
        guard let id = registered else {
            throw PlayerError(.died, "the media player is not running (its control socket is closed)")
        }

        let line = JSONValue.object(["command": .array(command), "request_id": .number(Double(id))]).jsonText + "\n"
        let name = command.first?.stringValue ?? "?"
        guard socket.send(Data(line.utf8)) else {
            forget(id)
            throw PlayerError(.died, "the media player went away while sending '\(name)'")
        }
        guard reply.done.wait(timeout: .now() + timeout) == .success else {
            forget(id)
            throw PlayerError(
                .timeout, "the media player did not answer '\(name)' within \(JSONValue.format(timeout)) s")
        }
        switch reply.result.withLock({ $0 }) {
        case .success(let data): return data
        case .failure(let error): throw error
        case nil: throw PlayerError(.died, "the media player gave no reply to '\(name)'")
        }
    }

    /// Ends the session: wakes the reader, which fails waiting requests with `player-died` and
    /// calls `onClose` once, as it does when mpv goes away; the owner tells the two apart by its
    /// own bookkeeping.
    func close() {
        socket.shutdown()
    }

    private func forget(_ id: Int) {
        state.withLock { _ = $0.pending.removeValue(forKey: id) }
    }

    private func readLoop() {
        var buffer: [UInt8] = []
        reading: while socket.receive(into: &buffer) {
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if !line.isEmpty { handle(line) }
            }
            // mpv's lines are short; a megabyte without a newline is not mpv talking.
            if buffer.count > 1 << 20 { break reading }
        }
        finish()
    }

    private func handle(_ line: [UInt8]) {
        guard let object = (try? JSONValue.parse(Data(line)))?.objectValue else { return }
        if let name = object["event"]?.stringValue {
            onEvent(Event(name: name, fields: object))
            return
        }
        guard let id = object["request_id"]?.intValue else { return }
        guard let reply = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        let status = object["error"]?.stringValue ?? "no status"
        if status == "success" {
            let data = object["data"] ?? .null
            reply.onSuccess?(data)
            reply.complete(.success(data))
        } else {
            reply.complete(.failure(PlayerError(.commandFailed, "the media player refused the command: \(status)")))
        }
    }

    private func finish() {
        let waiting = state.withLock { state in
            state.isClosed = true
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        socket.close()
        for reply in waiting {
            reply.complete(.failure(PlayerError(.died, "the media player closed its control socket")))
        }
        onClose()
    }
}
