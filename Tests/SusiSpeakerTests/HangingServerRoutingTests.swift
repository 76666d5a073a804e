import Foundation
import SusiModel
import SusiNet
import SusiTestSupport
import XCTest

@testable import SusiBrain
@testable import SusiSpeaker

/// Issue 51: a SUSI server that accepts and never answers costs the voice path one short wait,
/// then the speaker answers offline at once until a background check finds the server again,
/// and says so once. The bounds are correctness bounds (no network wait), not performance
/// figures: `bench/outage.py` measures those.
final class HangingServerRoutingTests: XCTestCase {
    private static let remoteReply = """
        {"query": "q", "answers": [{"data": [], "metadata": {"count": 0},
          "actions": [{"type": "answer", "expression": "Answer from the server."}],
          "skills": ["/susi_skills/models/general/Fun/en/jokes.txt"]}], "query_language": "en"}
        """

    /// Questions the built-in skills answer only as the server's fallback (hybrid asks SUSI.AI).
    private static let questions = [
        "tell me a joke", "who is the president of france", "hello", "what is the capital of peru",
        "tell me something interesting",
    ]

    /// The voice path's brain (`susi run`), in hybrid mode against `server`.
    private func voiceBrain(
        _ server: HangingServer, scheduler: ManualProbeScheduler, fallbacks: FallbackLog = FallbackLog()
    ) throws -> OutageNoticeBrain {
        var config = Config()
        config.brain.server = server.base
        let local = LocalChatBrain(brain: try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 }))
        let brain = ChatBrainFactory.make(
            config: config, http: CurlHTTPClient(), local: local, backoff: ChatBackoff(scheduler: scheduler),
            onFallback: { fallbacks.append($0.code) })
        return try XCTUnwrap(brain as? OutageNoticeBrain)
    }

    /// The reply's first spoken line and the seconds it took.
    private func ask(_ brain: OutageNoticeBrain, _ query: String) throws -> (first: String?, seconds: Double) {
        let started = ContinuousClock.now
        let reply = try brain.answer(query)
        let seconds = (ContinuousClock.now - started).seconds
        guard case .answer(let answer) = reply.actions.first else { return (nil, seconds) }
        return (answer.expression, seconds)
    }

    func testTheVoicePathWaitsAtMostOneAndAHalfSecondsForTheServer() {
        var config = Config()
        XCTAssertEqual(config.brain.voiceTimeoutSeconds, 1.5)
        XCTAssertEqual(config.brain.timeoutSeconds, 5, "`susi ask` keeps the longer limit")
        let local = LocalChatBrain(brain: Brain(texts: []))
        /// The chat client's time limit, and whether the back-off guards it.
        func remoteTimeout(_ brain: any ChatBrain & Sendable) -> (seconds: Double?, guarded: Bool) {
            var remote = brain
            if let notice = brain as? OutageNoticeBrain { remote = notice.hybrid.remote }
            let guarded = remote as? BackingOffChatClient
            return (((guarded?.remote ?? remote) as? SusiChatClient)?.timeout, guarded != nil)
        }
        let voice = ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local, backoff: ChatBackoff())
        XCTAssertEqual(remoteTimeout(voice).seconds, 1.5)
        XCTAssertTrue(remoteTimeout(voice).guarded)
        let oneQuestion = remoteTimeout(ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local))
        XCTAssertEqual(oneQuestion.seconds, 5)
        XCTAssertFalse(oneQuestion.guarded, "`susi ask` asks every time")
        config.brain.timeoutSeconds = 1
        let shorter = ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local, backoff: ChatBackoff())
        XCTAssertEqual(remoteTimeout(shorter).seconds, 1, "never longer than brain.timeout_seconds")
        config.brain.mode = "remote"
        let remote = ChatBrainFactory.make(config: config, http: CurlHTTPClient(), local: local, backoff: ChatBackoff())
        XCTAssertTrue(remote is BackingOffChatClient, "remote mode backs off too (and apologises at once)")
    }

    func testAHangingServerCostsOneShortWaitThenOfflineAnswersComeAtOnceUntilACheckFindsItAgain() throws {
        let server = try HangingServer(reply: Self.remoteReply)
        defer { server.stop() }
        let scheduler = ManualProbeScheduler()
        let fallbacks = FallbackLog()
        let brain = try voiceBrain(server, scheduler: scheduler, fallbacks: fallbacks)
        var notices = 0

        let first = try ask(brain, "tell me a joke")
        XCTAssertEqual(first.first, OutageNoticeBrain.slowSentence, "the outage is announced, as slowness")
        XCTAssertGreaterThan(first.seconds, 1.0, "it waited for the server")
        XCTAssertLessThan(first.seconds, 1.5 + 1.5, "within brain.voice_timeout_seconds and a generous margin")
        XCTAssertEqual(server.requests, 1)
        XCTAssertEqual(brain.hybrid.lastAnswer?.source, .localFallback)
        notices += 1

        for query in Self.questions {
            let answer = try ask(brain, query)
            XCTAssertLessThan(answer.seconds, 0.6, "\(query): answered offline at once")
            XCTAssertEqual(brain.hybrid.lastAnswer?.source, .localFallback, query)
            XCTAssertEqual(brain.hybrid.lastAnswer?.fallbackError?.code, "brain-unavailable", query)
            XCTAssertNotNil(answer.first, query)
            if answer.first == OutageNoticeBrain.slowSentence || answer.first == OutageNoticeBrain.sentence {
                notices += 1
            }
        }
        XCTAssertEqual(server.requests, 1, "no question touched the server during the back-off")
        XCTAssertEqual(fallbacks.codes, ["brain-timeout"] + Array(repeating: "brain-unavailable", count: Self.questions.count))

        XCTAssertEqual(scheduler.delays, [.seconds(30)])
        scheduler.fire()  // the server still hangs
        XCTAssertEqual(server.requests, 2, "the background check asked it")
        XCTAssertEqual(scheduler.delays, [.seconds(30), .seconds(60)])
        let stillOffline = try ask(brain, "tell me a joke")
        XCTAssertLessThan(stillOffline.seconds, 0.6)
        XCTAssertNotEqual(stillOffline.first, OutageNoticeBrain.slowSentence, "said once per outage")
        XCTAssertEqual(server.requests, 2)

        server.answer()
        scheduler.fire()
        XCTAssertEqual(server.requests, 3)
        XCTAssertEqual(try ask(brain, "tell me a joke").first, "Answer from the server.", "remote answers resume")
        XCTAssertEqual(brain.hybrid.lastAnswer?.source, .remote)
        XCTAssertEqual(server.requests, 4)
        XCTAssertEqual(notices, 1, "the notice was said once")

        server.hang()
        XCTAssertEqual(try ask(brain, "tell me a joke").first, OutageNoticeBrain.slowSentence, "a new outage is new")
        XCTAssertEqual(scheduler.delays.last, .seconds(30), "and starts its back-off afresh")
    }

    func testAnUnreachableServerIsAnnouncedAsUnreachableAndNotAskedAgain() throws {
        let closed = try XCTUnwrap(closedPort())
        var config = Config()
        config.brain.server = "http://127.0.0.1:\(closed)"
        let scheduler = ManualProbeScheduler()
        let local = LocalChatBrain(brain: try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 }))
        let brain = try XCTUnwrap(
            ChatBrainFactory.make(
                config: config, http: CurlHTTPClient(), local: local, backoff: ChatBackoff(scheduler: scheduler))
                as? OutageNoticeBrain)
        XCTAssertEqual(try ask(brain, "tell me a joke").first, OutageNoticeBrain.sentence)
        XCTAssertEqual(brain.hybrid.lastAnswer?.fallbackError?.code, "brain-connection-refused")
        XCTAssertNotEqual(try ask(brain, "hello").first, OutageNoticeBrain.sentence)
        XCTAssertEqual(brain.hybrid.lastAnswer?.fallbackError?.code, "brain-unavailable")
        XCTAssertEqual(scheduler.delays, [.seconds(30)])
    }

    func testTheNoticeNamesSlownessOnlyForATimeout() {
        XCTAssertEqual(OutageNoticeBrain.notice(for: SusiAPIError(.chat, .timeout, message: "")), OutageNoticeBrain.slowSentence)
        XCTAssertEqual(
            OutageNoticeBrain.notice(for: SusiAPIError(.chat, .unavailable, message: "", reason: "brain-timeout")),
            OutageNoticeBrain.slowSentence)
        XCTAssertEqual(
            OutageNoticeBrain.notice(for: SusiAPIError(.chat, .unavailable, message: "", reason: "brain-dns-failure")),
            OutageNoticeBrain.sentence)
        XCTAssertEqual(OutageNoticeBrain.notice(for: SusiAPIError(.chat, .httpStatus, message: "")), OutageNoticeBrain.sentence)
        XCTAssertEqual(OutageNoticeBrain.notice(for: nil), OutageNoticeBrain.sentence)
    }
}
