import Foundation
import SusiCore
import SusiModel

/// Home Assistant's REST API (`/api/...` with a long-lived access token as Bearer token):
/// entity states, service calls, and the template renderer for the areas, which the REST API
/// has no route of their own for.
///
/// Blocking: each call waits for the HTTP client, at most `timeout` seconds. Failures are
/// `HomeAssistantError`s whose messages name the URL, never the token. Safe from any thread.
public struct HomeAssistantClient: Sendable {
    /// The server's base URL, without a trailing slash.
    public let server: String
    private let token: String
    private let http: any HTTPClient
    private let timeout: Double
    private let logger: Logger

    /// A client for `server` with `token`; `timeout` is the whole-request limit in seconds.
    public init(server: String, token: String, http: any HTTPClient, timeout: Double = 5, logger: Logger = .silent) {
        self.server = Self.base(of: server)
        self.token = token
        self.http = http
        self.timeout = timeout
        self.logger = logger
    }

    /// `server` as the client uses it and `HomeDirectory.server` names it: no blanks around it,
    /// no trailing slash.
    public static func base(of server: String) -> String {
        var base = server.trimmingCharacters(in: .whitespaces)
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The client `config` and the token stored beside `store`'s config describe.
    ///
    /// - Throws: `home-not-configured` when the URL or the token is missing.
    public init(config: Config, store: ConfigStore, http: any HTTPClient, logger: Logger = .silent)
        throws(HomeAssistantError)
    {
        guard !config.homeAssistant.url.isEmpty else {
            throw HomeAssistantError(.notConfigured, "home_assistant.url is not set")
        }
        guard let token = ConfigSchema.secret(named: "home_assistant.token")?.value(store: store) else {
            throw HomeAssistantError(.notConfigured, "home_assistant.token is not set (susi config set home_assistant.token -)")
        }
        self.init(
            server: config.homeAssistant.url, token: token, http: http, timeout: config.homeAssistant.timeoutSeconds,
            logger: logger)
    }

    /// `GET /api/`: whether the server answers and takes the token; its message ("API running.").
    @discardableResult
    public func check() throws(HomeAssistantError) -> String {
        let reply = try json(try send(path: "/api/"))
        return reply["message"]?.stringValue ?? ""
    }

    /// `GET /api/states`: every entity's state.
    public func states() throws(HomeAssistantError) -> [HomeState] {
        guard let list = try json(try send(path: "/api/states")).arrayValue else {
            throw HomeAssistantError(.failed, "\(server)/api/states did not answer with a list")
        }
        return list.compactMap(HomeState.init(json:))
    }

    /// `GET /api/states/<id>`: one entity's state.
    ///
    /// - Throws: `home-unknown-entity` for an id Home Assistant does not know (or that is not
    ///   an entity id at all).
    public func state(of id: String) throws(HomeAssistantError) -> HomeState {
        guard Self.isName(id, dotted: true) else {
            throw HomeAssistantError(.unknownEntity, "'\(id.prefix(80))' is not an entity id")
        }
        guard let state = HomeState(json: try json(try send(path: "/api/states/" + id))) else {
            throw HomeAssistantError(.failed, "\(server)/api/states/\(id) did not answer with a state")
        }
        return state
    }

    /// `POST /api/services/<domain>/<service>` with the call's data as JSON.
    public func call(_ call: HomeServiceCall) throws(HomeAssistantError) {
        guard Self.isName(call.domain, dotted: false), Self.isName(call.service, dotted: false) else {
            throw HomeAssistantError(.failed, "'\(call.domain).\(call.service)' is not a service name")
        }
        let path = "/api/services/\(call.domain)/\(call.service)"
        _ = try send(path: path, body: JSONValue.object(call.data).jsonText)
        logger.info("called \(call.domain).\(call.service) for \(call.data["entity_id"]?.jsonText ?? "nothing")")
    }

    /// `POST /api/template`: `template` rendered by Home Assistant, as text.
    public func render(template: String) throws(HomeAssistantError) -> String {
        try send(path: "/api/template", body: JSONValue.object(["template": .string(template)]).jsonText).text
    }

    /// The largest reply read: a home with thousands of entities answers `/api/states` with
    /// several megabytes, far above the client's default cap for chat replies.
    static let maxResponseBytes = 32 << 20

    /// The template that lists the areas as JSON: `[{"id", "name", "entities"}]`.
    public static let areasTemplate =
        "[{% for a in areas() %}{{ {'id': a, 'name': area_name(a), 'entities': area_entities(a)} | to_json }}"
        + "{% if not loop.last %},{% endif %}{% endfor %}]"

    /// The entities (`states()`) and areas (`areasTemplate`), for the brain and the recogniser.
    /// A server whose template renderer fails gives a directory without areas (logged).
    public func directory(now: Date = Date()) throws(HomeAssistantError) -> HomeDirectory {
        let entities = try states().map(\.entity)
        var areas: [HomeArea] = []
        do throws(HomeAssistantError) {
            let text = try render(template: Self.areasTemplate)
            for item in (try? JSONValue.parse(text))?.arrayValue ?? [] {
                guard let id = item["id"]?.stringValue else { continue }
                let name = item["name"]?.stringValue ?? id.replacingOccurrences(of: "_", with: " ")
                areas.append(
                    HomeArea(id: id, name: name, entities: item["entities"]?.arrayValue?.compactMap(\.stringValue) ?? []))
            }
        } catch  where error.kind == .failed || error.kind == .unknownEntity {
            logger.warning("Home Assistant's areas are not known: \(error.message)")
        }
        return HomeDirectory(entities: entities, areas: areas, server: server, fetchedAt: now)
    }

    // MARK: Transport

    private struct Reply {
        let body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// GET `path`, or POST `body` (JSON) to it; a 2xx reply, or the error it stands for.
    private func send(path: String, body: String? = nil) throws(HomeAssistantError) -> Reply {
        var headers = [(name: "Authorization", value: "Bearer " + token), (name: "Accept", value: "application/json")]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        let request = HTTPRequest(
            method: body == nil ? .get : .post, url: server + path, body: body, headers: headers,
            connectTimeout: min(timeout, 5), totalTimeout: timeout, maxResponseBytes: Self.maxResponseBytes,
            followRedirects: false)
        let response: HTTPResponse
        do throws(HTTPError) {
            response = try http.send(request)
        } catch {
            switch error.kind {
            case .badURL: throw HomeAssistantError(.notConfigured, "home_assistant.url is not usable: \(error.message)")
            default: throw HomeAssistantError(.unreachable, error.message)
            }
        }
        let url = URLRedaction.redacted(server + path)
        switch response.status {
        case 200..<300: return Reply(body: response.body)
        case 401, 403: throw HomeAssistantError(.unauthorized, "\(url) refused the access token (HTTP \(response.status))")
        case 404: throw HomeAssistantError(.unknownEntity, "\(url) is not there (HTTP 404)")
        default:
            let detail = response.text.prefix(200).replacingOccurrences(of: "\n", with: " ")
            throw HomeAssistantError(.failed, "\(url) answered HTTP \(response.status): \(detail)")
        }
    }

    private func json(_ reply: Reply) throws(HomeAssistantError) -> JSONValue {
        guard let value = try? JSONValue.parse(reply.body) else {
            throw HomeAssistantError(.failed, "\(server) did not answer with JSON")
        }
        return value
    }

    /// Lower-case letters, digits and `_` (with one `.` between two such parts when `dotted`):
    /// nothing that could leave the URL path it is put in.
    static func isName(_ text: String, dotted: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == (dotted ? 2 : 1) else { return false }
        return parts.allSatisfy { part in
            !part.isEmpty && part.count <= 128
                && part.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "_" }
        }
    }
}
