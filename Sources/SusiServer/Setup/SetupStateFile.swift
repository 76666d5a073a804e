import Foundation
import SusiCore
import SusiModel

/// Whether the speaker is in setup mode, kept in `setup-state.json` beside the config (0600).
///
/// Setup mode lasts from the first start (no file yet) until the apps' `/config` call finishes
/// setup; `susi setup --reset` starts it again. The file is read on every check, so a reset by
/// another process takes effect at once. A file that exists but cannot be read counts as
/// setup finished: the setup routes stay closed rather than open to the whole network by
/// accident (`susi setup --reset` rewrites it).
public struct SetupStateFile: Sendable, Equatable {
    /// The file's path.
    public let path: String

    /// A state file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The state file beside the config file of `store`.
    public init(configStore store: ConfigStore) {
        self.init(path: store.state.setupState)
    }

    /// Whether setup routes are open now.
    public var isInSetupMode: Bool {
        guard FileManager.default.fileExists(atPath: path) else { return true }
        return Self.setupMode(in: FileManager.default.contents(atPath: path))
    }

    /// Setup mode as the file's bytes say: on when there is no file, off when it cannot be read.
    private static func setupMode(in data: Data?) -> Bool {
        guard let data else { return true }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        return object["setup_mode"] as? Bool ?? false
    }

    /// Why setup mode came back on by itself (a failed Wi-Fi join), as recorded by
    /// `reset(now:reason:)`; nil when it did not (a fresh speaker, `susi setup --reset`).
    public var setupModeReason: String? {
        guard isInSetupMode else { return nil }
        return storedObject()?["setup_mode_reason"] as? String
    }

    /// Ends setup mode (the apps finished), recording when.
    public func finish(now: Date = Date()) throws(SetupError) {
        try write(setupMode: false, now: now)
    }

    /// Ends setup mode once: `handOver` (which makes the new owner's token) runs and setup
    /// mode ends under the file's lock, so of clients finishing setup at the same time exactly
    /// one gets what `handOver` returned.
    ///
    /// - Throws: `setup-not-in-setup-mode` when setup mode was already over (another client
    ///   finished first), or what `handOver` throws; then setup mode stays as it was.
    public func finishOnce<T>(now: Date = Date(), handOver: () throws(SetupError) -> T) throws(SetupError) -> T {
        var handed: T?
        var failure: SetupError?
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                guard Self.setupMode(in: data) else {
                    failure = SetupError(.notInSetupMode, "setup was already finished")
                    return .keep
                }
                do throws(SetupError) {
                    handed = try handOver()
                } catch {
                    failure = error
                    return .keep
                }
                var object = data.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] } ?? [:]
                object["setup_mode"] = false
                object["changed_at"] = Int(now.timeIntervalSince1970)
                return .replace(try Self.encode(object))
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
        if let failure { throw failure }
        guard let handed else { throw SetupError(.storeFailed, "setup state not written") }
        return handed
    }

    /// Starts setup mode again; `reason` says why when the speaker did it by itself (shown by
    /// `susi setup status` and the page), nil when a person asked.
    public func reset(now: Date = Date(), reason: String? = nil) throws(SetupError) {
        try write(setupMode: true, now: now, reason: reason)
    }

    /// The hotspot's phase (`HotspotPhase` raw value) and deadline (Unix seconds) as last
    /// recorded by `recordHotspot`, so a restart mid-way resumes; nil when never recorded.
    public var hotspot: (phase: String, deadline: Int?)? {
        guard let phase = storedObject()?["hotspot"] as? String else { return nil }
        return (phase, storedObject()?["hotspot_deadline"] as? Int)
    }

    /// Why the last `susi setup hotspot start` failed, as recorded by `recordHotspot`; nil
    /// after any later change of the hotspot's phase or a `stop`.
    public var hotspotFailure: String? {
        storedObject()?["hotspot_failure"] as? String
    }

    /// Records the hotspot's phase and deadline, and `failure` (nil clears an earlier one),
    /// keeping the setup-mode flag.
    public func recordHotspot(phase: String, deadline: Int?, failure: String? = nil) throws(SetupError) {
        let inSetupMode = isInSetupMode
        try modify { object in
            if object["setup_mode"] == nil { object["setup_mode"] = inSetupMode }
            object["hotspot"] = phase
            object["hotspot_deadline"] = deadline
            object["hotspot_failure"] = failure
        }
    }

    private func storedObject() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private func write(setupMode: Bool, now: Date, reason: String? = nil) throws(SetupError) {
        // The hotspot's fields stay: finishing setup must not forget that the hotspot is up.
        try modify { object in
            object["setup_mode"] = setupMode
            object["setup_mode_reason"] = reason
            object["changed_at"] = Int(now.timeIntervalSince1970)
        }
    }

    /// Changes the stored object under the file's lock, so the routes' setup-mode writes and
    /// the hotspot's never lose each other's fields (they may come from two processes).
    private func modify(_ change: (inout [String: Any]) -> Void) throws(SetupError) {
        do throws(ConfigError) {
            try AtomicFile.update(path) { data throws(ConfigError) in
                var object = data.flatMap { (try? JSONSerialization.jsonObject(with: $0)) as? [String: Any] } ?? [:]
                change(&object)
                return .replace(try Self.encode(object))
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
    }

    private static func encode(_ object: [String: Any]) throws(ConfigError) -> Data {
        guard let encoded = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw ConfigError(.unwritable, "cannot encode the setup state")
        }
        return encoded + Data("\n".utf8)
    }
}
