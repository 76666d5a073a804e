import Foundation
import SusiCore
import SusiModel

/// A SUSI login the apps sent while the speaker was offline, kept until it can be done.
///
/// `pending-login.json` beside the config, mode 0600 in a 0700 directory, written atomically:
/// the same protection as the Wi-Fi passphrase in the wpa_supplicant file and the token in
/// `account.json`. It is removed as soon as the login succeeds or the server refuses it, and
/// its content never goes into a reply or a log line.
public struct PendingLoginFile: StateFile, Sendable, Equatable {
    public static var location: KeyPath<StateDirectory, String> { \.pendingLogin }

    /// One stored login.
    public struct Credentials: Sendable, Equatable, CustomStringConvertible {
        /// The account's email address.
        public var email: String
        /// The password, as the apps sent it.
        public var password: String

        /// Creates credentials.
        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }

        /// Never shows the password.
        public var description: String { "login for \(email)" }
    }

    /// The file's path.
    public let path: String

    /// A file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The stored credentials, or nil when there are none (or the file is unusable).
    public func load() -> Credentials? {
        FileManager.default.contents(atPath: path).flatMap(Self.credentials)
    }

    private static func credentials(in data: Data) -> Credentials? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let email = object["email"] as? String, let password = object["password"] as? String,
            !email.isEmpty, !password.isEmpty
        else { return nil }
        return Credentials(email: email, password: password)
    }

    /// Stores `credentials`, replacing any earlier ones.
    public func save(_ credentials: Credentials) throws(SetupError) {
        let object = ["email": credentials.email, "password": credentials.password]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw SetupError(.storeFailed, "cannot encode the pending login")
        }
        do throws(ConfigError) {
            try AtomicFile.write(data + Data("\n".utf8), to: path)
        } catch {
            throw SetupError(.storeFailed, "cannot keep the login for later: \(error.message)")
        }
    }

    /// Removes the file, under its lock so a save in progress elsewhere is not torn; idempotent.
    public func remove() throws(SetupError) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do throws(ConfigError) {
            try AtomicFile.update(path) { _ throws(ConfigError) in .remove }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
    }

    /// Removes the file only if it still holds `credentials`: a login tried in the background
    /// must not drop newer credentials the apps sent while it was being tried.
    public func remove(ifStill credentials: Credentials) throws(SetupError) {
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                data.flatMap(Self.credentials) == credentials ? .remove : .keep
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
    }
}
