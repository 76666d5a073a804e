import Foundation
import SusiServer
@_exported import SusiTestSupport
import Synchronization
import XCTest

/// A TCP socket bound to 127.0.0.1 on a free port, listening only if asked; closed on deinit.
///
/// Bound but not listening, it is a port where connections are refused and that no other
/// process can take meanwhile.
final class RawSocket: Sendable {
    /// Immutable; the tests hand it to one helper thread at a time.
    let descriptor: Int32
    let port: UInt16

    init(listenBacklog: Int32? = nil) throws {
        (descriptor, port) = try loopbackSocket(listenBacklog: listenBacklog)
    }

    deinit {
        close(descriptor)
    }

    /// Starts a non-blocking connect to `port`; returns the socket (the caller closes it).
    static func startConnect(to port: UInt16) -> Int32 {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return client
    }
}

/// Serves exactly one connection on a helper thread: reads the request head, then sends
/// `head` followed by `chunk` repeated up to `maxBytes` or until the client goes away.
/// `bytesSent` reports how much body left before the client hung up.
final class StreamingServer: Sendable {
    /// Only used by the helper thread.
    private let listener: RawSocket
    private let sent = Mutex(0)
    private let done = DispatchSemaphore(value: 0)

    var port: UInt16 { listener.port }

    init(head: String, chunkSize: Int = 64 * 1024, maxBytes: Int) throws {
        listener = try RawSocket(listenBacklog: 4)
        let thread = Thread { [self] in
            serve(head: head, chunkSize: chunkSize, maxBytes: maxBytes)
            done.signal()
        }
        thread.start()
    }

    /// Waits (bounded) for the helper thread and returns the body bytes it managed to send.
    func bytesSent(waiting seconds: Double = 10) -> Int? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return sent.withLock { $0 }
    }

    private func serve(head: String, chunkSize: Int, maxBytes: Int) {
        // Bounded wait for the client so a failing test cannot leave the thread behind.
        var poller = pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 10_000) == 1 else { return }
        let client = accept(listener.descriptor, nil, nil)
        guard client >= 0 else { return }
        defer { close(client) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        _ = recv(client, &buffer, buffer.count, 0)
        let headBytes = Array(head.utf8)
        guard send(client, headBytes, headBytes.count, Int32(MSG_NOSIGNAL)) == headBytes.count else {
            return
        }
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: chunkSize)
        var total = 0
        while total < maxBytes {
            let written = send(client, chunk, chunk.count, Int32(MSG_NOSIGNAL))
            guard written > 0 else { break }
            total += written
        }
        sent.withLock { $0 = total }
    }
}
