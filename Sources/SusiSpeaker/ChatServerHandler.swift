import Foundation
import SusiBrain
import SusiCore
import SusiServer
import Synchronization

/// Serves the brain as SUSI's `/susi/chat.json`, so SUSI's web, iOS and Android clients (and
/// our own remote client) can talk to the speaker's built-in brain.
///
/// Accepts `GET` and `POST` (query string or form) with SUSI's parameters: `q` (the query,
/// required), `timezoneOffset` (minutes, UTC minus local, so CEST is `-120`) and `language`;
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

    /// Answers one request (any path; routing is the router's job).
    public func handle(_ request: ServerRequest) -> ServerResponse {
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
        do {
            let reply = try brain.answer(query, context: context)
            let spoken = reply.spokenText
            if !spoken.isEmpty {
                memory.withLock { $0 = Memory(answer: spoken, skill: reply.skill) }
            }
            return withCORS(.json(reply))
        } catch {
            return withCORS(.badRequest(error.message, code: error.code))
        }
    }

    // SUSI's web client calls from another origin; the reply holds nothing private.
    private func withCORS(_ response: ServerResponse) -> ServerResponse {
        var response = response
        response.headers.append((name: "Access-Control-Allow-Origin", value: "*"))
        return response
    }
}
