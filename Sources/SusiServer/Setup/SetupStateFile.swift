import Foundation
import SusiCore

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
        self.init(path: (store.directory as NSString).appendingPathComponent("setup-state.json"))
    }

    /// Whether setup routes are open now.
    public var isInSetupMode: Bool {
        guard FileManager.default.fileExists(atPath: path) else { return true }
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let flag = object["setup_mode"] as? Bool
        else { return false }
        return flag
    }

    /// Ends setup mode (the apps finished), recording when.
    public func finish(now: Date = Date()) throws(SetupError) {
        try write(setupMode: false, now: now)
    }

    /// Starts setup mode again.
    public func reset(now: Date = Date()) throws(SetupError) {
        try write(setupMode: true, now: now)
    }

    /// The hotspot's phase (`HotspotPhase` raw value) and deadline (Unix seconds) as last
    /// recorded by `recordHotspot`, so a restart mid-way resumes; nil when never recorded.
    public var hotspot: (phase: String, deadline: Int?)? {
        guard let phase = storedObject()?["hotspot"] as? String else { return nil }
        return (phase, storedObject()?["hotspot_deadline"] as? Int)
    }

    /// Records the hotspot's phase and deadline, keeping the setup-mode flag.
    public func recordHotspot(phase: String, deadline: Int?) throws(SetupError) {
        let inSetupMode = isInSetupMode
        try modify { object in
            if object["setup_mode"] == nil { object["setup_mode"] = inSetupMode }
            object["hotspot"] = phase
            object["hotspot_deadline"] = deadline
        }
    }

    private func storedObject() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    private func write(setupMode: Bool, now: Date) throws(SetupError) {
        // The hotspot's fields stay: finishing setup must not forget that the hotspot is up.
        try modify { object in
            object["setup_mode"] = setupMode
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
                guard let encoded = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
                    throw ConfigError(.unwritable, "cannot encode the setup state")
                }
                return .replace(encoded + Data("\n".utf8))
            }
        } catch {
            throw SetupError(.storeFailed, error.message)
        }
    }
}
