import Foundation
import SusiCore
import SusiModel

/// The web page's data routes beyond settings: `GET /events` (the pipeline's events as
/// Server-Sent Events), `GET /history` and `POST /history/clear`, `GET /timers` and
/// `POST /timers/cancel` (timers, alarms and reminders), `GET /lists` with `POST /lists/add`,
/// `/lists/remove` and `/lists/clear`, `GET /examples`, `GET /level`, `GET /hearing`, and
/// `GET /settings/keys` (every config key with its meaning, allowed values and whether the
/// page may change it).
///
/// Every route is the owner's (`OwnerAccess`: open in setup mode, else the token or the
/// page's session cookie; 401 otherwise), since what was said at home and the settings are
/// private. State changes are POSTs with JSON bodies; a part the dashboard lacks answers 503
/// `setup-unavailable` with a sentence the page shows.
struct DashboardRoutes: Sendable {
    let config: SetupConfigAccess
    let dashboard: SpeakerDashboard
    let access: OwnerAccess
    let logger: Logger

    /// Adds the routes to `router`.
    func install(on router: inout Router) {
        let owner = { [access] (handler: @escaping @Sendable (ServerRequest) -> ServerResponse) -> ServerHandler in
            { request in access.isOwner(request) ? handler(request) : OwnerAccess.unauthorized }
        }
        router.get("/events", owner { [self] _ in events() })
        router.get("/history", owner { [self] _ in history() })
        router.post("/history/clear", owner { [self] _ in clearHistory() })
        router.get("/timers", owner { [self] _ in timers() })
        router.post("/timers/cancel", owner { [self] in cancelTimer($0) })
        router.get("/lists", owner { [self] _ in lists() })
        router.post("/lists/add", owner { [self] in changeList($0, .add) })
        router.post("/lists/remove", owner { [self] in changeList($0, .remove) })
        router.post("/lists/clear", owner { [self] in changeList($0, .clear) })
        router.get("/examples", owner { [self] _ in .json(dashboard.examples()) })
        router.get("/level", owner { [self] _ in level() })
        router.get("/hearing", owner { [self] _ in hearing() })
        router.get("/settings/keys", owner { [self] _ in .json(object: keys()) })
        router.post("/location", owner { [self] in locate($0) })
    }

    private func unavailable(_ message: String) -> ServerResponse {
        .error(status: 503, code: SetupError.Kind.unavailable.rawValue, message: message)
    }

    private func events() -> ServerResponse {
        guard let broadcaster = dashboard.events else {
            return unavailable("the voice pipeline is not running (susi setup serve), so there is nothing to hear")
        }
        let stream = EventStream()
        let subscription = broadcaster.subscribe { event in stream.send(event: event.name, data: event.jsonLine) }
        stream.whenClosed { subscription.cancel() }
        return .eventStream(stream)
    }

    /// The `/history` reply.
    struct HistoryReply: Encodable {
        let privacy: Bool
        let capacity: Int
        let interactions: [InteractionLog.Interaction]
    }

    private func history() -> ServerResponse {
        guard let log = dashboard.history else { return unavailable("this server keeps no history") }
        return Self.json(HistoryReply(privacy: log.isPrivateNow, capacity: log.capacity, interactions: log.interactions))
    }

    private func clearHistory() -> ServerResponse {
        guard let log = dashboard.history else { return unavailable("this server keeps no history") }
        do throws(ConfigError) {
            try log.clear()
        } catch {
            return .internalError(error.message, code: error.code)
        }
        logger.info("history cleared from the web page")
        return history()
    }

    /// One timer, alarm or reminder as `/timers` lists it: `kind` is `timer`, `alarm` or
    /// `reminder`; `time` the clock time it was set for ("7 AM", null for a countdown);
    /// `repeats` `weekdays` or null.
    struct TimerReply: Encodable {
        let id: String
        let kind: String
        let text: String
        let due: Date
        let secondsLeft: Int
        let time: String?
        let repeats: String?

        enum CodingKeys: String, CodingKey {
            case id, kind, text, due, time, repeats
            case secondsLeft = "seconds_left"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(text, forKey: .text)
            try container.encode(due, forKey: .due)
            try container.encode(secondsLeft, forKey: .secondsLeft)
            // Written as null, not left out: the page tells a countdown by it.
            try container.encode(time, forKey: .time)
            try container.encode(repeats, forKey: .repeats)
        }
    }

    private func timers() -> ServerResponse {
        guard let planned = dashboard.timers else { return unavailable("timers are not available here") }
        let now = Date()
        let list = planned.pending.map { entry in
            TimerReply(
                id: entry.id, kind: entry.kind.rawValue, text: entry.text, due: entry.due,
                secondsLeft: max(Int(entry.due.timeIntervalSince(now).rounded(.up)), 0), time: entry.spokenTime,
                repeats: entry.repeats?.rawValue)
        }
        return Self.json(["timers": list])
    }

    /// `POST /timers/cancel` with `{"id": ...}` from `/timers`.
    private func cancelTimer(_ request: ServerRequest) -> ServerResponse {
        guard let planned = dashboard.timers else { return unavailable("timers are not available here") }
        guard case .string(let id)? = (try? JSONValue.parse(request.body))?["id"] else {
            return SetupError.bad("id", "the body must be a JSON object {\"id\": ...} naming a timer from /timers").response
        }
        do throws(ConfigError) {
            guard let cancelled = try planned.cancel(id: id) else {
                return .error(status: 404, code: "setup-no-such-timer", message: "that timer is not running any more")
            }
            logger.info("timer \"\(cancelled.text)\" cancelled from the web page")
        } catch {
            return .internalError(error.message, code: error.code)
        }
        return timers()
    }

    /// One named list as `/lists` gives it.
    struct ListReply: Encodable {
        let name: String
        let items: [String]
    }

    private func lists() -> ServerResponse {
        guard let lists = dashboard.lists else { return unavailable("lists are not kept here") }
        return Self.json(["lists": lists.names.map { ListReply(name: $0, items: lists.items($0)) }])
    }

    /// What a `/lists/...` POST does.
    enum ListChange {
        case add, remove, clear
    }

    /// `POST /lists/add` and `/lists/remove` with `{"list": ..., "item": ...}`, `POST /lists/clear`
    /// with `{"list": ...}`: the lists as `/lists` gives them, or 404 for an item (or list) that
    /// is not there.
    private func changeList(_ request: ServerRequest, _ change: ListChange) -> ServerResponse {
        guard let lists = dashboard.lists else { return unavailable("lists are not kept here") }
        let body = try? JSONValue.parse(request.body)
        guard case .string(let spoken)? = body?["list"], case let name = NamedLists.name(spoken), !name.isEmpty else {
            return SetupError.bad("list", "the body must be a JSON object {\"list\": ...} naming a list").response
        }
        var item = ""
        if change != .clear {
            guard case .string(let given)? = body?["item"], !given.trimmingCharacters(in: .whitespaces).isEmpty,
                given.count <= 200
            else {
                return SetupError.bad("item", "the body must name an \"item\" (up to 200 characters)").response
            }
            item = given
        }
        do throws(ConfigError) {
            switch change {
            case .add:
                try lists.add(item, to: name)
            case .remove:
                guard try lists.remove(item, from: name) == .done else {
                    return .error(status: 404, code: "setup-no-such-item", message: "that item is not on the list")
                }
            case .clear:
                guard try lists.clear(name) > 0 else {
                    return .error(status: 404, code: "setup-no-such-list", message: "that list is empty")
                }
            }
        } catch {
            return .internalError(error.message, code: error.code)
        }
        logger.info("\(name) list changed from the web page")
        return self.lists()
    }

    /// `POST /location` with `{"place": "Berlin"}` or `{"place": "52.52,13.40"}`.
    private func locate(_ request: ServerRequest) -> ServerResponse {
        guard let locate = dashboard.locate else { return unavailable("the location cannot be set here") }
        guard case .string(let place)? = (try? JSONValue.parse(request.body))?["place"] else {
            return SetupError.bad("place", "the body must be a JSON object {\"place\": ...}").response
        }
        do throws(ConfigError) {
            let said = try locate(place)
            logger.info("location set from the web page: \(said)")
            return .json(object: ["location": said])
        } catch {
            return .error(status: 400, code: error.code, message: error.message)
        }
    }

    /// The `/level` reply.
    struct LevelReply: Encodable {
        let phase: String
        let level: Double
    }

    private func level() -> ServerResponse {
        guard let pipeline = dashboard.pipeline else {
            return unavailable("the voice pipeline is not running, so the microphone is not open")
        }
        return .json(LevelReply(phase: pipeline.phase.rawValue, level: (pipeline.level * 1000).rounded() / 1000))
    }

    private func hearing() -> ServerResponse {
        let current = config.current
        var reply: [String: Any] = [
            "wake": [
                "enabled": current.hotword.enabled, "phrase": current.hotword.phrase, "engine": current.hotword.engine,
                "threshold": current.hotword.threshold, "neural_threshold": current.hotword.neuralThreshold,
                "verify": current.hotword.verify, "verify_margin": current.hotword.verifyMargin,
            ] as [String: Any]
        ]
        if let describe = dashboard.wakeEngine, var wake = reply["wake"] as? [String: Any] {
            wake["detector"] = describe(current)
            reply["wake"] = wake
        }
        if let today = dashboard.hearing?.today {
            reply["today"] =
                [
                    "day": today.day, "wakes": today.wakes, "likely_false_wakes": today.likelyFalseWakes,
                    "commands_heard": today.commandsHeard,
                ] as [String: Any]
        } else {
            reply["today"] = NSNull()
        }
        return .json(object: reply)
    }

    /// Every config key for the page's full settings list: `key`, `summary`, `allowed`,
    /// `kind` (`bool`, `number`, `text`, `list`), `value` (as text, `susi config get` style),
    /// `editable` and `restart`.
    private func keys() -> [[String: Any]] {
        let current = config.current
        return ConfigSchema.keys.map { key in
            let value = key.value(in: current)
            let kind: String
            switch value {
            case .bool: kind = "bool"
            case .int, .double: kind = "number"
            case .list: kind = "list"
            case .string, .null: kind = "text"
            }
            let text: String = if case .null = value { "" } else { value.description }
            return [
                "key": key.name, "summary": key.summary, "allowed": key.allowed, "kind": kind, "value": text,
                "editable": SettingsRoutes.keys.contains(key.name), "restart": key.needsRestart,
            ]
        }
            + ConfigSchema.secrets.map { secret in
                // The value stays on the speaker: the page learns only whether one is set.
                [
                    "key": secret.name, "summary": secret.summary, "allowed": secret.allowed, "kind": "secret", "value": "",
                    "set": secret.isSet(store: config.store), "editable": true, "restart": false,
                ]
            }
    }

    /// JSON with dates as ISO 8601, as the page shows them.
    private static func json(_ value: some Encodable) -> ServerResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = Timestamp.encoding
        guard let data = try? encoder.encode(value) else {
            return .internalError("reply could not be encoded as JSON", code: "server-encoding-failed")
        }
        return ServerResponse(contentType: ServerResponse.jsonContentType, body: data)
    }
}
