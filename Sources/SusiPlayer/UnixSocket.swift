import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected `AF_UNIX` stream socket: the one place this module calls the C socket API.
///
/// Reads happen on one thread (the connection's reader). Sends, `shutdown` and `close` hold the
/// descriptor's mutex, so a descriptor number is never used after it was closed and possibly
/// reused.
final class UnixSocket: Sendable {
    /// Why a socket could not be connected.
    struct Failure: Error, Sendable {
        /// One line naming the path and the system's reason.
        let reason: String
    }

    /// The open descriptor, -1 once closed.
    private let descriptor: Mutex<Int32>

    private init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        close()
    }

    /// Connects to the socket at `path`, or says why it cannot (yet).
    static func connect(path: String) -> Result<UnixSocket, Failure> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return .failure(Failure(reason: "socket path is longer than the system allows: \(path)"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        #if canImport(Glibc)
            // The descriptor must not leak into the next player process we spawn.
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
            let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else {
            return .failure(Failure(reason: "cannot create a socket: \(String(cString: strerror(errno)))"))
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Foundation.connect(fd, generic, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            _ = Foundation.close(fd)
            return .failure(Failure(reason: "cannot connect to \(path): \(reason)"))
        }
        return .success(UnixSocket(descriptor: fd))
    }

    /// Sends all of `data`; false when the peer is gone or the socket is closed.
    func send(_ data: Data) -> Bool {
        descriptor.withLock { fd in
            guard fd >= 0 else { return false }
            return Self.send(data, to: fd)
        }
    }

    private static func send(_ data: Data, to fd: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                // MSG_NOSIGNAL: a dead peer must give EPIPE here, not kill the whole speaker.
                let count = Foundation.send(fd, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    /// Blocks until bytes arrive and appends them to `buffer`; false at end of stream or error.
    ///
    /// Only the reader thread calls this, so it reads without the mutex (a blocking read must
    /// not hold it); `close` is only called by that same thread once it stops reading.
    func receive(into buffer: inout [UInt8]) -> Bool {
        let fd = descriptor.withLock { $0 }
        guard fd >= 0 else { return false }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress, raw.count, 0)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// Wakes a blocked `receive` (it returns false) and stops further sends; does not free the
    /// descriptor, so the reader can still finish with it.
    func shutdown() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = Foundation.shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// Frees the descriptor; afterwards every call fails quietly.
    func close() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = Foundation.close(fd)
            fd = -1
        }
    }
}
