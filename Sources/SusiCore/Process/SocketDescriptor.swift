import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected or listening socket's descriptor, shared by a reader thread and senders.
///
/// Sends, `shutdown` and `close` hold the descriptor's mutex, so a descriptor number is never
/// used after it was closed and possibly reused for another file. Reads take the number
/// without holding the mutex (a blocking read must not hold it); `shutdown` wakes them.
public final class SocketDescriptor: Sendable {
    /// The open descriptor, -1 once closed.
    private let value: Mutex<Int32>

    /// Owns `fd` from now on: `close` (or the end of this object) closes it.
    public init(_ fd: Int32) {
        value = Mutex(fd)
    }

    deinit {
        close()
    }

    /// The descriptor for a read or an `accept`; -1 once closed.
    public var current: Int32 { value.withLock { $0 } }

    /// `body` with the open descriptor, under the mutex; nil once closed.
    public func withOpen<T>(_ body: (Int32) -> T) -> T? {
        value.withLock { fd in fd >= 0 ? body(fd) : nil }
    }

    /// Sends all of `bytes`; false when the peer is gone or the socket is closed. A vanished
    /// peer gives EPIPE here (`MSG_NOSIGNAL`), never a SIGPIPE that ends the speaker.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        withOpen { fd in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.send(fd, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        } ?? false
    }

    /// Blocks until bytes arrive and returns them (64 KiB at most); nil at the end of the
    /// stream, on an error, or once the socket is closed.
    public func receive() -> [UInt8]? {
        let fd = current
        guard fd >= 0 else { return nil }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress, raw.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            return Array(chunk[0..<count])
        }
    }

    /// Wakes a blocked read (it sees the end) and stops further sends; the descriptor stays
    /// open, so the reader can still finish with it.
    public func shutdown() {
        _ = withOpen { Foundation.shutdown($0, Int32(SHUT_RDWR)) }
    }

    /// Frees the descriptor; afterwards every call fails quietly. Safe to call twice.
    public func close() {
        value.withLock { fd in
            guard fd >= 0 else { return }
            _ = Foundation.close(fd)
            fd = -1
        }
    }
}
