import Foundation
import Synchronization

/// Who may control the speaker: whoever shows the owner token, as `Authorization: Bearer
/// <token>` or through the session cookie the web page gets by entering the token once.
///
/// Before the first token exists the speaker is in setup mode and open, as the apps need; once
/// a token exists (or setup has finished, when one is made at once) only the owner passes.
/// Sessions live in memory: a restart, a rotated token or 30 days end them. At most
/// `maxSessions` are kept; the oldest goes first. Safe to share between server threads.
public final class OwnerAccess: Sendable {
    /// The token file.
    public let tokenFile: OwnerTokenFile
    private let setupState: SetupStateFile
    private let sessions = Mutex<[String: Session]>([:])
    private let now: @Sendable () -> Date

    /// The session cookie's name.
    public static let cookieName = "susi_session"
    /// How long a session lasts.
    public static let sessionSeconds = 30 * 24 * 3600
    /// The most sessions kept at once.
    public static let maxSessions = 32

    private struct Session {
        /// The token the session was opened with; a rotated token ends it.
        let token: String
        let expires: Date
    }

    /// Access checked against `tokenFile`, open while `setupState` is in setup mode and no
    /// token exists yet.
    public init(tokenFile: OwnerTokenFile, setupState: SetupStateFile, now: @escaping @Sendable () -> Date = Date.init) {
        self.tokenFile = tokenFile
        self.setupState = setupState
        self.now = now
    }

    /// Makes the token when setup is finished and there is none (a speaker set up before
    /// tokens existed), so its control routes close on this start.
    public func ensureTokenAfterSetup() throws(SetupError) {
        if !setupState.isInSetupMode, !tokenFile.exists {
            try tokenFile.rotate()
        }
    }

    /// Back to setup mode (`susi setup --reset`). A new token first: whoever held the old one,
    /// and every session opened with it, is out at once; the one who finishes setup again gets
    /// a token of their own (`SetupStateFile.finishOnce`).
    public func resetSetup() throws(SetupError) {
        try tokenFile.rotate()
        try setupState.reset()
    }

    /// Whether `request` comes from the owner (or needs nobody, in setup mode before any token).
    public func isOwner(_ request: ServerRequest) -> Bool {
        guard let token = tokenFile.token else {
            // A file that exists but holds no valid token keeps everything closed.
            return !tokenFile.exists && setupState.isInSetupMode
        }
        if let bearer = Self.bearer(request), OwnerTokenFile.constantTimeEqual(token, bearer) {
            return true
        }
        guard let cookie = Self.cookie(Self.cookieName, in: request) else { return false }
        let moment = now()
        return sessions.withLock { sessions in
            guard let session = sessions[cookie] else { return false }
            guard session.expires > moment, OwnerTokenFile.constantTimeEqual(session.token, token) else {
                sessions[cookie] = nil
                return false
            }
            return true
        }
    }

    /// Opens a session for `token` when it is the owner token: the `Set-Cookie` header value
    /// to send, or nil for a wrong token.
    public func startSession(token candidate: String) -> String? {
        guard let token = tokenFile.token, OwnerTokenFile.constantTimeEqual(token, candidate) else { return nil }
        let id = OwnerTokenFile.generate()
        let moment = now()
        sessions.withLock { sessions in
            sessions = sessions.filter { $0.value.expires > moment && $0.value.token == token }
            while sessions.count >= Self.maxSessions, let oldest = sessions.min(by: { $0.value.expires < $1.value.expires }) {
                sessions[oldest.key] = nil
            }
            sessions[id] = Session(token: token, expires: moment.addingTimeInterval(Double(Self.sessionSeconds)))
        }
        return "\(Self.cookieName)=\(id); Path=/; Max-Age=\(Self.sessionSeconds); HttpOnly; SameSite=Strict"
    }

    /// The reply to a request that needed the owner: 401 with a JSON error.
    public static var unauthorized: ServerResponse {
        var response = ServerResponse.error(
            status: 401, code: "server-unauthorized",
            message: "this needs the speaker's owner token (susi setup token on the speaker): "
                + "send Authorization: Bearer <token>, or enter it on the speaker's web page")
        response.headers.append((name: "WWW-Authenticate", value: "Bearer realm=\"susi\""))
        return response
    }

    /// The token of an `Authorization: Bearer` header.
    static func bearer(_ request: ServerRequest) -> String? {
        guard let value = request.header("authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return parts[1].trimmingCharacters(in: .whitespaces)
    }

    /// The value of cookie `name` in the request's `Cookie` header(s).
    static func cookie(_ name: String, in request: ServerRequest) -> String? {
        guard let header = request.header("cookie") else { return nil }
        // Repeated Cookie headers arrive joined with ", "; cookies within one with "; ".
        for pair in header.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
