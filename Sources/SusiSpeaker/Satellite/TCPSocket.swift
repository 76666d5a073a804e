import Foundation
import SusiCore
import SusiPipeline

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket, listening or connected: the one place the satellite calls the C socket API.
///
/// Reads and accepts happen on one thread each and wait at most `pollMilliseconds` at a time,
/// so the thread can see that it was asked to stop; the descriptor is shared with the senders
/// as `SocketDescriptor` says.
final class TCPSocket: Sendable {
    /// How long a blocked `accept` or `receive` waits before it looks whether to stop.
    static let pollMilliseconds: Int32 = 200
    /// How long a send may wait for a peer that does not read before it fails.
    static let sendTimeoutSeconds = 5

    private let descriptor: SocketDescriptor
    /// The peer's address for logs (`host:port`); the bound address for a listening socket.
    let address: String

    private init(descriptor: Int32, address: String) {
        self.descriptor = SocketDescriptor(descriptor)
        self.address = address
    }

    /// A socket listening on `host` (an IPv4 or IPv6 literal, or `localhost`) and `port`
    /// (0: a free one, see `port`).
    ///
    /// - Throws: `satellite-cannot-listen` naming the address and the system's reason.
    static func listen(host: String, port: UInt16) throws(WyomingError) -> TCPSocket {
        let literal = host == "localhost" ? "127.0.0.1" : host
        // A numeric host only: no name is looked up.
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(literal, String(port), &hints, &found) == 0, let info = found?.pointee else {
            throw WyomingError(.cannotListen, "'\(host)' is not an IP address")
        }
        defer { freeaddrinfo(found) }
        let (family, length) = (info.ai_family, info.ai_addrlen)
        // The descriptor must not leak into processes the speaker starts (the player).
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WyomingError(.cannotListen, "cannot create a socket: \(Self.reason())") }
        var one: Int32 = 1
        // A restarted speaker can listen again at once, while its old connections linger in TIME_WAIT.
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = Glibc.bind(fd, info.ai_addr, length)
        guard bound == 0, Glibc.listen(fd, 4) == 0 else {
            let reason = Self.reason()
            _ = Glibc.close(fd)
            throw WyomingError(.cannotListen, "cannot listen on \(host) port \(port): \(reason)")
        }
        return TCPSocket(descriptor: fd, address: host)
    }

    /// The local port (the one picked for port 0); nil once closed.
    var port: UInt16? {
        descriptor.withOpen { fd -> UInt16? in
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let result = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard result == 0 else { return nil }
            return Self.port(of: storage)
        } ?? nil
    }

    /// The next connection; nil when none came within `pollMilliseconds` or the socket is closed.
    func accept() -> TCPSocket? {
        let fd = descriptor.current
        guard fd >= 0, Self.waitReadable(fd) else { return nil }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        guard client >= 0 else { return nil }
        // Not inherited by processes the speaker starts (accept4 is a GNU extension Swift does not see).
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        // Audio chunks are small and must not wait for more to fill a segment.
        _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A peer that stops reading fails the send after this, rather than holding up the microphone.
        var limit = timeval(tv_sec: Self.sendTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return TCPSocket(descriptor: client, address: Self.describe(storage))
    }

    /// What arrived; empty when nothing came within `pollMilliseconds`, nil at the end of the
    /// stream, on an error or once the socket is shut down.
    func receive() -> [UInt8]? {
        let fd = descriptor.current
        guard fd >= 0 else { return nil }
        guard Self.waitReadable(fd) else { return [] }
        return descriptor.receive()
    }

    /// Sends all of `bytes`; false when the peer is gone or the socket is closed.
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { descriptor.send($0) }
    }

    /// Ends the connection both ways: a blocked `receive` returns nil; sends fail.
    func shutdown() { descriptor.shutdown() }

    /// Frees the descriptor; afterwards every call fails quietly. Safe to call twice.
    func close() { descriptor.close() }

    private static func waitReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, pollMilliseconds) > 0
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

    private static func port(of storage: sockaddr_storage) -> UInt16? {
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: storage) { raw -> UInt16? in
            switch family {
            case AF_INET: return UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: return UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: return nil
            }
        }
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = Int32(storage.ss_family)
        let converted = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            switch family {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self).sin_addr
                return inet_ntop(AF_INET, &address, &text, socklen_t(text.count)) != nil
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                return inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil
            default: return false
            }
        }
        let host = converted ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return "\(host):\(port(of: storage).map(String.init) ?? "?")"
    }
}
