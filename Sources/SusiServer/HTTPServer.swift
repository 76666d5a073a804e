import CMicroHTTPD
import Foundation
import SusiCore
import Synchronization

/// A small HTTP/1.1 server on libmicrohttpd; the only file in SusiServer that touches it.
///
/// Every connection gets its own thread (so a handler that waits on the network does not stall
/// other clients), bounded by `ServerLimits.maxConnections`. Handlers receive complete, decoded
/// requests; bodies over `maxBodyBytes` are answered 413 without calling the handler, and a
/// form body that cannot be decoded is answered 400.
///
/// `start()` and `stop()` may be called from any thread; `stop()` waits for running handlers
/// to finish, so a handler must never call it.
public final class HTTPServer: Sendable {
    /// The address bound, as given (`127.0.0.1` unless told otherwise).
    public let host: String
    /// The resource bounds in force.
    public let limits: ServerLimits
    private let requestedPort: UInt16
    private let dispatcher: Dispatcher
    /// The running daemon and its bound port; nil while stopped.
    private let running = Mutex<Running?>(nil)

    // @unchecked Sendable: the C daemon handle, only used under `running`'s mutex.
    private struct Running: @unchecked Sendable {
        let daemon: OpaquePointer
        let port: UInt16
    }

    /// Creates a stopped server answering every request with `handler`.
    ///
    /// `host` is an IPv4 address (`127.0.0.1`, `0.0.0.0` for every interface) or `localhost`;
    /// `port` 0 picks a free port, read back from `port` after `start()`.
    public init(
        host: String = "127.0.0.1", port: UInt16, limits: ServerLimits = ServerLimits(),
        logger: Logger = .silent, handler: @escaping ServerHandler
    ) {
        self.host = host
        self.requestedPort = port
        self.limits = limits
        self.dispatcher = Dispatcher(handler: handler, limits: limits, logger: logger)
    }

    /// Creates a stopped server answering with `router`.
    public convenience init(
        host: String = "127.0.0.1", port: UInt16, limits: ServerLimits = ServerLimits(),
        logger: Logger = .silent, router: Router
    ) {
        self.init(host: host, port: port, limits: limits, logger: logger, handler: router.handle)
    }

    deinit {
        stop()
    }

    /// The port actually bound while running (useful with port 0); nil while stopped.
    public var port: UInt16? {
        running.withLock { $0?.port }
    }

    /// Whether the server is accepting connections.
    public var isRunning: Bool {
        running.withLock { $0 != nil }
    }

    /// Binds and starts serving. Calling it while running does nothing.
    public func start() throws(ServerError) {
        try running.withLock { (current: inout Running?) throws(ServerError) in
            guard current == nil else { return }
            current = try launch()
        }
        dispatcher.logger.info("serving on http://\(host):\(port.map(String.init) ?? "?")")
    }

    /// Stops accepting, closes connections and waits for running handlers. Idempotent.
    public func stop() {
        let stopping = running.withLock { (current: inout Running?) -> Running? in
            defer { current = nil }
            return current
        }
        guard let stopping else { return }
        // Outside the lock: stopping joins the connection threads, which may take a moment.
        MHD_stop_daemon(stopping.daemon)
        dispatcher.logger.info("stopped serving on port \(stopping.port)")
    }

    private func launch() throws(ServerError) -> Running {
        var address = try socketAddress()
        let flags =
            MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_AUTO.rawValue | MHD_USE_ERROR_LOG.rawValue
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()
        let daemon: OpaquePointer? = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                // The logger goes first: libmicrohttpd uses its own for options before it.
                var options = [
                    susi_mhd_option_logger(daemonLog, context),
                    susi_mhd_option_sock_addr(socketAddress),
                    susi_mhd_option_uint(.CONNECTION_LIMIT, Self.unsigned(limits.maxConnections, minimum: 1)),
                    susi_mhd_option_uint(
                        .PER_IP_CONNECTION_LIMIT, Self.unsigned(limits.maxConnectionsPerIP, minimum: 0)),
                    susi_mhd_option_uint(
                        .CONNECTION_TIMEOUT, Self.unsigned(limits.connectionTimeoutSeconds, minimum: 1)),
                    susi_mhd_option_notify_completed(requestCompleted, context),
                    susi_mhd_option_end(),
                ]
                return options.withUnsafeMutableBufferPointer { buffer in
                    susi_mhd_start(flags, 0, accessHandler, context, buffer.baseAddress)
                }
            }
        }
        guard let daemon else {
            throw classifyStartFailure(address)
        }
        let port = susi_mhd_daemon_info(daemon, .DAEMON_INFO_BIND_PORT)?.pointee.port ?? requestedPort
        return Running(daemon: daemon, port: port)
    }

    private func socketAddress() throws(ServerError) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requestedPort.bigEndian
        let text = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else {
            throw ServerError(.badAddress, "\(host) is not an IPv4 address")
        }
        return address
    }

    /// libmicrohttpd only says "NULL"; binding a probe socket the same way names the cause.
    private func classifyStartFailure(_ address: sockaddr_in) -> ServerError {
        let endpoint = "\(host):\(requestedPort)"
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else {
            return ServerError(.startFailed, "cannot serve on \(endpoint): no socket available")
        }
        defer { close(probe) }
        var yes: Int32 = 1
        _ = setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = address
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let failure = errno
        if bound == 0, listen(probe, 1) == 0 {
            return ServerError(.startFailed, "libmicrohttpd could not start on \(endpoint)")
        }
        switch bound == 0 ? errno : failure {
        case EADDRINUSE:
            return ServerError(.portInUse, "port \(requestedPort) on \(host) is already in use")
        case EACCES:
            return ServerError(
                .permissionDenied,
                "not allowed to bind \(endpoint) (ports below 1024 need privileges)")
        case EADDRNOTAVAIL:
            return ServerError(.badAddress, "\(host) is not an address of this machine")
        case let code:
            return ServerError(
                .startFailed, "cannot serve on \(endpoint): \(String(cString: strerror(code)))")
        }
    }

    private static func unsigned(_ value: Int, minimum: Int) -> UInt32 {
        UInt32(clamping: max(value, minimum))
    }
}

/// What the C callbacks reach through their context pointer: the handler and its bounds.
/// Immutable, so any connection thread may use it.
private final class Dispatcher: Sendable {
    let handler: ServerHandler
    let limits: ServerLimits
    let logger: Logger

    init(handler: @escaping ServerHandler, limits: ServerLimits, logger: Logger) {
        self.handler = handler
        self.limits = limits
        self.logger = logger
    }
}

/// One request being received; lives in libmicrohttpd's per-request slot (`con_cls`) from the
/// first access-handler call until the completion callback releases it. Only the connection's
/// own thread touches it.
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
    var answered = false
}

/// Collects key/value pairs from MHD_get_connection_values.
private final class PairCollector {
    var pairs: [(String, String)] = []
}

private let collectPair: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return .YES }
    let collector = Unmanaged<PairCollector>.fromOpaque(context).takeUnretainedValue()
    collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
    let collector = PairCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(
            connection, kind, collectPair, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.pairs
}

/// The text before the first NUL of a C character buffer.
private func text(nulTerminated buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

private func remoteAddress(_ connection: OpaquePointer) -> String {
    guard let info = susi_mhd_connection_info(connection, .CONNECTION_INFO_CLIENT_ADDRESS),
        let address = info.pointee.client_addr
    else { return "" }
    var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
        return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
            var raw = inet.pointee.sin_addr
            return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) == nil
                ? "" : text(nulTerminated: buffer)
        }
    case AF_INET6:
        return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
            var raw = inet6.pointee.sin6_addr
            return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) == nil
                ? "" : text(nulTerminated: buffer)
        }
    default:
        return ""
    }
}

private func queue(_ response: ServerResponse, on connection: OpaquePointer, logger: Logger)
    -> MHD_Result
{
    let status = (100...999).contains(response.status) ? response.status : 500
    return response.body.withUnsafeBytes { bytes -> MHD_Result in
        // MUST_COPY: libmicrohttpd copies the bytes, so the buffer need not outlive this call and
        // is never written through the mutable pointer its older API asks for.
        guard
            let reply = MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        else { return .NO }
        defer { MHD_destroy_response(reply) }
        for (name, value) in [("Content-Type", response.contentType)]
            + response.headers.map({ ($0.name, $0.value) })
        {
            if MHD_add_response_header(reply, name, value) != .YES {
                logger.warning("dropped invalid response header \(name)")
            }
        }
        return MHD_queue_response(connection, UInt32(status), reply)
    }
}

/// A request refused before its handler runs, with the reply to send instead.
private struct Rejection: Error {
    let response: ServerResponse
}

private func buildRequest(
    _ connection: OpaquePointer, path: String, method: String, body: Data, logger: Logger
) -> Result<ServerRequest, Rejection> {
    var headers: [String: String] = [:]
    for (name, value) in values(connection, .HEADER_KIND) {
        let key = name.lowercased()
        headers[key] = headers[key].map { $0 + ", " + value } ?? value
    }
    var query: [String: String] = [:]
    for (name, value) in values(connection, .GET_ARGUMENT_KIND) where query[name] == nil {
        query[name] = value
    }
    var form: [String: String] = [:]
    let contentType = headers["content-type"]?.lowercased() ?? ""
    if contentType.hasPrefix("application/x-www-form-urlencoded") {
        guard let text = String(validating: body, as: UTF8.self),
            let decoded = FormDecoding.decode(text)
        else {
            return .failure(
                Rejection(
                    response: .badRequest(
                        "the form body is not valid url-encoded UTF-8", code: "server-bad-form")))
        }
        form = decoded
    }
    return .success(
        ServerRequest(
            method: method, path: path, query: query, form: form, headers: headers,
            body: body, remoteAddress: remoteAddress(connection)))
}

/// The access handler: called once when headers are in, once per body piece, and once at the end.
private let accessHandler: MHD_AccessHandlerCallback = {
    context, connection, url, method, _, uploadData, uploadSize, slot in
    guard let context, let connection, let uploadSize, let slot else { return .NO }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    let limit = max(dispatcher.limits.maxBodyBytes, 0)

    guard let existing = slot.pointee else {
        let pending = PendingRequest()
        slot.pointee = Unmanaged.passRetained(pending).toOpaque()
        // A declared length over the cap is refused before the body is read at all.
        if let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
            let length = Int(String(cString: declared)), length > limit
        {
            pending.answered = true
            return queue(.payloadTooLarge(limit: limit), on: connection, logger: dispatcher.logger)
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()

    if uploadSize.pointee > 0 {
        let count = uploadSize.pointee
        if !pending.answered, !pending.tooLarge, let uploadData {
            if pending.body.count + count > limit {
                // Keep reading (and dropping) so the client gets a 413 rather than a reset.
                pending.tooLarge = true
                pending.body = Data()
            } else {
                pending.body.append(
                    UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: count)
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    guard !pending.answered else { return .YES }
    pending.answered = true

    let methodName = method.map { String(cString: $0) } ?? "GET"
    let path = url.map { String(cString: $0) } ?? "/"
    let response: ServerResponse
    if pending.tooLarge {
        response = .payloadTooLarge(limit: limit)
    } else {
        switch buildRequest(
            connection, path: path, method: methodName, body: pending.body, logger: dispatcher.logger)
        {
        case .success(let request):
            response = Router.run(dispatcher.handler, request)
        case .failure(let rejection):
            response = rejection.response
        }
    }
    dispatcher.logger.debug("\(methodName) \(path) -> \(response.status)")
    return queue(response, on: connection, logger: dispatcher.logger)
}

/// Releases the per-request state however the request ended (done, timeout, client gone).
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, slot, _ in
    guard let slot, let pending = slot.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    slot.pointee = nil
}

/// libmicrohttpd's own diagnostics (printf-style) go to the server's logger.
private let daemonLog: MHD_LogCallback = { context, format, arguments in
    guard let context, let format, let arguments else { return }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let line = text(nulTerminated: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
    dispatcher.logger.warning("libmicrohttpd: \(line)")
}
