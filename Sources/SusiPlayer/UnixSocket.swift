import Foundation
import SusiCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connected `AF_UNIX` stream socket: the one place this module calls the C socket API.
///
/// Reads happen on one thread (the connection's reader); the descriptor is shared with the
/// senders as `SocketDescriptor` says.
final class UnixSocket: Sendable {
    /// Why a socket could not be connected.
    struct Failure: Error, Sendable {
        /// One line naming the path and the system's reason.
        let reason: String
    }

    private let descriptor: SocketDescriptor

    private init(descriptor: Int32) {
        self.descriptor = SocketDescriptor(descriptor)
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
        data.withUnsafeBytes { descriptor.send($0) }
    }

    /// Blocks until bytes arrive and appends them to `buffer`; false at end of stream or error.
    ///
    /// Only the reader thread calls this; `close` is only called by that same thread once it
    /// stops reading.
    func receive(into buffer: inout [UInt8]) -> Bool {
        guard let bytes = descriptor.receive() else { return false }
        buffer += bytes
        return true
    }

    /// Wakes a blocked `receive` (it returns false) and stops further sends; does not free the
    /// descriptor, so the reader can still finish with it.
    func shutdown() { descriptor.shutdown() }

    /// Frees the descriptor; afterwards every call fails quietly.
    func close() { descriptor.close() }
}
