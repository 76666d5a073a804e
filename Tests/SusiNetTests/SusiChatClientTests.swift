import Foundation
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

/// The chat client against loopback servers replying with recorded SUSI-shaped bodies.
final class SusiChatClientTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-chat")
    }

    override func tearDown() {
        scratch.remove()
    }

    /// A server answering chat.json with `body` and recording the query it got.
    private func chatServer(_ body: String, seen: QueryLog = QueryLog()) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/susi/chat.json") { request in
                seen.append(request.query)
                return jsonReply(body)
            }
        }
    }

    func testEveryActionTypeOfTheNewerLayout() throws {
        let (server, base) = try chatServer(SusiRecordedReplies.everyActionNewer)
        defer { server.stop() }
        let reply = try SusiChatClient(server: base, http: CurlHTTPClient()).answer("show me everything")
        XCTAssertEqual(reply.queryLanguage, "en")
        XCTAssertNil(reply.count)
        XCTAssertEqual(reply.skill, "/susi_skills/models/general/Knowledge/en/everything.txt")
        let types = reply.actions.map(\.type)
        XCTAssertEqual(
            types,
            [
                "answer", "answer", "table", "table", "piechart", "rss", "websearch", "anchor", "map", "video_play",
                "audio_play", "audio_play", "audio_volume", "stop", "pause", "resume", "restart", "next", "previous",
                "shuffle", "timer_set", "image_show", "hologram",
            ], "the non-object entry is dropped, the unknown type kept")
        guard case .answer(let planned) = reply.actions[1] else { return XCTFail("planned answer") }
        XCTAssertEqual(planned.planDelay, 300_000)
        guard case .table(let titled) = reply.actions[2], case .table(let keyed) = reply.actions[3] else {
            return XCTFail("tables")
        }
        XCTAssertEqual(titled.count, -1)
        XCTAssertEqual(titled.columns.all.map(\.title), ["City", "People"])
        XCTAssertEqual(keyed.columns, .keys(["name", "population"]))
        XCTAssertEqual(keyed.count, 2)
        guard case .map(let map) = reply.actions[8] else { return XCTFail("map") }
        XCTAssertEqual(map.latitude, 52.52)
        XCTAssertEqual(map.zoom, 13)
        guard case .audioVolume(let volume) = reply.actions[12] else { return XCTFail("volume") }
        XCTAssertEqual(volume.volume, 40)
        guard case .audioPlay(let soundcloud) = reply.actions[11] else { return XCTFail("soundcloud") }
        XCTAssertEqual(soundcloud.identifierType, "soundcloud")
        guard case .unknown(let unknown) = reply.actions[22] else { return XCTFail("unknown") }
        XCTAssertEqual(unknown.raw["colour"], "blue")
        XCTAssertEqual(reply.firstAnswer?.data.count, 3)
        XCTAssertEqual(reply.firstAnswer?.data[2]["object"], "a bare value")
        XCTAssertEqual(reply.spokenText, "Here is everything.")
    }

    func testOlderLayoutWithCountAndLanguage() throws {
        let (server, base) = try chatServer(SusiRecordedReplies.helloOlder)
        defer { server.stop() }
        let reply = try SusiChatClient(server: base + "/", http: CurlHTTPClient()).answer("hello")
        XCTAssertEqual(reply.count, 1)
        XCTAssertEqual(reply.language, "en")
        XCTAssertNil(reply.queryLanguage)
        XCTAssertEqual(reply.answerTime, 50)
        XCTAssertEqual(reply.spokenText, "Hi, I'm SUSI.")
        XCTAssertEqual(
            SusiChatClientTests.reference(reply), SkillReference(group: "Conversation", name: "greetings"))
    }

    private static func reference(_ reply: ChatResponse) -> SkillReference? {
        SkillFeedbackService.skill(answeredBy: reply)
    }

    func testWithoutAZoneTheOffsetIsTheLocalOne() throws {
        let now = Date(timeIntervalSince1970: 1_796_204_514)
        let request = try SusiChatClient(server: "http://127.0.0.1:9", http: CurlHTTPClient()).request(
            for: "hello", now: now)
        let offset = request.query.first { $0.name == "timezoneOffset" }?.value
        XCTAssertEqual(offset, String(-TimeZone.current.secondsFromGMT(for: now) / 60))
    }

    func testQueryParametersLocationAndTimezone() throws {
        let seen = QueryLog()
        let (server, base) = try chatServer(SusiRecordedReplies.helloOlder, seen: seen)
        defer { server.stop() }
        var config = Config()
        config.brain.server = base
        config.brain.language = "de"
        config.location.latitude = 52.52
        config.location.longitude = 13.405
        config.location.countryCode = "DE"
        config.location.countryName = "Germany"
        let cest = try XCTUnwrap(TimeZone(secondsFromGMT: 7200))
        _ = try SusiChatClient(config: config, http: CurlHTTPClient(), timeZone: cest).answer(
            "  wie spät ist es? & so ")
        let query = try XCTUnwrap(seen.all.first)
        XCTAssertEqual(query["q"], "wie spät ist es? & so")
        XCTAssertEqual(query["timezoneOffset"], "-120")
        XCTAssertEqual(query["language"], "de")
        XCTAssertEqual(query["device_type"], "Smart Speaker")
        XCTAssertEqual(query["latitude"], "52.52")
        XCTAssertEqual(query["longitude"], "13.405")
        XCTAssertEqual(query["country_code"], "DE")
        XCTAssertEqual(query["country_name"], "Germany")
        XCTAssertNil(query["access_token"], "no login, no token")

        let plain = try SusiChatClient(server: base, http: CurlHTTPClient()).request(for: "hi")
        XCTAssertEqual(plain.query.map(\.name), ["q", "timezoneOffset", "language", "device_type"])
    }

    func testAccessTokenSentOnlyWhileValidAndOnlyToItsServer() throws {
        let seen = QueryLog()
        let (server, base) = try chatServer(SusiRecordedReplies.helloOlder, seen: seen)
        defer { server.stop() }
        let account = AccountStore(path: directory + "/account.json")
        let client = SusiChatClient(server: base, http: CurlHTTPClient(), account: account)
        try account.save(
            AccountToken(
                accessToken: "tok-123", expiresAt: Date().addingTimeInterval(3600), email: "a@b.c", server: base + "/"))
        _ = try client.answer("hello")
        XCTAssertEqual(seen.all.last?["access_token"], "tok-123")

        try account.save(
            AccountToken(
                accessToken: "tok-other", expiresAt: Date().addingTimeInterval(3600), email: "a@b.c",
                server: "https://api.susi.ai"))
        _ = try client.answer("hello")
        XCTAssertNil(seen.all.last?["access_token"], "a token goes only to the server that issued it")

        try account.save(
            AccountToken(accessToken: "tok-old", expiresAt: Date().addingTimeInterval(-1), email: "a@b.c", server: base)
        )
        _ = try client.answer("hello")
        XCTAssertNil(seen.all.last?["access_token"], "an expired token is not sent")
        XCTAssertFalse(FileManager.default.fileExists(atPath: account.path), "and it is dropped")
    }

    func testEmptyQueryIsRefusedBeforeTheNetwork() {
        XCTAssertThrowsError(try SusiChatClient(server: "http://127.0.0.1:1", http: CurlHTTPClient()).answer("  ")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "brain-bad-input")
        }
    }

    func testSkillReferenceFromAnswerPaths() {
        XCTAssertEqual(
            SkillReference(answerSkill: "/susi_skills/models/general/Knowledge/en/wikipedia.txt"),
            SkillReference(model: "general", group: "Knowledge", language: "en", name: "wikipedia"))
        XCTAssertEqual(
            SkillReference(answerSkill: "/general/Problem Solving/de/rechner.txt")?.group, "Problem Solving")
        XCTAssertNil(SkillReference(answerSkill: "time"), "built-in skills have no CMS address")
        XCTAssertNil(SkillReference(answerSkill: ""))
    }
}

/// Queries seen by a loopback handler (which runs on a server thread).
final class QueryLog: Sendable {
    private let entries = Mutex<[[String: String]]>([])

    func append(_ query: [String: String]) { entries.withLock { $0.append(query) } }
    var all: [[String: String]] { entries.withLock { $0 } }
}
