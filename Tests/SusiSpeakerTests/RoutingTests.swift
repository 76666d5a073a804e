import Foundation
import SusiCore
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiBrain
@testable import SusiSpeaker

/// Hybrid routing with the bundled skills and a loopback SUSI server.
final class RoutingTests: XCTestCase {
    private static let remoteReply = """
        {"query": "q", "answers": [{"data": [], "metadata": {"count": 0},
          "actions": [{"type": "answer", "expression": "Answer from the server."}],
          "skills": ["/susi_skills/models/general/Fun/en/jokes.txt"]}], "query_language": "en"}
        """

    private func bundledBrain() throws -> LocalChatBrain {
        LocalChatBrain(brain: try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 }))
    }

    /// A chat server counting its requests; `body` nil answers 500 with an HTML page.
    private func chatServer(body: String?, counter: RequestCounter) throws -> (HTTPServer, String) {
        var router = Router()
        router.get("/susi/chat.json") { _ in
            counter.increment()
            guard let body else {
                return .html("<html><head><title>Internal Server Error</title></head></html>", status: 500)
            }
            return ServerResponse(contentType: ServerResponse.jsonContentType, body: Data(body.utf8))
        }
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        return (server, "http://127.0.0.1:\(try XCTUnwrap(server.port))")
    }

    private func hybrid(_ local: LocalChatBrain, server: String, fallbacks: FallbackLog = FallbackLog()) -> HybridBrain {
        var config = Config()
        config.brain.server = server
        config.brain.timeoutSeconds = 2
        let brain = ChatBrainFactory.make(
            config: config, http: CurlHTTPClient(), local: local, onFallback: { fallbacks.append($0.code) })
        return (brain as? OutageNoticeBrain)?.hybrid ?? HybridBrain(local: local, remote: local)
    }

    func testLocalIntentsNeverReachTheServer() throws {
        let counter = RequestCounter()
        let (server, base) = try chatServer(body: Self.remoteReply, counter: counter)
        defer { server.stop() }
        let brain = hybrid(try bundledBrain(), server: base)
        for query in [
            "what time is it", "stop", "pause the music", "turn the volume up", "set a timer for five minutes",
            "what is seven times eight", "next song",
        ] {
            let answer = try brain.route(query)
            XCTAssertEqual(answer.source, .local, "\(query) -> \(answer.response.skill ?? "nothing")")
        }
        XCTAssertEqual(counter.count, 0, "local intents do not touch the network")
    }

    func testOtherQueriesGoToTheServer() throws {
        let counter = RequestCounter()
        let (server, base) = try chatServer(body: Self.remoteReply, counter: counter)
        defer { server.stop() }
        let brain = hybrid(try bundledBrain(), server: base)
        for query in ["tell me a joke", "who is the president of france", "play some jazz", "hello"] {
            let answer = try brain.route(query)
            XCTAssertEqual(answer.source, .remote, query)
            XCTAssertEqual(answer.response.spokenText, "Answer from the server.")
        }
        XCTAssertEqual(counter.count, 4)
        XCTAssertEqual(brain.lastAnswer?.source, .remote)
    }

    func testServerFailureFallsBackLocallyAndReportsTheCode() throws {
        let counter = RequestCounter()
        let (server, base) = try chatServer(body: nil, counter: counter)
        defer { server.stop() }
        let fallbacks = FallbackLog()
        let brain = hybrid(try bundledBrain(), server: base, fallbacks: fallbacks)
        let reply = try brain.answer("tell me a joke")
        XCTAssertEqual(reply.skill, "jokes")
        XCTAssertEqual(brain.lastAnswer?.source, .localFallback)
        XCTAssertEqual(brain.lastAnswer?.fallbackError?.code, "brain-http-status")
        XCTAssertEqual(fallbacks.codes, ["brain-http-status"])

        let closed = try XCTUnwrap(closedPort())
        let refused = hybrid(try bundledBrain(), server: "http://127.0.0.1:\(closed)", fallbacks: fallbacks)
        let unknown = try refused.route("what is the airspeed velocity of an unladen swallow")
        XCTAssertEqual(unknown.source, .localFallback)
        XCTAssertEqual(unknown.response.skill, "fallback", "even the catch-all answers when the server is down")
        XCTAssertEqual(unknown.fallbackError?.code, "brain-connection-refused")
    }

    func testAnOutageIsAnnouncedOnceUntilTheServerAnswersAgain() throws {
        let down = Mutex(true)
        var router = Router()
        router.get("/susi/chat.json") { _ in
            down.withLock { $0 }
                ? .html("<html><head><title>Bad Gateway</title></head></html>", status: 502)
                : ServerResponse(contentType: ServerResponse.jsonContentType, body: Data(Self.remoteReply.utf8))
        }
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        defer { server.stop() }
        var config = Config()
        config.brain.server = "http://127.0.0.1:\(try XCTUnwrap(server.port))"
        let brain = ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: try bundledBrain())
        func first(_ query: String) throws -> String? {
            guard case .answer(let answer) = try brain.answer(query).actions.first else { return nil }
            return answer.expression
        }
        XCTAssertEqual(try first("tell me a joke"), OutageNoticeBrain.sentence)
        XCTAssertNotEqual(try brain.answer("hello").actions.count, 0)
        XCTAssertNotEqual(try first("hello"), OutageNoticeBrain.sentence, "once per outage")
        XCTAssertNotEqual(try first("what time is it"), OutageNoticeBrain.sentence, "a local intent is no fallback")
        down.withLock { $0 = false }
        XCTAssertEqual(try first("tell me a joke"), "Answer from the server.")
        down.withLock { $0 = true }
        XCTAssertEqual(try first("tell me a joke"), OutageNoticeBrain.sentence, "a new outage is announced again")
    }

    func testRemoteFailureWithoutALocalAnswerThrowsTheRemoteError() throws {
        let empty = LocalChatBrain(brain: Brain(texts: []))
        let brain = HybridBrain(
            local: empty,
            remote: SusiChatClient(server: "http://127.0.0.1:\(try XCTUnwrap(closedPort()))", http: CurlHTTPClient()))
        XCTAssertThrowsError(try brain.answer("anything")) {
            XCTAssertEqual(($0 as? any SusiError)?.code, "brain-connection-refused")
        }
        XCTAssertNil(brain.lastAnswer)
    }

    func testRoutingHeaderOverridesTheDefaults() throws {
        let brain = Brain(texts: [
            ("weather", "::name Weather\n::routing local\n\nweather *\nSunny.\n"),
            ("time", "::name Time\n::routing remote\n\nwhat time is it\nNoon.\n"),
            (
                "media",
                "::name Media\n\nstop\n!console:\n{\"actions\":[{\"type\":\"stop\"}]}\neol\n\nplay *\nPlaying $1$.\n"
            ),
        ])
        let policy = HybridRoutingPolicy(skills: brain.skills)
        XCTAssertTrue(policy.answersLocally(try brain.answer("weather today")))
        XCTAssertFalse(policy.answersLocally(try brain.answer("what time is it")))
        XCTAssertTrue(policy.answersLocally(try brain.answer("stop")), "device control by action type")
        XCTAssertFalse(policy.answersLocally(try brain.answer("play jazz")))
    }

    func testModesAndCompleteCommands() throws {
        let local = try bundledBrain()
        var config = Config()
        config.brain.mode = "local"
        XCTAssertTrue(ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local) is LocalChatBrain)
        let forced = ChatBrainFactory.make(
            config: config, mode: .remote, server: "http://127.0.0.1:9", http: CurlHTTPClient(), local: local)
        XCTAssertEqual((forced as? SusiChatClient)?.server, "http://127.0.0.1:9")
        config.brain.mode = "hybrid"
        let hybrid = try XCTUnwrap(
            (ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local) as? OutageNoticeBrain)?.hybrid)
        XCTAssertTrue(hybrid.isCompleteCommand("what time is it"))
        XCTAssertFalse(hybrid.isCompleteCommand("what is the"))
        // A half-heard "change your voice to american" (Scottish voice, 10 dB noise): one word
        // of a skill's is no whole command, or the speaker stops listening mid-sentence.
        XCTAssertFalse(hybrid.isCompleteCommand("a eighteen feel voice do a live"))
        XCTAssertTrue(hybrid.isCompleteCommand("change your voice to american"))
    }
}

/// Counts requests seen by a loopback handler.
final class RequestCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Codes passed to `onFallback`.
final class FallbackLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ code: String) { entries.withLock { $0.append(code) } }
    var codes: [String] { entries.withLock { $0 } }
}
