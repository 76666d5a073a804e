import Foundation
import SusiCore

/// One JSON IPC session with a running mpv: requests matched to replies by `request_id`, and
/// everything else (events, property changes) handed to `onEvent`.
///
/// A dedicated reader thread owns the socket's receive side. `onEvent` and `onClose` run on
/// that thread, in the order mpv wrote the lines, and must not block on a reply (they would wait
/// for themselves). Requests may come from any thread.
/// `@unchecked Sendable`: the pending-reply table and request counter are guarded by `lock`.
final class MPVConnection: @unchecked Sendable {
    /// A line from mpv that is not a reply: an `event` object with its fields.
    struct Event: Sendable {
        /// mpv's event name (`end-file`, `property-change`, `file-loaded`, ...).
        let name: String
        /// The whole object, for the event's fields (`reason`, `name`, `data`, ...).
        let fields: [String: JSONValue]
    }

    /// A reply slot one waiting request owns.
    private final class PendingReply: @unchecked Sendable {
        // Written by the reader before `done` is signalled, read by the requester after.
        var result: Result<JSONValue, PlayerError>?
        let done = DispatchSemaphore(value: 0)
        let onSuccess: (@Sendable (JSONValue) -> Void)?

        init(onSuccess: (@Sendable (JSONValue) -> Void)?) {
            self.onSuccess = onSuccess
        }
    }

    private let socket: UnixSocket
    private let onEvent: @Sendable (Event) -> Void
    private let onClose: @Sendable () -> Void
    private let lock = NSLock()
    private var nextRequestID = 1
    private var pending: [Int: PendingReply] = [:]
    private var isClosed = false

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
        lock.lock()
        defer { lock.unlock() }
        return isClosed
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
        lock.lock()
        guard !isClosed else {
            lock.unlock()
            throw PlayerError(.died, "the media player is not running (its control socket is closed)")
        }
        let id = nextRequestID
        nextRequestID += 1
        pending[id] = reply
        lock.unlock()

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
        switch reply.result {
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
        lock.lock()
        pending[id] = nil
        lock.unlock()
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
        lock.lock()
        let reply = pending.removeValue(forKey: id)
        lock.unlock()
        guard let reply else { return }
        let status = object["error"]?.stringValue ?? "no status"
        if status == "success" {
            let data = object["data"] ?? .null
            reply.onSuccess?(data)
            reply.result = .success(data)
        } else {
            reply.result = .failure(PlayerError(.commandFailed, "the media player refused the command: \(status)"))
        }
        reply.done.signal()
    }

    private func finish() {
        lock.lock()
        isClosed = true
        let waiting = pending
        pending = [:]
        lock.unlock()
        socket.close()
        for reply in waiting.values {
            reply.result = .failure(PlayerError(.died, "the media player closed its control socket"))
            reply.done.signal()
        }
        onClose()
    }
}
