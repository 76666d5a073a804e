import SusiCore

/// A request handler. Runs on a server thread; it may block briefly (each connection has its
/// own thread). A thrown `SusiError` becomes a 500 JSON error with its code; any other error a
/// generic 500.
public typealias ServerHandler = @Sendable (ServerRequest) throws -> ServerResponse

/// Maps method and path to handlers: exact segments and `:name` segments (`/volume/:level`).
///
/// Unknown paths get 404, a known path with a wrong method 405 with `Allow`. A route with more
/// literal segments wins over one with parameters (`/volume/up` before `/volume/:level`), and
/// `HEAD` is served by `GET` routes. Trailing slashes are ignored.
public struct Router: Sendable {
    private struct Route: Sendable {
        let methods: Set<String>
        let segments: [Segment]
        let handler: ServerHandler

        var literalCount: Int {
            segments.filter { if case .literal = $0 { true } else { false } }.count
        }
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []
    private var filters: [@Sendable (ServerRequest) -> ServerResponse?] = []

    /// An empty router: every request gets 404.
    public init() {}

    /// Adds a route for the given methods (case-insensitive) and path pattern.
    public mutating func add(_ methods: [String], _ path: String, _ handler: @escaping ServerHandler) {
        let segments = Self.split(path).map { part -> Segment in
            part.hasPrefix(":") && part.count > 1 ? .parameter(String(part.dropFirst())) : .literal(part)
        }
        routes.append(
            Route(methods: Set(methods.map { $0.uppercased() }), segments: segments, handler: handler))
    }

    /// Adds a `GET` route.
    public mutating func get(_ path: String, _ handler: @escaping ServerHandler) {
        add(["GET"], path, handler)
    }

    /// Adds a `POST` route.
    public mutating func post(_ path: String, _ handler: @escaping ServerHandler) {
        add(["POST"], path, handler)
    }

    /// Adds a check that runs before every route, in the order added: a reply it returns is
    /// answered instead (a refusal), nil lets the request go on.
    public mutating func filter(_ check: @escaping @Sendable (ServerRequest) -> ServerResponse?) {
        filters.append(check)
    }

    /// Runs the filters, then finds the route for the request and runs it; never throws.
    public func handle(_ request: ServerRequest) -> ServerResponse {
        for check in filters {
            if let refusal = check(request) { return refusal }
        }
        let parts = Self.split(request.path)
        let candidates =
            routes
            .compactMap { route in Self.match(route.segments, parts).map { (route, $0) } }
            .sorted { $0.0.literalCount > $1.0.literalCount }
        guard !candidates.isEmpty else { return .notFound(request.path) }
        let method = request.method.uppercased()
        let lookup = method == "HEAD" ? "GET" : method
        guard let (route, parameters) = candidates.first(where: { $0.0.methods.contains(lookup) })
        else {
            var allowed = Set(candidates.flatMap { $0.0.methods })
            if allowed.contains("GET") { allowed.insert("HEAD") }
            return .methodNotAllowed(method, allowed: allowed.sorted())
        }
        var routed = request
        routed.pathParameters = parameters
        return Self.run(route.handler, routed)
    }

    /// Runs a handler, turning thrown errors into JSON 500 replies.
    static func run(_ handler: ServerHandler, _ request: ServerRequest) -> ServerResponse {
        do {
            return try handler(request)
        } catch let error as any SusiError {
            return .internalError(error.message, code: error.code)
        } catch {
            return .internalError("the request could not be handled")
        }
    }

    private static func split(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    private static func match(_ pattern: [Segment], _ parts: [String]) -> [String: String]? {
        guard pattern.count == parts.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(pattern, parts) {
            switch segment {
            case .literal(let literal):
                guard literal == part else { return nil }
            case .parameter(let name):
                parameters[name] = part
            }
        }
        return parameters
    }
}
