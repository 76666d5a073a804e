import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiPipeline
import Synchronization

/// The speaker's side of Home Assistant: the names the brain and the recogniser know (fetched
/// from its REST API, kept in `home-assistant.json` in the cache directory), and the home
/// skill's `home_assistant` actions carried out as service calls and spoken answers.
///
/// The names are fetched in the background when none are cached for `home_assistant.url`, or
/// when the cached ones are older than `refreshInterval`; a failed fetch keeps the old names.
/// Blocking: `perform` waits for Home Assistant (at most `home_assistant.timeout_seconds` per
/// call). Safe from any thread.
public final class HomeAssistantLink: Sendable {
    /// How old the cached names may get before they are fetched again.
    public static let refreshInterval: TimeInterval = 15 * 60

    private let config: @Sendable () -> Config
    private let store: ConfigStore
    private let cacheDirectory: String
    private let http: any HTTPClient
    private let logger: Logger
    private let state: Mutex<State>

    private struct State {
        var names: HomeDirectory?
        var fetching = false
        /// When the last background fetch ended, successful or not: failures are retried after
        /// `refreshInterval` too, so a server that is down is not asked on every query.
        var lastAttempt: Date?
    }

    /// A link reading the live config through `config`, the token beside `store`'s config, and
    /// the cached names in `cacheDirectory`.
    public init(
        config: @escaping @Sendable () -> Config, store: ConfigStore, cacheDirectory: String, http: any HTTPClient,
        logger: Logger
    ) {
        self.config = config
        self.store = store
        self.cacheDirectory = cacheDirectory
        self.http = http
        self.logger = logger
        state = Mutex(State(names: HomeDirectory.read(from: cacheDirectory)))
    }

    /// The names for the brain: nil when no `home_assistant.url` is set; those cached for that
    /// URL (empty until the first fetch has ended). Starts a background fetch when due.
    public var names: HomeDirectory? {
        let url = config().homeAssistant.url
        guard !url.isEmpty else { return nil }
        let server = HomeAssistantClient.base(of: url)
        let (names, due) = state.withLock { state -> (HomeDirectory?, Bool) in
            let current = state.names?.server == server ? state.names : nil
            let stale = current.map { Date().timeIntervalSince($0.fetchedAt) > Self.refreshInterval } ?? true
            let waited = state.lastAttempt.map { Date().timeIntervalSince($0) > Self.refreshInterval } ?? true
            let due = stale && waited && !state.fetching
            if due { state.fetching = true }
            return (current, due)
        }
        if due { fetchInBackground() }
        return names ?? HomeDirectory(entities: [], areas: [], server: server, fetchedAt: .distantPast)
    }

    /// Fetches the names now, caches them and returns them.
    ///
    /// - Throws: `HomeAssistantError` when Home Assistant is not set up or cannot be asked; the
    ///   names known before stay.
    @discardableResult
    public func refresh() throws(HomeAssistantError) -> HomeDirectory {
        let client = try HomeAssistantClient(config: config(), store: store, http: http, logger: logger)
        let names = try client.directory()
        state.withLock { $0.names = names }
        do throws(ConfigError) {
            try names.write(to: cacheDirectory)
        } catch {
            logger.warning("cannot keep Home Assistant's names in \(cacheDirectory): \(error.message)")
        }
        logger.info("Home Assistant: \(names.entities.count) entities, \(names.areas.count) areas")
        return names
    }

    private func fetchInBackground() {
        let thread = Thread { [self] in
            do throws(HomeAssistantError) {
                try refresh()
            } catch {
                logger.warning("\(error.code): \(error.message)")
            }
            state.withLock {
                $0.fetching = false
                $0.lastAttempt = Date()
            }
        }
        thread.name = "susi-home"
        thread.start()
    }

    /// Carries out a `home_assistant` action of the home skill: what to say, and the failure
    /// to report. Only the built-in skills may ask: an answer from the network must not open
    /// the garage door.
    public func perform(_ action: HomeAssistantAction, from origin: AnswerOrigin) -> ActionOutcome {
        guard origin == .builtIn else {
            return ActionOutcome(
                say: "Sorry, I am not allowed to do that.",
                failure: HomeAssistantError(.failed, "only the built-in skills may control Home Assistant, not the server"))
        }
        guard let command = action.command else {
            return ActionOutcome(
                say: HomeAssistantErrorKind.failed.spoken,
                failure: HomeAssistantError(
                    .failed, "unknown home_assistant command \(action.fields["command"]?.jsonText ?? "none")"))
        }
        do throws(HomeAssistantError) {
            let client = try HomeAssistantClient(config: config(), store: store, http: http, logger: logger)
            let target: HomeTarget
            do throws(HomeAssistantError) {
                target = try self.target(ids: action.entityIDs, name: action.name, area: action.area, command: command)
            } catch {
                // No name found may mean no names fetched: a server that is down or refuses the
                // token says so, rather than "nothing by that name".
                try client.check()
                throw error
            }
            let value = action.value
            switch command {
            case .state:
                let states = try target.entities.prefix(8).map { entity throws(HomeAssistantError) in
                    try client.state(of: entity.id)
                }
                return ActionOutcome(say: HomeCommand.describe(states, asked: action.asked))
            case .reading:
                let states = try target.entities.prefix(8).map { entity throws(HomeAssistantError) in
                    try client.state(of: entity.id)
                }
                let place = HomeCommand.spoken(HomeTarget(name: target.name, entities: []))
                return ActionOutcome(
                    say: HomeCommand.reading(states, place: place)
                        ?? "Sorry, Home Assistant has no temperature for \(place).")
            default:
                switch command.calls(for: target, value: value) {
                case .failure(let refusal):
                    return ActionOutcome(say: refusal.sentence)
                case .success(let calls):
                    for call in calls { try client.call(call) }
                    return ActionOutcome(say: command.confirmation(for: target, value: value))
                }
            }
        } catch {
            logger.warning("\(error.code): \(error.message)")
            return ActionOutcome(say: error.kind.spoken, failure: error)
        }
    }

    /// The entities the action names, with the names known for them; "set the temperature to
    /// 21" without a name means the one thermostat, when there is exactly one.
    private func target(ids: String?, name: String?, area: String?, command: HomeCommand) throws(HomeAssistantError)
        -> HomeTarget
    {
        let names = state.withLock { $0.names } ?? HomeDirectory(entities: [], areas: [])
        guard let ids else {
            let thermostats = names.entities.filter { $0.domain == "climate" }
            if command == .temperature, thermostats.count == 1 {
                return HomeTarget(name: thermostats[0].name, entities: thermostats)
            }
            throw HomeAssistantError(.unknownEntity, "no Home Assistant entity or area was named")
        }
        let entities = ids.split(separator: ",").map { id in
            names.entity(String(id)) ?? HomeEntity(id: String(id), name: name ?? String(id))
        }
        guard let first = entities.first else {
            throw HomeAssistantError(.unknownEntity, "no Home Assistant entity in '\(ids.prefix(80))'")
        }
        return HomeTarget(name: name ?? first.name, entities: entities, area: names.areas.first { $0.id == area })
    }
}
