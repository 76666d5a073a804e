import SusiCore
import SusiModel
import Synchronization

/// How the route groups read and change the config: reads and changes through one `LiveConfig`
/// (changes serialised by its write mutex: read, change, atomic save), so concurrent requests,
/// and the daemon's voice commands, never lose each other's changes, and the daemon sees each
/// change at once.
final class SetupConfigAccess: Sendable {
    /// The config file.
    let store: ConfigStore
    /// The one source of reads; nil only when the file was invalid when the service started.
    private let live: LiveConfig?
    /// Held by every change while there is no `live`.
    private let writes = Mutex(())
    private let logger: Logger

    /// Reads through `live`, or through a `LiveConfig` of its own that checks the file on every
    /// read, so edits from elsewhere count at once.
    init(store: ConfigStore, live: LiveConfig?, logger: Logger) {
        self.store = store
        self.logger = logger
        if let live {
            self.live = live
        } else {
            do throws(ConfigError) {
                self.live = try LiveConfig(store: store, interval: 0) { error in
                    logger.warning("\(error.code): \(error.message); using the last good config")
                }
            } catch {
                logger.warning("\(error.code): \(error.message); using the defaults until the file is valid")
                self.live = nil
            }
        }
    }

    /// The config in force: the file, or the last good one when the file has become invalid.
    var current: Config {
        if let live { return live.current }
        // The file was invalid at start, so there is no good one yet: the defaults stand in.
        return (try? store.load()) ?? Config()
    }

    /// Reads, changes and saves the config while holding the write mutex.
    func update(_ change: (inout Config) -> Void) throws(ConfigError) -> Config {
        if let live { return try live.update(change) }
        return try writes.withLock { _ throws(ConfigError) -> Config in try store.update(change) }
    }

    /// Changes one key through `ConfigStore.set` (validated, saved) while holding the write mutex.
    func set(_ key: String, to value: String) throws(ConfigError) -> Config {
        if let live { return try live.set(key, to: value) }
        return try writes.withLock { _ throws(ConfigError) -> Config in
            try store.set(key, to: value)
        }
    }
}

extension ConfigError {
    /// The HTTP status a config failure is answered with: 500 when the file cannot be written
    /// (the speaker's fault), else 400 (the request's value).
    var httpStatus: Int { kind == .unwritable ? 500 : 400 }

    /// The JSON error reply, naming `parameter` when the failure is about one.
    func response(parameter: String? = nil) -> ServerResponse {
        .json(ErrorReply(error: message, code: code, parameter: parameter), status: httpStatus)
    }
}

/// The JSON error shape of the setup routes: `{"error": message, "code": code, "parameter": name}`.
struct ErrorReply: Encodable {
    let error: String
    let code: String
    let parameter: String?
}
