import Foundation
import SusiCore
import SusiModel
import SusiNet

/// `susi login` and `susi logout`: the SUSI.AI account of `brain.server`, its token kept in
/// `account.json` beside the config (0600) by `SetupAccountLink`. Neither the password nor the
/// token is returned or logged.
public enum AccountLogin {
    /// What a login says: whose it is and until when.
    public struct Session: Sendable, Equatable {
        /// The account's email in SUSI's anonymised form (`mario.rossi@...`).
        public let email: String
        /// When the token expires.
        public let expiresAt: Date
    }

    /// Logs in to `config`'s `brain.server` now over libcurl (logging to `logger`) and keeps
    /// the token beside the config of `store`. Blocks up to `max(brain.timeout_seconds, 10)`
    /// seconds; nothing waits for later on failure.
    /// - Throws: the login client's `SusiAPIError` (refused, offline, bad reply).
    public static func logIn(email: String, password: String, config: Config, store: ConfigStore, logger: Logger)
        throws(SusiAPIError) -> Session
    {
        var account = SetupAccountLink(store: store, logger: logger)
        account.timeout = max(config.brain.timeoutSeconds, 10)
        account.http = { CurlHTTPClient(stage: .brain, logger: logger) }
        let token = try account.logIn(email: email, password: password)
        return Session(email: SkillReview.anonymized(token.email), expiresAt: token.expiresAt)
    }

    /// Forgets the token kept beside the config of `store`.
    /// - Returns: whether there was one.
    /// - Throws: `SusiAPIError` when the file cannot be removed.
    public static func logOut(store: ConfigStore) throws(SusiAPIError) -> Bool {
        try AccountStore(configStore: store).remove()
    }
}
