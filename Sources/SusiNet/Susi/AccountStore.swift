import Foundation
import SusiCore
import SusiModel

/// The stored SUSI.AI login: `account.json` beside the config file, mode 0600.
///
/// Reading an expired token removes the file, so a stale token is never sent; callers
/// tell the person to log in again (see `AccountStore.State`). Safe to use from several
/// threads and processes: every call reads or replaces the whole file atomically, and changes
/// hold the file's lock (`AtomicFile`).
public struct AccountStore: Sendable {
    /// What `state(now:)` found.
    public enum State: Sendable, Equatable {
        /// No login stored.
        case loggedOut
        /// A valid token.
        case loggedIn(AccountToken)
        /// The stored token had expired and has just been removed.
        case expired(email: String)
    }

    /// The account file's path.
    public let path: String

    /// A store at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The store beside a config file (`StateDirectory.account`).
    public init(configStore: ConfigStore) {
        self.init(path: configStore.state.account)
    }

    /// The login state; an expired token is removed on the way (that removal may fail
    /// silently, the token is reported expired anyway and never used).
    public func state(now: Date = Date()) -> State {
        guard let data = FileManager.default.contents(atPath: path),
            let json = try? JSONValue.parse(data), let token = AccountToken(json: json)
        else { return .loggedOut }
        if token.isExpired(at: now) {
            removeIfExpired(at: now)
            return .expired(email: token.email)
        }
        return .loggedIn(token)
    }

    /// The valid token for `server`, or nil (logged out, expired, or issued by another server).
    public func token(for server: String, now: Date = Date()) -> AccountToken? {
        guard case .loggedIn(let token) = state(now: now), token.belongs(to: server) else { return nil }
        return token
    }

    /// The valid token for `server`, or the error that tells the person to log in.
    public func requireToken(for server: String, now: Date = Date()) throws(SusiAPIError) -> AccountToken {
        switch state(now: now) {
        case .loggedOut:
            throw SusiAPIError(.account, .notLoggedIn, message: "not logged in; run `susi login` first")
        case .expired(let email):
            let who = email.isEmpty ? "" : " for \(SkillReview.anonymized(email))"
            throw SusiAPIError(
                .account, .tokenExpired, message: "the SUSI login\(who) has expired; run `susi login` again")
        case .loggedIn(let token):
            guard token.belongs(to: server) else {
                throw SusiAPIError(
                    .account, .notLoggedIn,
                    message: "logged in to \(token.server), not \(server); run `susi login` first")
            }
            return token
        }
    }

    /// Saves `token` atomically with mode 0600, replacing any previous login.
    public func save(_ token: AccountToken) throws(SusiAPIError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(token.jsonObject) else {
            throw SusiAPIError(.account, .storeFailed, message: "cannot encode the account file")
        }
        do throws(ConfigError) {
            try AtomicFile.write(data + Data("\n".utf8), to: path)
        } catch {
            throw SusiAPIError(.account, .storeFailed, message: error.message)
        }
    }

    /// Removes the stored login; returns whether there was one. Idempotent.
    @discardableResult
    public func remove() throws(SusiAPIError) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        var existed = false
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                existed = data != nil
                return .remove
            }
        } catch {
            throw SusiAPIError(.account, .storeFailed, message: error.message)
        }
        return existed
    }

    /// Removes the file if it still holds an expired token: a login another process saved
    /// since it was read stays. Failure is silent; the expired token is never used anyway.
    func removeIfExpired(at now: Date) {
        try? AtomicFile.update(path) { data throws(ConfigError) in
            guard let data, let json = try? JSONValue.parse(data), let token = AccountToken(json: json),
                token.isExpired(at: now)
            else { return .keep }
            return .remove
        }
    }
}
