import Foundation
import SusiBrain
import SusiModel
import SusiServer
import Synchronization

/// Serves the brain as SUSI's `/susi/chat.json`, so SUSI's web, iOS and Android clients (and
/// our own remote client) can talk to the speaker's built-in brain.
///
/// Accepts `GET` and `POST` (query string or form) with SUSI's parameters: `q` (the query,
/// required), `timezoneOffset` (minutes, UTC minus local, so CEST is `-120`), `language`,
/// `instant` (a skill's text, its lines joined by literal `\n` as the web clients send it, or
/// by real line ends: `%0a`, `%0d%0a`, a bare `%0d`; asked before the built-in skills as
/// susi_server does; it is never allowed to fetch URLs) and `callback` (JSONP: the reply becomes `callback(JSON);` as `application/javascript`);
/// others (`device_type`, `latitude`, ...) are accepted and ignored. Replies are the chat.json
/// shape; a bad query gets 400 with `{"error", "code"}`. The handler remembers the last answer
/// it gave, so "say that again" works across requests. Runs on the server's connection
/// threads; console fetches block only the requesting connection.
public final class ChatServerHandler: Sendable {
    /// The path SUSI clients call.
    public static let path = "/susi/chat.json"

    private let brain: Brain
    private let makeContext: @Sendable () -> BrainContext
    private let memory = Mutex<Memory>(Memory())
    /// Skill memory per conversation: the `session` (or `client`) parameter, else the caller's
    /// address, so one client's "my name is ..." is not another's.
    private let skillMemories = SkillMemories()

    private struct Memory {
        var answer: String?
        var skill: String?
    }

    /// Creates a handler; `context` gives the settings (room, voice, rate, volume) for each
    /// request, e.g. read from the current config. Its `timeZone` and `language` are replaced
    /// by the request's parameters when sent.
    public init(brain: Brain, context: @escaping @Sendable () -> BrainContext = { BrainContext() }) {
        self.brain = brain
        self.makeContext = context
    }

    /// Adds `GET` and `POST /susi/chat.json` to `router`.
    public func install(on router: inout Router) {
        router.add(["GET", "POST"], Self.path) { [self] request in handle(request) }
    }

    /// The longest `instant` skill text accepted, in bytes.
    public static let maximumInstantBytes = 64 * 1024

    /// Answers one request (any path; routing is the router's job).
    public func handle(_ request: ServerRequest) -> ServerResponse {
        let callback = request.parameter("callback") ?? ""
        guard callback.isEmpty || Self.isCallbackName(callback) else {
            return withCORS(
                .badRequest("callback must be a JavaScript name (letters, digits, _, $ and dots)", code: "brain-bad-parameter"))
        }
        return wrap(answer(request), callback: callback)
    }

    private func answer(_ request: ServerRequest) -> ServerResponse {
        var context = makeContext()
        if let offsetText = request.parameter("timezoneOffset"), !offsetText.isEmpty {
            guard let minutes = Int(offsetText.trimmingCharacters(in: .whitespaces)),
                abs(minutes) <= 24 * 60,
                let zone = TimeZone(secondsFromGMT: -minutes * 60)
            else {
                return withCORS(
                    .badRequest(
                        "timezoneOffset must be minutes between -1440 and 1440", code: "brain-bad-parameter"))
            }
            context.timeZone = zone
        }
        if let language = request.parameter("language"), !language.isEmpty {
            context.language = language
        }
        let remembered = memory.withLock { $0 }
        if context.lastAnswer == nil { context.lastAnswer = remembered.answer }
        if context.lastSkill == nil { context.lastSkill = remembered.skill }
        guard let query = request.parameter("q") else {
            return withCORS(
                .badRequest("missing parameter q (the query)", code: BrainError.Kind.emptyQuery.rawValue))
        }
        let instant = request.parameter("instant") ?? ""
        guard instant.utf8.count <= Self.maximumInstantBytes else {
            return withCORS(
                .badRequest("instant is longer than \(Self.maximumInstantBytes) bytes", code: "brain-bad-parameter"))
        }
        let conversation = request.parameter("session") ?? request.parameter("client") ?? request.remoteAddress
        context.memory = skillMemories.memory(for: conversation)
        do {
            // The instant skill is the most conscious mind; the built-in skills answer what it
            // does not.
            let fromInstant =
                instant.isEmpty
                ? nil
                : try Brain(texts: [("instant", instant.replacingOccurrences(of: "\\n", with: "\n"))]).answer(
                    query, context: context)
            let reply: ChatResponse
            if let fromInstant, fromInstant.hasAnswer {
                reply = fromInstant
            } else {
                reply = try brain.answer(query, context: context)
            }
            let spoken = reply.spokenText
            if !spoken.isEmpty {
                memory.withLock { $0 = Memory(answer: spoken, skill: reply.skill) }
            }
            return withCORS(.json(reply))
        } catch {
            return withCORS(.badRequest(error.message, code: error.code))
        }
    }

    /// JSONP: `callback(body);`, for web clients that load the reply as a script.
    private func wrap(_ response: ServerResponse, callback: String) -> ServerResponse {
        guard !callback.isEmpty else { return response }
        var wrapped = response
        wrapped.status = 200
        wrapped.contentType = "application/javascript; charset=utf-8"
        wrapped.body = Data((callback + "(").utf8) + response.body + Data(");".utf8)
        return wrapped
    }

    /// A dotted JavaScript identifier of at most 128 characters: nothing a page could run
    /// besides calling its own function.
    static func isCallbackName(_ name: String) -> Bool {
        guard name.utf8.count <= 128, !name.hasPrefix("."), !name.hasSuffix("."), !name.contains("..") else { return false }
        return name.split(separator: ".").allSatisfy { part in
            guard let first = part.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
            return part.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "$")
            }
        }
    }

    // SUSI's web client calls from another origin; the reply holds nothing private.
    private func withCORS(_ response: ServerResponse) -> ServerResponse {
        var response = response
        response.headers.append((name: "Access-Control-Allow-Origin", value: "*"))
        return response
    }
}
