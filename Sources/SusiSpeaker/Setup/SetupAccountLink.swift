import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiServer

/// The `/auth` route's `AccountLinking`: logs in to `brain.server` with the SUSI login client
/// and stores the token in `account.json`; when the server cannot be reached (the usual case
/// while the speaker is on its own hotspot) the credentials wait in `PendingLoginFile` (0600)
/// and `retryPending()` logs in later.
///
/// A refused login keeps nothing. Neither the password nor the token is ever logged; the email
/// only in SUSI's anonymised form.
public struct SetupAccountLink: AccountLinking {
    /// The config whose `brain.server` is logged in to, and beside which the account is kept.
    public let store: ConfigStore
    /// Hears deferred and dropped logins, never secrets.
    public let logger: Logger
    /// Seconds one login attempt may take; short, so the app's `/auth` call does not hang.
    public var timeout: Double = 4
    /// Makes the HTTP client (tests pass one aimed at a loopback server).
    public var http: @Sendable () -> any HTTPClient = { CurlHTTPClient(stage: .brain) }
    /// Called after `/auth` logged in (the setup server then registers the device at once).
    public var onLoggedIn: @Sendable () -> Void = {}
    /// Takes the speaker off the account's device list when the person chooses no account.
    public var registration: DeviceRegistration?

    /// Where credentials wait for the speaker to come online.
    public var pending: PendingLoginFile { PendingLoginFile(configStore: store) }

    /// An account link for `store`, logging to `logger`.
    public init(store: ConfigStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    public func link(email: String, password: String) throws(SetupError) -> AccountLinkResult {
        let credentials = PendingLoginFile.Credentials(email: email, password: password)
        switch attempt(credentials) {
        case .loggedIn:
            try pending.remove()
            onLoggedIn()
            return .loggedIn
        case .refused(let error):
            try pending.remove()
            throw SetupError(.loginRefused, error.message)
        case .offline(let error):
            logger.info("SUSI login deferred (\(error.code)); keeping the account for later")
            try pending.save(credentials)
            return .pending
        }
    }

    /// Forgets a pending login, removes the stored one (chat requests go without a token from
    /// now on), then takes the speaker off that account's devices (`registration`). The token
    /// is removed first, so the background registration cannot add the speaker again meanwhile.
    public func signOut() throws(SetupError) {
        try pending.remove()
        let account = AccountStore(configStore: store)
        var signedOut: AccountToken?
        if case .loggedIn(let token) = account.state() { signedOut = token }
        do throws(SusiAPIError) {
            if try account.remove() {
                logger.info("signed out of SUSI\(signedOut.map { " (\(SkillReview.anonymized($0.email)))" } ?? "")")
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
        registration?.unregister(token: signedOut)
    }

    /// Tries the pending login, if any; returns whether one was done (or refused and dropped).
    /// Call it when the speaker may have come online (at start, then every minute or so).
    @discardableResult
    public func retryPending() -> Bool {
        guard let credentials = pending.load() else { return false }
        switch attempt(credentials) {
        case .loggedIn:
            try? pending.remove(ifStill: credentials)
            logger.info("pending SUSI login done")
            return true
        case .refused(let error):
            try? pending.remove(ifStill: credentials)
            logger.warning("the SUSI server refused the pending login (\(error.code)); it was dropped")
            return true
        case .offline:
            return false
        }
    }

    private enum Outcome {
        case loggedIn
        case refused(SusiAPIError)
        case offline(SusiAPIError)
    }

    /// Logs in to `brain.server` now and keeps the token; nothing waits on failure.
    /// - Throws: the login client's `SusiAPIError` (refused, offline, bad reply).
    @discardableResult
    public func logIn(email: String, password: String) throws(SusiAPIError) -> AccountToken {
        let server = ((try? store.load()) ?? Config()).brain.server
        let client = SusiAccountClient(server: server, http: http(), timeout: timeout, logger: logger)
        let token = try client.logIn(email: email, password: password)
        try AccountStore(configStore: store).save(token)
        return token
    }

    private func attempt(_ credentials: PendingLoginFile.Credentials) -> Outcome {
        do throws(SusiAPIError) {
            try logIn(email: credentials.email, password: credentials.password)
            return .loggedIn
        } catch {
            switch error.kind {
            case .unauthorized, .rejected, .badInput:
                return .refused(error)
            default:
                return .offline(error)
            }
        }
    }
}
