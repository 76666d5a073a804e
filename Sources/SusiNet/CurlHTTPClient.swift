import CCurl
import Foundation
import SusiCore

/// The libcurl implementation of `HTTPClient`; the only file in SusiNet that touches libcurl.
///
/// Each `send` uses its own easy handle, so one client may be shared by any number of threads.
/// Signals are off (`CURLOPT_NOSIGNAL`), so timeouts are safe in a threaded process.
public final class CurlHTTPClient: HTTPClient {
    /// The stage stamped on errors (`.brain` for the chat API, others for skills or search).
    public let stage: Stage
    /// Sent as `User-Agent` unless the request sets one.
    public let userAgent: String
    private let logger: Logger

    /// Creates a client. `stage` names the pipeline stage its errors belong to.
    public init(
        stage: Stage = .brain, userAgent: String = "susi-speaker/1.0", logger: Logger = .silent
    ) {
        self.stage = stage
        self.userAgent = userAgent
        self.logger = logger
    }

    /// `curl_global_init` is not thread-safe, so it runs once behind Swift's lazy static
    /// initialisation (which is); its result is kept for every later call to check.
    private static let globalInit: Int = Int(curl_global_init(Int(CURL_GLOBAL_DEFAULT)).rawValue)

    /// Performs the request on the calling thread (blocking); see `HTTPClient.send`.
    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let fullURL = request.fullURL
        // Messages and logs name the URL without its query, which may hold secrets.
        let url = request.redactedURL
        guard Self.globalInit == Int(CURLE_OK.rawValue) else {
            throw HTTPError(
                .transport, stage: stage, message: "libcurl failed to initialise (code \(Self.globalInit))")
        }
        try validate(url: fullURL, shownAs: url)
        // Created before the handle so it outlives curl_easy_cleanup (defers run in reverse):
        // curl holds its address as callback context and error buffer until then.
        let transfer = Transfer(
            limit: max(request.maxResponseBytes, 0), cancellation: request.cancellation)
        defer { withExtendedLifetime(transfer) {} }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        guard let handle = curl_easy_init() else {
            throw HTTPError(
                .transport, stage: stage, message: "libcurl could not create a handle for \(url)")
        }
        defer { curl_easy_cleanup(handle) }

        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for (name, value) in request.headers {
            guard isValidHeader(name: name, value: value) else {
                throw HTTPError(
                    .badHeader, stage: stage, message: "cannot send header \"\(name)\" to \(url)")
            }
            guard let appended = curl_slist_append(headerList, "\(name): \(value)") else {
                throw HTTPError(
                    .transport, stage: stage, message: "out of memory building headers for \(url)")
            }
            headerList = appended
        }

        try setOption(handle, CURLOPT_URL, fullURL)
        try setOption(handle, CURLOPT_NOSIGNAL, 1)
        // On a timeout during name resolution libcurl 7.87+ otherwise waits for the resolver
        // thread's getaddrinfo to return (up to the system's DNS timeout, ~5 s), so a dead DNS
        // server held answers past the limit. Quick exit detaches that thread instead.
        try setOption(handle, CURLOPT_QUICK_EXIT, 1)
        try setOption(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        try setOption(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try setOption(handle, CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
        try setOption(handle, CURLOPT_MAXREDIRS, 5)
        try setOption(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout))
        try setOption(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.totalTimeout))
        try setOption(handle, CURLOPT_USERAGENT, userAgent)
        // An empty string asks for every encoding this libcurl can decode.
        try setOption(handle, CURLOPT_ACCEPT_ENCODING, "")
        // Known lengths are refused before any body byte arrives; the write callback catches the rest.
        try check(
            susi_curl_setopt_off(
                handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(max(request.maxResponseBytes, 0))), url)
        try check(susi_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), url)
        try check(susi_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, transfer.errorBuffer), url)
        try check(susi_curl_setopt_write(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), url)
        try check(susi_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), url)
        try check(susi_curl_setopt_write(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader), url)
        try check(susi_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), url)
        try check(susi_curl_setopt_xferinfo(handle, curlProgress), url)
        try check(susi_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), url)
        try setOption(handle, CURLOPT_NOPROGRESS, request.cancellation == nil ? 1 : 0)

        switch request.method {
        case .get:
            try setOption(handle, CURLOPT_HTTPGET, 1)
        case .post:
            let body = request.body ?? FormEncoding.encode(request.form)
            try check(
                susi_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.utf8.count)), url)
            // COPYPOSTFIELDS makes curl own a copy, so no Swift buffer has to outlive this call.
            try setOption(handle, CURLOPT_COPYPOSTFIELDS, body)
        }

        let started = ContinuousClock.now
        let result = curl_easy_perform(handle)
        if result != CURLE_OK {
            throw classify(result, handle: handle, request: request, transfer: transfer, url: url)
        }

        var status = 0
        try check(susi_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status), url)
        logger.debug(
            "\(request.method.rawValue) \(url) -> \(status) in \(ContinuousClock.now - started)")
        return HTTPResponse(
            status: status, reason: transfer.reason, headers: transfer.headers, body: transfer.body)
    }

    // MARK: - Errors

    private func classify(
        _ code: CURLcode, handle: UnsafeMutableRawPointer, request: HTTPRequest, transfer: Transfer,
        url: String
    ) -> HTTPError {
        let detail =
            transfer.errorText.isEmpty ? String(cString: curl_easy_strerror(code)) : transfer.errorText
        let kind: HTTPError.Kind
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            kind = .badURL
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            kind = .dnsFailure
        case CURLE_COULDNT_CONNECT:
            kind = .connectionRefused
        case CURLE_OPERATION_TIMEDOUT:
            // No connect time means curl never got past resolving/connecting. Which limit fired
            // is then the smaller one (curl applies both to that phase).
            var connectMicroseconds: curl_off_t = 0
            let connected =
                susi_curl_getinfo_off(handle, CURLINFO_CONNECT_TIME_T, &connectMicroseconds) == CURLE_OK
                && connectMicroseconds > 0
            kind =
                !connected && request.connectTimeout <= request.totalTimeout ? .connectTimeout : .timeout
        case CURLE_FILESIZE_EXCEEDED:
            kind = .tooLarge
        case CURLE_WRITE_ERROR where transfer.exceededLimit:
            kind = .tooLarge
        case CURLE_ABORTED_BY_CALLBACK where transfer.cancellation?.isCancelled == true:
            kind = .cancelled
        default:
            kind = .transport
        }
        let message: String
        switch kind {
        case .tooLarge:
            message = "response from \(url) is larger than \(request.maxResponseBytes) bytes"
        case .cancelled:
            message = "request to \(url) was cancelled"
        case .timeout:
            message = "no complete response from \(url) within \(request.totalTimeout) s"
        case .connectTimeout:
            message = "could not connect to \(url) within \(request.connectTimeout) s"
        default:
            message = "\(url): \(detail) (curl \(code.rawValue))"
        }
        return HTTPError(kind, stage: stage, message: message)
    }

    private func check(_ code: CURLcode, _ url: String) throws(HTTPError) {
        guard code == CURLE_OK else {
            let text = String(cString: curl_easy_strerror(code))
            throw HTTPError(
                .transport, stage: stage,
                message: "\(url): cannot configure libcurl: \(text) (curl \(code.rawValue))")
        }
    }

    private func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int)
        throws(HTTPError)
    {
        try check(susi_curl_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func setOption(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String)
        throws(HTTPError)
    {
        // curl copies string options (all but POSTFIELDS, which is not used), so the C string
        // only has to live for the call.
        let code = value.withCString { susi_curl_setopt_string(handle, option, $0) }
        guard code == CURLE_OK else {
            if option == CURLOPT_URL {
                throw HTTPError(
                    .badURL, stage: stage,
                    message: "libcurl rejects the URL \(URLRedaction.redacted(String(value.prefix { $0 != "?" })))")
            }
            try check(code, "option \(option.rawValue)")
            return
        }
    }

    private func validate(url: String, shownAs shown: String) throws(HTTPError) {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("http://") {
            rest = lower.dropFirst(7)
        } else if lower.hasPrefix("https://") {
            rest = lower.dropFirst(8)
        } else {
            throw HTTPError(.badURL, stage: stage, message: "not an http or https URL: \(shown)")
        }
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let invalid = url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
        guard !host.isEmpty, !invalid else {
            throw HTTPError(.badURL, stage: stage, message: "malformed URL \(shown)")
        }
    }

    private func isValidHeader(name: String, value: String) -> Bool {
        let forbidden: (Unicode.Scalar) -> Bool = { $0 == "\r" || $0 == "\n" || $0 == "\0" }
        return !name.isEmpty && !name.contains(":")
            && !name.unicodeScalars.contains { forbidden($0) || $0 == " " }
            && !value.unicodeScalars.contains(where: forbidden)
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        // curl treats 0 as "no limit"; a non-positive or absurd value must not turn into that.
        guard seconds.isFinite, seconds > 0 else { return 1 }
        return Int(min(seconds, 86_400) * 1000).clamped(to: 1...86_400_000)
    }
}

extension Int {
    fileprivate func clamped(to range: ClosedRange<Int>) -> Int {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}

/// What one transfer accumulates; reached from curl's callbacks through an unretained pointer.
///
/// Used by one thread only: the one inside `curl_easy_perform`.
private final class Transfer {
    let limit: Int
    let cancellation: HTTPCancellation?
    var body = Data()
    var headers: [String: String] = [:]
    var reason = ""
    var exceededLimit = false
    /// curl writes its detailed error text here; owned by this object, freed in deinit.
    let errorBuffer: UnsafeMutablePointer<CChar>

    init(limit: Int, cancellation: HTTPCancellation?) {
        self.limit = limit
        self.cancellation = cancellation
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorBuffer.deallocate()
    }

    var errorText: String {
        String(cString: errorBuffer).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceededLimit = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    func appendHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new status line starts a new response (redirect or 100 Continue): forget the old one.
            headers = [:]
            let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            reason = parts.count == 3 ? String(parts[2]) : ""
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return }
        if let existing = headers[name] {
            headers[name] = existing + ", " + value
        } else {
            headers[name] = value
        }
    }
}

/// CURLOPT_WRITEFUNCTION: returning less than given makes curl stop with CURLE_WRITE_ERROR.
private let curlWriteBody: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    return transfer.appendBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

/// CURLOPT_HEADERFUNCTION: curl hands over one complete header line per call.
private let curlWriteHeader: curl_write_callback = { data, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    guard length > 0, let data else { return length }
    transfer.appendHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

/// CURLOPT_XFERINFOFUNCTION: non-zero aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
private let curlProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.cancellation?.isCancelled == true ? 1 : 0
}
