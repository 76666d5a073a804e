import Foundation
import SusiModel
import SusiServer
import Synchronization

/// A Home Assistant on 127.0.0.1 that speaks the documented subset of its REST API the
/// speaker uses, from the project's own HTTP server (libmicrohttpd):
///
/// - `GET /api/`: `{"message": "API running."}`;
/// - `GET /api/states`, `GET /api/states/<entity_id>` (404 `{"message": "Entity not found."}`);
/// - `POST /api/services/<domain>/<service>` with a JSON body: recorded in `calls`, applied to
///   the states (`turn_on`/`turn_off`, `brightness_pct`, `set_temperature`, `open_cover`/
///   `close_cover`), answered with the changed states;
/// - `POST /api/template`: the areas template (anything mentioning `areas()`) rendered as the
///   JSON list it asks for; other templates 400.
///
/// Every route wants `Authorization: Bearer <token>`, else 401 as Home Assistant answers.
public final class FakeHomeAssistant: Sendable {
    /// One recorded service call.
    public struct Call: Sendable, Equatable {
        /// `light.turn_on`.
        public var service: String
        /// The JSON body sent.
        public var body: JSONValue

        /// A call record.
        public init(service: String, body: JSONValue) {
            self.service = service
            self.body = body
        }
    }

    private struct State {
        var states: [String: HomeState] = [:]
        var order: [String] = []
        var calls: [Call] = []
    }

    /// The states and calls, shared by the routes and the test.
    private final class Box: Sendable {
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }
    }

    /// The accepted token.
    public let token: String
    /// `http://127.0.0.1:PORT`.
    public let base: String
    private let server: HTTPServer
    private let state: Box
    private let areas: [HomeArea]

    /// A running fake with `states` and `areas`; `stop()` (or deinit) stops it.
    public init(token: String = "test-token-0123456789", states: [HomeState], areas: [HomeArea]) throws {
        var initial = State()
        for item in states {
            initial.states[item.entityID] = item
            initial.order.append(item.entityID)
        }
        let state = Box(initial)
        self.state = state
        self.token = token
        self.areas = areas
        var router = Router()
        let authorized = { @Sendable (request: ServerRequest) -> Bool in request.header("Authorization") == "Bearer " + token }
        let unauthorized = ServerResponse(status: 401, contentType: "text/plain", body: Data("401: Unauthorized".utf8))
        @Sendable func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
            ServerResponse(status: status, contentType: "application/json", body: Data(value.jsonText.utf8))
        }
        router.get("/api") { request in
            authorized(request) ? json(["message": "API running."]) : unauthorized
        }
        router.get("/api/states") { request in
            guard authorized(request) else { return unauthorized }
            return json(.array(state.withLock { s in s.order.compactMap { s.states[$0].map(Self.json) } }))
        }
        router.get("/api/states/:id") { request in
            guard authorized(request) else { return unauthorized }
            guard let id = request.pathParameters["id"], let found = state.withLock({ $0.states[id] }) else {
                return json(["message": "Entity not found."], status: 404)
            }
            return json(Self.json(found))
        }
        router.post("/api/services/:domain/:service") { request in
            guard authorized(request) else { return unauthorized }
            guard let body = try? JSONValue.parse(request.body), body.objectValue != nil else {
                return json(["message": "Data should be valid JSON."], status: 400)
            }
            let domain = request.pathParameters["domain"] ?? ""
            let service = request.pathParameters["service"] ?? ""
            let changed = state.withLock { s -> [JSONValue] in
                s.calls.append(Call(service: domain + "." + service, body: body))
                let ids =
                    body["entity_id"]?.arrayValue?.compactMap(\.stringValue) ?? [body["entity_id"]?.stringValue].compactMap { $0 }
                return ids.compactMap { id in
                    guard var item = s.states[id] else { return nil }
                    Self.apply(service, body: body, to: &item)
                    s.states[id] = item
                    return Self.json(item)
                }
            }
            return json(.array(changed))
        }
        router.post("/api/template") { request in
            guard authorized(request) else { return unauthorized }
            guard let template = (try? JSONValue.parse(request.body))?["template"]?.stringValue,
                template.contains("areas()")
            else {
                return ServerResponse(
                    status: 400, contentType: "application/json", body: Data("{\"message\":\"Error rendering template\"}".utf8))
            }
            let list = JSONValue.array(
                areas.map {
                    ["id": .string($0.id), "name": .string($0.name), "entities": .array($0.entities.map(JSONValue.string))]
                })
            return ServerResponse(contentType: "text/plain; charset=utf-8", body: Data(list.jsonText.utf8))
        }
        server = HTTPServer(host: "127.0.0.1", port: 0, router: router)
        try server.start()
        base = "http://127.0.0.1:\(server.port ?? 0)"
    }

    deinit {
        server.stop()
    }

    /// Stops answering; later requests are refused.
    public func stop() {
        server.stop()
    }

    /// The service calls received, in order.
    public var calls: [Call] {
        state.withLock { $0.calls }
    }

    /// An entity's current state.
    public func state(of id: String) -> HomeState? {
        state.withLock { $0.states[id] }
    }

    private static func json(_ state: HomeState) -> JSONValue {
        [
            "entity_id": .string(state.entityID), "state": .string(state.state), "attributes": .object(state.attributes),
            "last_changed": "2026-12-05T12:00:00+00:00",
        ]
    }

    private static func apply(_ service: String, body: JSONValue, to item: inout HomeState) {
        switch service {
        case "turn_on":
            item.state = "on"
            if let percent = body["brightness_pct"]?.doubleValue {
                item.attributes["brightness"] = .number((percent * 255 / 100).rounded())
            }
        case "turn_off": item.state = "off"
        case "open_cover": item.state = "open"
        case "close_cover": item.state = "closed"
        case "set_temperature":
            if let value = body["temperature"] { item.attributes["temperature"] = value }
        default: break
        }
    }
}
