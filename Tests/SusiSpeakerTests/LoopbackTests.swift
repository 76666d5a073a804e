import Foundation
import SusiModel
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiBrain
@testable import SusiSpeaker

/// Real SUSI-style skills whose console blocks fetch from a loopback server, and the brain
/// served as `/susi/chat.json` to libcurl and the curl tool.
final class LoopbackTests: XCTestCase {
    private var servers: [HTTPServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
        super.tearDown()
    }

    private func serve(_ configure: (inout Router) -> Void) throws -> String {
        var router = Router()
        configure(&router)
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        servers.append(server)
        return "http://127.0.0.1:\(try XCTUnwrap(server.port))"
    }

    /// A data service shaped like the public APIs SUSI skills call.
    private func startDataService() throws -> String {
        try serve { router in
            router.get("/search.json") { request in
                let query = request.query["q"] ?? ""
                let body =
                    #"{"statuses":[{"text":"first post about \#(query)","user":{"name":"ada"}},{"text":"second","user":{"name":"bob"}}]}"#
                return ServerResponse(status: 200, contentType: "application/json", body: Data(body.utf8))
            }
            router.get("/fact.json") { _ in
                ServerResponse(
                    status: 200, contentType: "application/json",
                    body: Data(#"{"value":{"joke":"Atoms make up everything."}}"#.utf8))
            }
            router.get("/list.json") { _ in
                ServerResponse(
                    status: 200, contentType: "application/json",
                    body: Data(#"[{"title":"A","link":"http://a"},{"title":"B","link":"http://b"}]"#.utf8))
            }
            router.get("/broken.json") { _ in .html("<html>maintenance</html>", status: 503) }
            router.get("/slow.json") { _ in
                Thread.sleep(forTimeInterval: 3)
                return .text("{}")
            }
        }
    }

    func testSUSIStyleConsoleSkillsAgainstLoopbackServer() throws {
        let base = try startDataService()
        let skill = """
            ::name Loopback demo
            ::description SUSI-style console skills served from 127.0.0.1.

            tweet about *|what do people say about *
            !console:$text$ (by $user.name$)
            {
            "url":"\(base)/search.json?q=$1$",
            "path":"$.statuses"
            }
            eol
            !example:tweet about swift
            !expect:first post about swift

            tell me a fact
            !console:$!$
            {"url":"\(base)/fact.json","path":"$.value.joke"}
            eol

            news
            !console:Here are the headlines.
            {"url":"\(base)/list.json","path":"$","actions":[{"type":"rss","title":"title","link":"link","count":2}]}
            eol

            status report
            !console:$!$
            {"url":"\(base)/broken.json","path":"$"}
            eol

            status *
            The status service is down.

            slow thing
            !console:$!$
            {"url":"\(base)/slow.json","path":"$"}
            eol

            slow *
            That took too long.
            """
        let fetcher = HTTPSkillDataFetcher(client: CurlHTTPClient(), connectTimeout: 1, totalTimeout: 1)
        let brain = Brain(texts: [("demo", skill)], fetcher: fetcher, pick: { _ in 0 })
        XCTAssertEqual(brain.diagnostics, [])

        XCTAssertEqual(
            say(brain, "what do people say about new york"), "first post about new york (by ada)")
        XCTAssertEqual(say(brain, "tell me a fact"), "Atoms make up everything.")
        let news = try brain.answer("news", context: .examples)
        XCTAssertEqual(news.spokenText, "Here are the headlines.")
        XCTAssertEqual(
            news.actions.last,
            .rss(RSSAction(title: "title", description: "description", link: "link", count: 2)))
        XCTAssertEqual(news.firstAnswer?.data.map { $0["title"] }, ["A", "B"])
        XCTAssertEqual(
            say(brain, "status report"), "The status service is down.", "HTTP 503 falls through")
        XCTAssertEqual(say(brain, "slow thing"), "That took too long.", "a timeout falls through")
        XCTAssertTrue(brain.runExamples().allSatisfy(\.passed))
    }

    func testUnreachableServiceFallsThrough() throws {
        // Bind and release a port so nothing listens there.
        let probe = HTTPServer(port: 0, router: Router())
        try probe.start()
        let port = try XCTUnwrap(probe.port)
        probe.stop()
        let brain = Brain(
            texts: [
                (
                    "x",
                    "weather\n!console:$!$\n{\"url\":\"http://127.0.0.1:\(port)/w\"}\neol\n\n*\nNo idea.\n"
                )
            ],
            fetcher: HTTPSkillDataFetcher(client: CurlHTTPClient(), connectTimeout: 1, totalTimeout: 1))
        XCTAssertEqual(say(brain, "weather"), "No idea.")
    }

    func testChatEndpointServesTheSUSIShape() throws {
        let brain = try Brain(
            directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let handler = ChatServerHandler(brain: brain) { BrainContext(room: "hall", volume: 50) }
        let base = try serve { handler.install(on: &$0) }
        let client = CurlHTTPClient()

        let response = try client.send(
            HTTPRequest(
                url: base + "/susi/chat.json",
                query: [
                    ("q", "hello"), ("timezoneOffset", "-120"), ("language", "en"),
                    ("device_type", "Smart Speaker"),
                ]))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("access-control-allow-origin"), "*")
        let reply = try ChatResponse.decode(response.body)
        XCTAssertEqual(reply.query, "hello")
        XCTAssertEqual(reply.skill, "conversation")
        XCTAssertEqual(reply.spokenText, "Hello! What can I do for you?")
        let json = try JSONValue.parse(response.body)
        for key in ["query", "query_date", "answer_date", "answer_time", "session", "answers"] {
            XCTAssertNotNil(json[key], key)
        }
        XCTAssertEqual(json["answers"]?[0]?["actions"]?[0]?["type"], "answer")

        // The time zone comes from timezoneOffset: UTC minus local, so -120 is two hours ahead.
        let time = try ChatResponse.decode(
            try client.send(
                HTTPRequest(
                    url: base + "/susi/chat.json",
                    query: [("q", "what time is it"), ("timezoneOffset", "-120")])
            ).body)
        XCTAssertEqual(time.skill, "time")

        // POST as a form, and "say that again" remembers the previous answer.
        let post = try client.send(
            HTTPRequest(
                method: .post, url: base + "/susi/chat.json", form: [("q", "which room are you in")]))
        XCTAssertEqual(try ChatResponse.decode(post.body).spokenText, "I'm in the hall.")
        let again = try client.send(
            HTTPRequest(url: base + "/susi/chat.json", query: [("q", "say that again")]))
        XCTAssertEqual(try ChatResponse.decode(again.body).spokenText, "I'm in the hall.")
    }

    func testChatEndpointKeepsSkillMemoryPerSession() throws {
        let brain = Brain(
            texts: [("m", "call me *\nOK, $1$>_name.\n\nwho am i\n?$_name$:You are $_name$.:I do not know.\n")])
        let handler = ChatServerHandler(brain: brain)
        let base = try serve { handler.install(on: &$0) }
        let client = CurlHTTPClient()
        func ask(_ text: String, session: String) throws -> String {
            let response = try client.send(
                HTTPRequest(url: base + "/susi/chat.json", query: [("q", text), ("session", session)]))
            return try ChatResponse.decode(response.body).spokenText
        }
        XCTAssertEqual(try ask("call me ada", session: "one"), "OK, ada.")
        XCTAssertEqual(try ask("who am i", session: "one"), "You are ada.")
        XCTAssertEqual(try ask("who am i", session: "two"), "I do not know.")
        XCTAssertEqual(try ask("forget what I told you", session: "one"), "OK, I have forgotten what you told me.")
        XCTAssertEqual(try ask("who am i", session: "one"), "I do not know.")
    }

    func testChatEndpointErrors() throws {
        let brain = Brain(texts: [("x", "*\nok\n")])
        let handler = ChatServerHandler(brain: brain)
        let base = try serve { handler.install(on: &$0) }
        let client = CurlHTTPClient()
        let cases: [([(name: String, value: String)], String)] = [
            ([], "brain-empty-query"),
            ([("q", "")], "brain-empty-query"),
            ([("q", String(repeating: "x", count: 11_000))], "brain-query-too-long"),
            ([("q", "a\u{1}b")], "brain-binary-query"),
            ([("q", "hi"), ("timezoneOffset", "soon")], "brain-bad-parameter"),
        ]
        for (query, code) in cases {
            let response = try client.send(HTTPRequest(url: base + "/susi/chat.json", query: query))
            XCTAssertEqual(response.status, 400, code)
            XCTAssertEqual(try JSONValue.parse(response.body)["code"], .string(code))
        }
        let wrongMethod = try client.send(HTTPRequest(method: .post, url: base + "/susi/other.json"))
        XCTAssertEqual(wrongMethod.status, 404)
    }

    func testCurlToolAgainstChatEndpoint() throws {
        let brain = try Brain(
            directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let handler = ChatServerHandler(brain: brain)
        let base = try serve { handler.install(on: &$0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = [
            "-s", "--max-time", "10", base + "/susi/chat.json?q=what%20is%20seven%20times%20eight",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw XCTSkip("the curl tool is not installed")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let reply = try ChatResponse.decode(data)
        XCTAssertEqual(reply.spokenText, "7 times 8 is 56.")
        XCTAssertEqual(reply.skill, "arithmetic")
    }
}

/// `instant` and `callback` as susi_server's chat servlet takes them.
final class ChatServerCompatibilityTests: XCTestCase {
    private var servers: [HTTPServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
    }

    private func base() throws -> String {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        let handler = ChatServerHandler(brain: brain)
        let (server, base) = try startServer { handler.install(on: &$0) }
        servers.append(server)
        return base + "/susi/chat.json"
    }

    func testInstantSkillAnswersFirstAndTheBuiltInSkillsTheRest() throws {
        let url = try base()
        let client = CurlHTTPClient()
        // The web clients send the skill's lines joined by a literal backslash-n.
        let instant = "who made you|who built you\\nA cat named Tom built me.\\n\\nfavourite colour\\nBlue, of course."
        let made = try client.send(HTTPRequest(url: url, query: [("q", "who made you"), ("instant", instant)]))
        XCTAssertEqual(try ChatResponse.decode(made.body).spokenText, "A cat named Tom built me.")
        let colour = try client.send(
            HTTPRequest(method: .post, url: url, form: [("q", "favourite colour"), ("instant", instant)]))
        XCTAssertEqual(try ChatResponse.decode(colour.body).spokenText, "Blue, of course.")
        let other = try client.send(HTTPRequest(url: url, query: [("q", "hello"), ("instant", instant)]))
        XCTAssertEqual(try ChatResponse.decode(other.body).spokenText, "Hello! What can I do for you?")
        let without = try client.send(HTTPRequest(url: url, query: [("q", "who made you")]))
        XCTAssertNotEqual(try ChatResponse.decode(without.body).spokenText, "A cat named Tom built me.")
        let huge = String(repeating: "x", count: ChatServerHandler.maximumInstantBytes + 1)
        XCTAssertEqual(try client.send(HTTPRequest(method: .post, url: url, form: [("q", "hi"), ("instant", huge)])).status, 400)
    }

    /// Issue 51: SUSI texts sometimes break lines with a bare `%0d`; it splits them as `%0a`
    /// and a literal `\n` do.
    func testInstantLinesSplitByACarriageReturnAloneAreLines() throws {
        let url = try base()
        let client = CurlHTTPClient()
        for instant in [
            "who made you\rA cat named Tom built me.\r\rfavourite colour\rBlue, of course.",
            "who made you\r\nA cat named Tom built me.\r\n\r\nfavourite colour\r\nBlue, of course.",
        ] {
            let made = try client.send(HTTPRequest(url: url, query: [("q", "who made you"), ("instant", instant)]))
            XCTAssertEqual(try ChatResponse.decode(made.body).spokenText, "A cat named Tom built me.", instant.debugDescription)
            let colour = try client.send(
                HTTPRequest(method: .post, url: url, form: [("q", "favourite colour"), ("instant", instant)]))
            XCTAssertEqual(try ChatResponse.decode(colour.body).spokenText, "Blue, of course.", instant.debugDescription)
        }
    }

    func testCallbackWrapsTheReplyAsJSONP() throws {
        let url = try base()
        let client = CurlHTTPClient()
        let response = try client.send(HTTPRequest(url: url, query: [("q", "hello"), ("callback", "app.onReply_1")]))
        XCTAssertEqual(response.status, 200)
        XCTAssertTrue(response.header("content-type")?.hasPrefix("application/javascript") == true)
        let text = String(decoding: response.body, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("app.onReply_1(") && text.hasSuffix(");"), text)
        let json = Data(text.dropFirst("app.onReply_1(".count).dropLast(2).utf8)
        XCTAssertEqual(try ChatResponse.decode(json).spokenText, "Hello! What can I do for you?")

        let failed = try client.send(HTTPRequest(url: url, query: [("callback", "cb")]))
        let failure = String(decoding: failed.body, as: UTF8.self)
        XCTAssertTrue(failure.hasPrefix("cb({") && failure.contains("brain-empty-query"), failure)

        for bad in ["alert(1)", "a b", "1x", "x..y", "<script>"] {
            let refused = try client.send(HTTPRequest(url: url, query: [("q", "hello"), ("callback", bad)]))
            XCTAssertEqual(refused.status, 400, bad)
            XCTAssertFalse(String(decoding: refused.body, as: UTF8.self).hasPrefix(bad), bad)
        }
    }
}
