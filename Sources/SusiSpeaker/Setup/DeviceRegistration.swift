import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiServer

/// Puts the speaker in its owner's SUSI device list once the account is linked, as susi_linux
/// did: `SusiAccountClient` with the primary interface's MAC, the device name, the room the apps
/// set and the configured location.
///
/// What was registered is kept in `device-registration.json` beside the config, so the call is
/// made only when something changed (a new account, room or location) and repeating
/// `registerIfNeeded()` costs nothing otherwise. Offline is not an error: the background retry
/// (`PendingLoginRetry`) tries again a minute later.
public struct DeviceRegistration: Sendable {
    /// What one attempt did.
    public enum Outcome: Sendable, Equatable {
        /// Registered now.
        case registered
        /// Already registered with these values; no call made.
        case upToDate
        /// No account is linked (anonymous use, or the login still waits); no call made.
        case notLoggedIn
        /// No network interface with a MAC address; no call made.
        case noMAC
        /// The server could not be reached or failed; tried again later.
        case failed(code: String)
    }

    /// The config (server, room, location) and the directory of the account and the record.
    public let store: ConfigStore
    /// Hears registrations and failures, never the token.
    public let logger: Logger
    /// The name shown in the apps' device list.
    public var name = "SUSI.AI Speaker"
    /// Seconds one attempt may take.
    public var timeout: Double = 8
    /// Makes the HTTP client (tests pass one aimed at a loopback server).
    public var http: @Sendable () -> any HTTPClient = { CurlHTTPClient(stage: .brain) }
    /// The MAC address to register.
    public var mac: @Sendable () -> String? = { NetworkInterfaces().primaryMAC() }

    /// A registration for the speaker configured in `store`.
    public init(store: ConfigStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Where the last successful registration is recorded.
    public var recordPath: String { store.state.deviceRegistration }

    /// Registers when logged in and the registered values differ from the current ones.
    @discardableResult
    public func registerIfNeeded(now: Date = Date()) -> Outcome {
        let config = (try? store.load()) ?? Config()
        guard let token = AccountStore(configStore: store).token(for: config.brain.server, now: now) else {
            return .notLoggedIn
        }
        guard let macid = mac() else {
            logger.warning("no network interface with a MAC address; the speaker is not added to the SUSI account")
            return .noMAC
        }
        let entry = DeviceEntry(
            macid: macid, name: name, room: config.room, latitude: config.location.latitude,
            longitude: config.location.longitude)
        let record = Self.record(entry, token: token)
        if let data = FileManager.default.contents(atPath: recordPath),
            (try? JSONSerialization.jsonObject(with: data)) as? [String: String] == record
        {
            return .upToDate
        }
        do throws(SusiAPIError) {
            try SusiAccountClient(server: config.brain.server, http: http(), timeout: timeout, logger: logger).add(
                entry, token: token)
        } catch {
            logger.info("adding the speaker to the SUSI account failed (\(error.code)); trying again later")
            return .failed(code: error.code)
        }
        if let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) {
            do throws(ConfigError) {
                try ConfigStore.writeAtomically(data, to: recordPath)
            } catch {
                logger.warning("registered, but cannot record it (\(error.message)); it will be repeated")
            }
        }
        return .registered
    }

    /// Takes the speaker off the account's device list after a sign-out, with `token`, the
    /// login signed out of (nil when there was none, or it had expired), and forgets the
    /// registration. `registerIfNeeded()` registers nothing without a login; where the server
    /// cannot be told (no login to ask with, offline, refused) a log line says the entry stays
    /// in the account's list. Bounded by `timeout`, at most 4 s: the apps wait for it.
    public func unregister(token: AccountToken?) {
        let data = FileManager.default.contents(atPath: recordPath)
        guard let record = data.flatMap({ (try? JSONSerialization.jsonObject(with: $0)) as? [String: String] }),
            let macid = record["macid"], let server = record["server"]
        else { return }
        let account = record["email"].map { " of \(SkillReview.anonymized($0))" } ?? ""
        do throws(ConfigError) {
            try AtomicFile.update(recordPath) { _ throws(ConfigError) in .remove }
        } catch {
            logger.warning("cannot forget the device registration (\(error.message))")
        }
        guard let token, token.belongs(to: server) else {
            logger.info(
                "no longer adding the speaker to the SUSI account\(account); without its login it stays in that "
                    + "account's device list until removed in the SUSI app")
            return
        }
        do throws(SusiAPIError) {
            try SusiAccountClient(server: server, http: http(), timeout: min(timeout, 4), logger: logger).remove(
                macid: macid, token: token)
            logger.info("the speaker was taken off the SUSI account\(account)")
        } catch {
            logger.info(
                "no longer adding the speaker to the SUSI account\(account); taking it off the account's device list "
                    + "failed (\(error.code)): remove it in the SUSI app")
        }
    }

    /// The values a registration is checked against: the account (never its token) and the entry.
    private static func record(_ entry: DeviceEntry, token: AccountToken) -> [String: String] {
        [
            "server": token.server, "email": token.email, "macid": entry.macid, "name": entry.name, "room": entry.room,
            "latitude": entry.latitude.map { String($0) } ?? "", "longitude": entry.longitude.map { String($0) } ?? "",
        ]
    }
}
