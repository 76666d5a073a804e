import Foundation
import SusiModel
import SusiNet
import XCTest

/// The voice path's remote brain leaves a slow or unreachable server alone after one failure,
/// and a background check brings it back (issue 51). Checks are fired by the test, not a clock.
final class BackingOffChatClientTests: XCTestCase {
    func testTheWaitDoublesToItsLongest() {
        let backoff = ChatBackoff(first: .seconds(30), longest: .seconds(240), scheduler: ManualProbeScheduler())
        XCTAssertEqual(
            (0...6).map { backoff.delay(afterFailedChecks: $0) },
            [30, 60, 120, 240, 240, 240, 240].map { Duration.seconds($0) })
        XCTAssertEqual(ChatBackoff().first, .seconds(30), "the documented default")
        XCTAssertEqual(ChatBackoff().longest, .seconds(240), "the documented default")
        let odd = ChatBackoff(first: .seconds(45), longest: .seconds(100), scheduler: ManualProbeScheduler())
        XCTAssertEqual(odd.delay(afterFailedChecks: 1), .seconds(90))
        XCTAssertEqual(odd.delay(afterFailedChecks: 2), .seconds(100), "capped, not doubled past the longest")
    }

    func testOnlySlowOrUnreachableServersBeginAnOutage() {
        let begins: [SusiAPIError.Kind] = [.timeout, .connectTimeout, .connectionRefused, .dnsFailure, .transport]
        for kind in SusiAPIError.Kind.allCases {
            XCTAssertEqual(
                ChatBackoff.beginsOutage(SusiAPIError(.chat, kind, message: "x")), begins.contains(kind), kind.rawValue)
        }
    }

    private func client(_ base: String, scheduler: ManualProbeScheduler, timeout: Double = 1) -> BackingOffChatClient {
        let http = CurlHTTPClient()
        return BackingOffChatClient(
            remote: SusiChatClient(server: base, timeout: timeout, http: http),
            probe: SusiChatClient(server: base, timeout: timeout, http: http),
            backoff: ChatBackoff(scheduler: scheduler))
    }

    private func code(of call: () throws -> ChatResponse) -> String? {
        do {
            _ = try call()
            return nil
        } catch {
            return (error as? SusiAPIError)?.code ?? "\(error)"
        }
    }

    func testAHangingServerIsAskedOnceThenLeftAloneUntilACheckGetsAReply() throws {
        let server = try HangingServer(reply: SusiRecordedReplies.helloOlder)
        defer { server.stop() }
        let scheduler = ManualProbeScheduler()
        let brain = client(server.base, scheduler: scheduler)

        XCTAssertEqual(code { try brain.answer("tell me a joke") }, "brain-timeout")
        XCTAssertEqual(server.requests, 1)
        XCTAssertEqual(brain.outage?.code, "brain-timeout")
        XCTAssertEqual(scheduler.delays, [.seconds(30)], "one check waits")

        for query in ["who wrote hamlet", "how tall is everest", "tell me a joke"] {
            XCTAssertEqual(code { try brain.answer(query) }, "brain-unavailable", query)
        }
        XCTAssertEqual(server.requests, 1, "no question reached the server during the back-off")
        XCTAssertEqual(scheduler.delays.count, 1, "failures during an outage schedule no more checks")

        XCTAssertEqual(scheduler.fire(), 1)
        XCTAssertEqual(server.requests, 2, "the check asked the server")
        XCTAssertTrue(try XCTUnwrap(server.targets.last).contains("q=hello"), "\(server.targets)")
        XCTAssertEqual(scheduler.delays, [.seconds(30), .seconds(60)], "a failed check doubles the wait")
        XCTAssertEqual(code { try brain.answer("tell me a joke") }, "brain-unavailable")

        server.answer()
        XCTAssertEqual(scheduler.fire(), 1)
        XCTAssertNil(brain.outage, "a reply in time ends the outage")
        XCTAssertEqual(scheduler.waiting, 0, "and no check waits any more")
        XCTAssertEqual(try brain.answer("hello").spokenText, "Hi, I'm SUSI.")
        XCTAssertEqual(server.requests, 4)
    }

    func testTheUnavailableErrorNamesWhatBeganTheOutage() throws {
        let closed = try RawSocket()
        let scheduler = ManualProbeScheduler()
        let brain = client("http://127.0.0.1:\(closed.port)", scheduler: scheduler)
        XCTAssertEqual(code { try brain.answer("hello") }, "brain-connection-refused")
        XCTAssertThrowsError(try brain.answer("hello")) { error in
            guard let error = error as? SusiAPIError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.code, "brain-unavailable")
            XCTAssertEqual(error.reason, "brain-connection-refused")
            XCTAssertTrue(error.message.contains("could not be reached"), error.message)
        }
    }

    func testAFastFailureBeginsNoOutage() throws {
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { _ in .html(SusiRecordedReplies.errorPage, status: 500) }
        }
        defer { server.stop() }
        let scheduler = ManualProbeScheduler()
        let brain = client(base, scheduler: scheduler)
        XCTAssertEqual(code { try brain.answer("hello") }, "brain-http-status")
        XCTAssertEqual(code { try brain.answer("hello") }, "brain-http-status", "asked again: it answers quickly")
        XCTAssertNil(brain.outage)
        XCTAssertEqual(scheduler.delays, [])
    }

    func testACheckForADroppedClientDoesNothing() throws {
        let server = try HangingServer(reply: SusiRecordedReplies.helloOlder)
        defer { server.stop() }
        let scheduler = ManualProbeScheduler()
        var brain: BackingOffChatClient? = client(server.base, scheduler: scheduler)
        XCTAssertEqual(code { try XCTUnwrap(brain).answer("hello") }, "brain-timeout")
        brain = nil
        XCTAssertEqual(scheduler.fire(), 1)
        XCTAssertEqual(server.requests, 1, "a replaced brain's server is not checked")
    }
}
