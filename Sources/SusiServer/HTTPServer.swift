import CMicroHTTPD
import Foundation
import SusiCore
import Synchronization

/// A small HTTP/1.1 server on libmicrohttpd; the only file in SusiServer that touches it.
///
/// Every connection gets its own thread (so a handler that waits on the network does not stall
/// other clients), bounded by `ServerLimits.maxConnections` and `maxConnectionsPerIP`; a
/// client that takes longer than `requestDeadlineSeconds` to send a request is cut off
/// (`ConnectionWatch`). Handlers receive complete, decoded requests; bodies over
/// `maxBodyBytes` are answered 413 without calling the handler, and a form body that cannot
/// be decoded is answered 400.
///
/// Parsing is strict: libmicrohttpd refuses HTTP/1.1 without `Host`, and this server refuses
/// both `Content-Length` and `Transfer-Encoding`, or two different lengths (request
/// smuggling), a line not ended by CRLF, a header name that is not a token (`Name :`), a
/// folded header, a control byte in the head, and a NUL byte anywhere in the target, a header
/// or a form value (400, then the connection is closed). libmicrohttpd's own refusals are sent
/// once (`doubledRefusals`). Every reply carries `Content-Security-Policy: frame-ancestors
/// 'none'` and `X-Content-Type-Options: nosniff`. Warnings a flood could repeat are rate-limited.
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
            dispatcher.streams.reopen()
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
        // Event streams wait for events on their connection threads; ended first, so that
        // stopping the daemon (which joins those threads) does not wait for a heartbeat.
        dispatcher.streams.closeAll()
        // Outside the lock: stopping joins the connection threads, which may take a moment.
        MHD_stop_daemon(stopping.daemon)
        dispatcher.watch.stop()
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
                    susi_mhd_option_notify_connection(connectionNotified, context),
                    susi_mhd_option_uri_log(requestLineReceived, context),
                    // Refuses HTTP/1.1 without Host and spaces in the target.
                    susi_mhd_option_int(.STRICT_FOR_CLIENT, 1),
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
        dispatcher.watch.start()
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

/// What the C callbacks reach through their context pointer: the handler, its bounds and the
/// open connections. Shareable, so any connection thread may use it.
private final class Dispatcher: Sendable {
    let handler: ServerHandler
    let limits: ServerLimits
    let logger: Logger
    let warnings: WarningLimiter
    let watch: ConnectionWatch
    let streams: OpenStreams

    init(handler: @escaping ServerHandler, limits: ServerLimits, logger: Logger) {
        self.handler = handler
        self.limits = limits
        self.logger = logger
        let warnings = WarningLimiter(logger: logger)
        self.warnings = warnings
        watch = ConnectionWatch(
            deadlineSeconds: limits.requestDeadlineSeconds, capacity: limits.maxConnections,
            reserve: limits.reservedConnections
        ) { address, shed in
            if shed {
                warnings.warn("shed", "closed the slowest connection (from \(address)) to keep room for new clients")
            } else {
                warnings.warn(
                    "deadline",
                    "closed a connection from \(address) that took over \(limits.requestDeadlineSeconds) s to send its request")
            }
        }
        streams = OpenStreams(limit: limits.maxEventStreams)
    }
}

/// The event streams being sent, bounded, so `stop()` can end them all.
final class OpenStreams: Sendable {
    private struct State {
        var open: [ObjectIdentifier: EventStream] = [:]
        /// Set by `closeAll()` until the server starts again: no new stream is admitted.
        var stopping = false
    }

    private let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// Registers `stream`; false when `limit` streams are open or the server is stopping.
    func admit(_ stream: EventStream) -> Bool {
        state.withLock { state in
            guard !state.stopping, state.open.count < limit else { return false }
            state.open[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    /// Forgets a stream that ended.
    func release(_ stream: EventStream) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Closes every open stream and refuses new ones.
    func closeAll() {
        let open = state.withLock { state -> [EventStream] in
            state.stopping = true
            return Array(state.open.values)
        }
        for stream in open { stream.close() }
    }

    /// Admits streams again (the server started).
    func reopen() {
        state.withLock { $0.stopping = false }
    }
}

/// The key of a connection in `ConnectionWatch`: its handle's address, unique while it is open.
private func key(_ connection: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
}

/// One request being received; lives in libmicrohttpd's per-request slot (`con_cls`) from its
/// request line (`requestLineReceived`) until the completion callback releases it. Only the
/// connection's own thread touches it.
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
    var answered = false
    /// Set at the first access-handler call, when the headers are in.
    var headersSeen = false
    /// The raw target's length in bytes up to its first NUL, as it arrived (libmicrohttpd then
    /// decodes it in place); nil when no request line was seen.
    var targetLength: Int?
    /// Whether the raw target holds `%00` (decoding it cuts the path short).
    var targetHasEncodedNUL = false
    /// Whether the raw target holds a control byte (a raw CR, say).
    var targetHasControl = false
}

/// Collects key/value pairs from MHD_get_connection_values_n, with their lengths, so a NUL
/// inside a value is seen rather than silently cutting it.
private final class PairCollector {
    var pairs: [(String, String)] = []
    var hasNUL = false
}

private let collectPair: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
    guard let context, let key else { return .YES }
    let collector = Unmanaged<PairCollector>.fromOpaque(context).takeUnretainedValue()
    let name = UnsafeRawBufferPointer(start: key, count: keySize)
    let bytes = value.map { UnsafeRawBufferPointer(start: $0, count: valueSize) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
    if name.contains(0) || bytes.contains(0) { collector.hasNUL = true }
    collector.pairs.append((String(decoding: name, as: UTF8.self), String(decoding: bytes, as: UTF8.self)))
    return .YES
}

/// The pairs of `kind`, and whether any name or value held a NUL byte.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> (pairs: [(String, String)], hasNUL: Bool) {
    let collector = PairCollector()
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values_n(
            connection, kind, collectPair, Unmanaged.passUnretained(collector).toOpaque())
    }
    return (collector.pairs, collector.hasNUL)
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
        for (name, value) in [("Content-Type", response.contentType)] + securityHeaders
            + response.headers.map({ ($0.name, $0.value) })
        {
            if MHD_add_response_header(reply, name, value) != .YES {
                logger.warning("dropped invalid response header \(name)")
            }
        }
        return MHD_queue_response(connection, UInt32(status), reply)
    }
}

/// Sent with every reply: no page may frame this one (clickjacking), and browsers take the
/// content type as given.
private let securityHeaders = [
    ("Content-Security-Policy", "frame-ancestors 'none'"), ("X-Content-Type-Options", "nosniff"),
]

/// A request refused before its handler runs, with the reply to send instead.
private struct Rejection: Error {
    let response: ServerResponse

    /// A 400 that also closes the connection: after a malformed request, what follows on the
    /// same connection cannot be trusted to be a request of its own.
    static func closing(_ message: String, code: String) -> Rejection {
        var response = ServerResponse.badRequest(message, code: code)
        response.headers.append((name: "Connection", value: "close"))
        return Rejection(response: response)
    }

    static let nul = closing("a NUL byte is not allowed in a request", code: "server-nul-in-request")

    static let malformed = closing(
        "the request is malformed: lines must end with CRLF, header names must be tokens, and no "
            + "NUL or other control character may appear outside a body",
        code: "server-malformed-request")
}

private func buildRequest(
    _ connection: OpaquePointer, path: String, method: String, body: Data, logger: Logger
) -> Result<ServerRequest, Rejection> {
    let headerValues = values(connection, .HEADER_KIND)
    let queryValues = values(connection, .GET_ARGUMENT_KIND)
    guard !headerValues.hasNUL, !queryValues.hasNUL else { return .failure(.nul) }
    var headers: [String: String] = [:]
    for (name, value) in headerValues.pairs {
        let key = name.lowercased()
        headers[key] = headers[key].map { $0 + ", " + value } ?? value
    }
    var query: [String: String] = [:]
    for (name, value) in queryValues.pairs where query[name] == nil {
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
        guard !decoded.contains(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) else {
            return .failure(.nul)
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
    context, connection, url, method, version, uploadData, uploadSize, slot in
    guard let context, let connection, let uploadSize, let slot else { return .NO }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    let limit = max(dispatcher.limits.maxBodyBytes, 0)

    let pending: PendingRequest
    if let existing = slot.pointee {
        pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    } else {
        pending = PendingRequest()
        slot.pointee = Unmanaged.passRetained(pending).toOpaque()
    }
    guard pending.headersSeen else {
        // The headers are in: refuse what must not be read further before the body is.
        pending.headersSeen = true
        let wellFormed =
            !pending.targetHasControl
            && pending.targetLength.map { length in
                headIsWellFormed(connection, method: method, target: url, version: version, targetLength: length)
            } ?? false
        let rejection =
            !wellFormed ? .malformed : pending.targetHasEncodedNUL ? .nul : framingRejection(connection, limit: limit)
        if let rejection {
            pending.answered = true
            dispatcher.warnings.warn(
                "refused", "refused a request from \(remoteAddress(connection)): \(rejection.response.status)")
            return queue(rejection.response, on: connection, logger: dispatcher.logger)
        }
        return .YES
    }

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
    dispatcher.watch.received(key(connection))

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
    if let stream = response.stream {
        return queueStream(stream, response, on: connection, dispatcher: dispatcher)
    }
    return queue(response, on: connection, logger: dispatcher.logger)
}

/// A reply for a request whose headers say it must not be read on: a body length over the
/// cap (413), or framing a proxy could read differently (both `Content-Length` and
/// `Transfer-Encoding`, or two lengths): 400 and the connection closes.
private func framingRejection(_ connection: OpaquePointer, limit: Int) -> Rejection? {
    let headers = values(connection, .HEADER_KIND)
    if headers.hasNUL { return .nul }
    let lengths = headers.pairs.filter { $0.0.lowercased() == "content-length" }.map {
        $0.1.trimmingCharacters(in: .whitespaces)
    }
    let chunked = headers.pairs.contains { $0.0.lowercased() == "transfer-encoding" }
    if chunked, !lengths.isEmpty {
        return .closing("send Content-Length or Transfer-Encoding, not both", code: "server-ambiguous-length")
    }
    if Set(lengths).count > 1 {
        return .closing("the request has conflicting Content-Length headers", code: "server-ambiguous-length")
    }
    // A declared length over the cap is refused before the body is read at all.
    if let declared = lengths.first.flatMap({ Int($0) }), declared > limit {
        return Rejection(response: .payloadTooLarge(limit: limit))
    }
    return nil
}

/// Whether the request head was well-formed on the wire: every line ended with CRLF, no NUL
/// byte anywhere, header names are tokens (no `Name :`), values hold no control character but
/// tab, no folded lines.
///
/// libmicrohttpd 0.9.75 (Debian 12) accepts bare LF, cuts a name or value at a raw NUL (so
/// `wifissid=a<NUL>b&wifipassd=...` lost the passphrase) and has no option against either. It
/// parses the head in place and only overwrites bytes with NUL: the space after the method and
/// before the version, each line's CRLF (two NULs; a bare LF is one), each header's colon. So
/// the head is well-formed exactly when the request line and each header sit where CRLF lines
/// without hidden bytes put them, which the pointers it hands over show: `method` starts the
/// head, `target` and `version` are in it, header names and values point into it, and
/// `MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE` is its length. `targetLength` is the raw target's
/// length before libmicrohttpd decoded it in place. (A raw NUL right before a bare LF passes
/// for a CR, which hides no byte.)
private func headIsWellFormed(
    _ connection: OpaquePointer, method: UnsafePointer<CChar>?, target: UnsafePointer<CChar>?,
    version: UnsafePointer<CChar>?, targetLength: Int
) -> Bool {
    guard let method, let target, let version,
        let size = susi_mhd_connection_info(connection, .CONNECTION_INFO_REQUEST_HEADER_SIZE)?.pointee.header_size
    else { return false }
    let head = UnsafeRawBufferPointer(start: method, count: size)
    let start = UnsafeRawPointer(method)
    func offset(_ pointer: UnsafeRawPointer) -> Int? {
        let distance = pointer - start
        return (0..<size).contains(distance) ? distance : nil
    }
    /// Whether a CRLF (now two NULs) is at `index`.
    func lineEnd(at index: Int) -> Bool {
        index >= 0 && index + 1 < size && head[index] == 0 && head[index + 1] == 0
    }
    // The method, spaces, the target, one space, the version, CRLF.
    let methodLength = strlen(method)
    guard let targetStart = offset(target), let versionStart = offset(version), methodLength > 0,
        methodLength < targetStart, head[(methodLength + 1)..<targetStart].allSatisfy({ $0 == 0x20 }),
        targetStart + targetLength + 1 == versionStart
    else { return false }
    let requestLineEnd = versionStart + strlen(version)
    guard lineEnd(at: requestLineEnd) else { return false }
    var next = requestLineEnd + 2
    let fields = FieldCollector(head: head)
    withExtendedLifetime(fields) {
        _ = MHD_get_connection_values_n(
            connection, .HEADER_KIND, collectField, Unmanaged.passUnretained(fields).toOpaque())
    }
    for field in fields.fields {
        guard let field, field.name.lowerBound == next, !field.name.isEmpty,
            head[field.name].allSatisfy(isTokenByte), head[field.name.upperBound] == 0,
            field.value.lowerBound > field.name.upperBound,
            head[(field.name.upperBound + 1)..<field.value.lowerBound].allSatisfy({ $0 == 0x20 || $0 == 0x09 }),
            !head[field.value].contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }),
            lineEnd(at: field.value.upperBound)
        else { return false }
        next = field.value.upperBound + 2
    }
    // The empty line ends the head.
    return lineEnd(at: next) && next + 2 == size
}

/// A byte of an HTTP token (RFC 9110 `tchar`): a header name is made of these.
private func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "A")...UInt8(ascii: "Z"):
        return true
    default:
        return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

/// Collects where each header's name and value lie in the request head (offsets into `head`),
/// or nil for one that lies elsewhere (a folded line libmicrohttpd moved).
private final class FieldCollector {
    let head: UnsafeRawBufferPointer
    var fields: [(name: Range<Int>, value: Range<Int>)?] = []

    init(head: UnsafeRawBufferPointer) {
        self.head = head
    }
}

private let collectField: MHD_KeyValueIteratorN = { context, _, key, keySize, value, valueSize in
    guard let context else { return .YES }
    let collector = Unmanaged<FieldCollector>.fromOpaque(context).takeUnretainedValue()
    guard let base = collector.head.baseAddress, let key, let value else {
        collector.fields.append(nil)
        return .YES
    }
    let name = UnsafeRawPointer(key) - base
    let start = UnsafeRawPointer(value) - base
    let count = collector.head.count
    guard name >= 0, name + keySize < count, start >= 0, start + valueSize < count else {
        collector.fields.append(nil)
        return .YES
    }
    collector.fields.append((name..<(name + keySize), start..<(start + valueSize)))
    return .YES
}

/// Releases the per-request state however the request ended (done, timeout, client gone), and
/// starts the clock for the connection's next request.
private let requestCompleted: MHD_RequestCompletedCallback = { context, connection, slot, _ in
    if let context, let connection {
        Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue().watch.replied(key(connection))
    }
    guard let slot, let pending = slot.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(pending).release()
    slot.pointee = nil
}

/// Connections opening and closing, for `ConnectionWatch`.
private let connectionNotified: MHD_NotifyConnectionCallback = { context, connection, _, event in
    guard let context, let connection else { return }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    switch event {
    case .CONNECTION_NOTIFY_STARTED:
        let socket = susi_mhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
        dispatcher.watch.opened(key(connection), socket: socket, address: remoteAddress(connection))
    case .CONNECTION_NOTIFY_CLOSED:
        dispatcher.watch.closed(key(connection))
    default:
        break
    }
}

/// Called with the raw request target before libmicrohttpd decodes it in place (decoding
/// `%00` cuts the path short); starts the request's state (`PendingRequest`, released by
/// `requestCompleted`) with the target's length and whether it holds `%00` or a control byte,
/// and tells `ConnectionWatch` which thread reads the request.
private let requestLineReceived: susi_mhd_uri_log_callback = { context, target, connection in
    let pending = PendingRequest()
    if let target {
        let raw = UnsafeRawBufferPointer(start: target, count: strlen(target))
        pending.targetLength = raw.count
        pending.targetHasControl = raw.contains { $0 < 0x21 || $0 == 0x7F }
        pending.targetHasEncodedNUL = String(decoding: raw, as: UTF8.self).contains("%00")
    }
    if let context, let connection {
        Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue().watch.requestStarted(
            key(connection), thread: pthread_self())
    }
    return Unmanaged.passRetained(pending).toOpaque()
}

/// libmicrohttpd's own diagnostics (printf-style) go to the server's logger.
private let daemonLog: MHD_LogCallback = { context, format, arguments in
    guard let context, let format, let arguments else { return }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(context).takeUnretainedValue()
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let line = text(nulTerminated: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
    if let refusal = doubledRefusals.first(where: { line.hasPrefix($0.message) })?.response {
        dispatcher.watch.answerAndCut(onThread: pthread_self(), rawReply(refusal))
    }
    // Malformed requests make libmicrohttpd complain once each; a flood must not flood the log.
    dispatcher.warnings.warn("libmicrohttpd", "libmicrohttpd: \(line)")
}

/// The refusals libmicrohttpd 0.9.75 sends with its status line and headers twice (its state
/// machine queues the error, then builds the reply again), known by the diagnostic it logs
/// first on the request's own thread; this server answers them itself, once, and cuts the
/// connection so the doubled reply goes nowhere.
private let doubledRefusals: [(message: String, response: ServerResponse)] = [
    (
        "Failed to parse `Content-Length' header",
        .badRequest("the Content-Length header is not a number", code: "server-bad-length")
    ),
    (
        "Too large value of 'Content-Length' header",
        .error(status: 413, code: "server-body-too-large", message: "the Content-Length is too large")
    ),
    (
        "Received HTTP/1.1 request without `Host' header",
        .badRequest("the request has no Host header", code: "server-missing-host")
    ),
]

/// `response` as the bytes of a whole HTTP/1.1 reply that closes the connection.
private func rawReply(_ response: ServerResponse) -> [UInt8] {
    let reasons = [400: "Bad Request", 413: "Content Too Large"]
    var head = "HTTP/1.1 \(response.status) \(reasons[response.status] ?? "Error")\r\n"
    for (name, value) in [("Content-Type", response.contentType)] + securityHeaders
        + response.headers.map({ ($0.name, $0.value) }) + [
            ("Content-Length", String(response.body.count)), ("Connection", "close"),
        ]
    {
        head += "\(name): \(value)\r\n"
    }
    return Array((head + "\r\n").utf8) + Array(response.body)
}

// MARK: Event streams

/// What a streaming reply's callbacks reach through their context pointer; retained from
/// `queueStream` until libmicrohttpd frees the reply.
private final class StreamContext {
    let stream: EventStream
    let dispatcher: Dispatcher
    /// The connection's socket (libmicrohttpd's own), read only on the connection's thread
    /// while the reply is sent, so it stays open for every use here; -1 when unknown.
    let socket: Int32

    init(stream: EventStream, dispatcher: Dispatcher, socket: Int32) {
        self.stream = stream
        self.dispatcher = dispatcher
        self.socket = socket
    }

    /// Whether the client has closed its side (or the connection broke): a peek at the socket
    /// finds its end, or an error other than "nothing yet".
    var clientGone: Bool {
        guard socket >= 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
    }
}

/// How often an idle event stream checks whether its client has left, in seconds.
private let streamClientCheckSeconds = 0.25

/// Queues `stream` as a reply of unknown length with `response`'s headers; 503 when the
/// server has as many streams open as it allows.
private func queueStream(
    _ stream: EventStream, _ response: ServerResponse, on connection: OpaquePointer, dispatcher: Dispatcher
) -> MHD_Result {
    guard dispatcher.streams.admit(stream) else {
        stream.close()
        return queue(
            .error(status: 503, code: "server-busy", message: "too many live views are open; close one and reload"),
            on: connection, logger: dispatcher.logger)
    }
    let socket = susi_mhd_connection_info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
    let context = Unmanaged.passRetained(StreamContext(stream: stream, dispatcher: dispatcher, socket: socket))
    guard
        let reply = MHD_create_response_from_callback(
            susi_mhd_size_unknown(), 4096, streamReader, context.toOpaque(), streamFinished)
    else {
        context.release()
        dispatcher.streams.release(stream)
        stream.close()
        return .NO
    }
    defer { MHD_destroy_response(reply) }
    for (name, value) in [("Content-Type", response.contentType)] + securityHeaders
        + response.headers.map({ ($0.name, $0.value) })
    {
        if MHD_add_response_header(reply, name, value) != .YES {
            dispatcher.logger.warning("dropped invalid response header \(name)")
        }
    }
    return MHD_queue_response(connection, UInt32(response.status), reply)
}

/// Called on the connection's own thread whenever it can send more; blocking here (up to a
/// heartbeat) is what thread-per-connection mode allows.
private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, limit in
    guard let context, let buffer else { return susi_mhd_content_reader_end_of_stream() }
    let streaming = Unmanaged<StreamContext>.fromOpaque(context).takeUnretainedValue()
    guard
        let data = streaming.stream.read(
            limit: limit, heartbeat: streaming.dispatcher.limits.eventStreamHeartbeatSeconds,
            checkInterval: streamClientCheckSeconds, clientGone: { streaming.clientGone })
    else {
        // Closed by the application: end the reply; the client left: drop the connection.
        return streaming.stream.isClosed
            ? susi_mhd_content_reader_end_of_stream() : susi_mhd_content_reader_end_with_error()
    }
    data.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: data.count)
    return data.count
}

/// The reply is done (stream ended, client gone or server stopping): close and forget it.
private let streamFinished: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let streaming = Unmanaged<StreamContext>.fromOpaque(context).takeRetainedValue()
    streaming.stream.close()
    streaming.dispatcher.streams.release(streaming.stream)
}
