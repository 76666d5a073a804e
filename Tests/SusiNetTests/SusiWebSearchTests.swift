import Foundation
import SusiModel
import SusiNet
import SusiServer
import XCTest

/// The web search client against a loopback stand-in for DuckDuckGo's instant answers.
final class SusiWebSearchTests: XCTestCase {
    private func searchServer(seen: QueryLog = QueryLog()) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/") { request in
                seen.append(request.query)
                switch request.query["q"] {
                case "swift":
                    return jsonReply(
                        #"{"AbstractText": "Swift is a programming language.", "AbstractURL": "https://en.wikipedia.org/wiki/Swift", "RelatedTopics": [{"Text": "ignored"}]}"#
                    )
                case "berlin":
                    return jsonReply(
                        #"{"AbstractText": "", "RelatedTopics": [{"Name": "Places", "Topics": [{"Text": "Berlin, capital of Germany", "FirstURL": "https://duckduckgo.com/Berlin"}]}]}"#
                    )
                case "amazon":
                    return jsonReply(
                        #"{"AbstractText": "", "RelatedTopics": [{"Text": "Amazon.com Amazon.com, Inc. is an American company.", "Result": "<a href=\"https://duckduckgo.com/Amazon.com\">Amazon.com</a>Amazon.com, Inc. is an American company.", "FirstURL": "https://duckduckgo.com/Amazon.com"}]}"#
                    )
                case "new york":
                    return jsonReply(
                        #"{"AbstractText": "", "RelatedTopics": [{"Text": "New York New York is a city in the United States."}]}"#
                    )
                case "paris":
                    return jsonReply(
                        #"{"AbstractText": "", "RelatedTopics": [{"Text": "Paris (band) A rock band.", "Result": "<a href=\"https://duckduckgo.com/Paris_(band)\">Paris (band)</a>A rock band."}]}"#
                    )
                case "slow":
                    Thread.sleep(forTimeInterval: 2)
                    return jsonReply("{}")
                case "broken":
                    return .html("<title>Bad Gateway</title>", status: 502)
                default:
                    return jsonReply(#"{"AbstractText": "", "RelatedTopics": []}"#)
                }
            }
        }
    }

    func testATopicsTitleIsSaidOnce() throws {
        let (server, base) = try searchServer()
        defer { server.stop() }
        let client = WebSearchClient(baseURL: base, http: CurlHTTPClient())
        XCTAssertEqual(try client.search("amazon").text, "Amazon.com, Inc. is an American company.")
        XCTAssertEqual(try client.search("new york").text, "New York is a city in the United States.")
        XCTAssertEqual(try client.search("paris").text, "Paris (band) A rock band.", "a title said once stays")
        XCTAssertEqual(try client.search("berlin").text, "Berlin, capital of Germany")
    }

    func testAbstractThenFirstRelatedTopic() throws {
        let seen = QueryLog()
        let (server, base) = try searchServer(seen: seen)
        defer { server.stop() }
        let client = WebSearchClient(baseURL: base, http: CurlHTTPClient())
        let swift = try client.search("swift")
        XCTAssertEqual(swift.text, "Swift is a programming language.")
        XCTAssertEqual(swift.url, "https://en.wikipedia.org/wiki/Swift")
        XCTAssertEqual(seen.all.first?["format"], "json")
        XCTAssertEqual(try client.search("berlin").text, "Berlin, capital of Germany")
        XCTAssertEqual(client.spokenAnswer(for: WebSearchAction(query: "berlin")), "Berlin, capital of Germany")
    }

    func testFailuresAreTypedAndSpokenPolitely() throws {
        let (server, base) = try searchServer()
        defer { server.stop() }
        let client = WebSearchClient(baseURL: base, http: CurlHTTPClient(), timeout: 0.5)
        XCTAssertThrowsError(try client.search("nothing")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "websearch-no-answer")
        }
        XCTAssertThrowsError(try client.search("broken")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "websearch-http-status")
            XCTAssertEqual(($0 as? SusiAPIError)?.reason, "Bad Gateway")
        }
        let started = Date()
        XCTAssertThrowsError(try client.search("slow")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "websearch-timeout")
        }
        XCTAssertLessThan(elapsed(since: started), 0.5 + 1.5)
        XCTAssertTrue(client.spokenAnswer(for: WebSearchAction(query: "nothing")).contains("found nothing"))
        XCTAssertTrue(client.spokenAnswer(for: WebSearchAction(query: "broken")).hasPrefix("Sorry"))
    }
}
