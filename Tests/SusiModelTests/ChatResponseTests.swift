import Foundation
import XCTest

@testable import SusiModel

/// Whole chat.json replies in the layouts SUSI servers have used.
final class ChatResponseTests: XCTestCase {
    private let newer = #"""
        {
          "query": "play some jazz",
          "client_id": "aG9zdF8xMjcuMC4wLjE=",
          "query_date": "2024-03-04T10:00:00.000Z",
          "answers": [{
            "data": [{"0": "play some jazz", "1": "jazz"}, "loose"],
            "metadata": {"count": 1, "offset": 0},
            "actions": [
              {"type": "answer", "expression": "Playing jazz", "language": "en"},
              {"type": "audio_play", "identifier": "jazz", "identifier_type": "search"},
              "garbage",
              {"type": "sparkle"}
            ],
            "skills": ["/susi_skill_data/models/general/Music/en/play.txt"],
            "persona": {}
          }],
          "answer_date": "2024-03-04T10:00:00.040Z",
          "answer_time": 40,
          "query_language": "en",
          "session": {"identity": {"type": "host", "name": "127.0.0.1", "anonymous": true}}
        }
        """#

    private let older = #"""
        {"query":"hi","count":"1","query_date":"d1","answers":[{"data":[],"metadata":{"count":"0"},
         "actions":[{"type":"answer","expression":"Hello!"},{"type":"answer","expression":"later","plan_delay":5000}]}],
         "answer_date":"d2","answer_time":"12","language":"de","session":{}}
        """#

    func testDecodesNewerLayout() throws {
        let reply = try ChatResponse.decode(Data(newer.utf8))
        XCTAssertEqual(reply.query, "play some jazz")
        XCTAssertEqual(reply.queryLanguage, "en")
        XCTAssertNil(reply.count)
        XCTAssertEqual(reply.answerTime, 40)
        XCTAssertEqual(reply.clientID, "aG9zdF8xMjcuMC4wLjE=")
        XCTAssertEqual(reply.skill, "/susi_skill_data/models/general/Music/en/play.txt")
        XCTAssertEqual(reply.actions.count, 3, "garbage dropped, unknown kept")
        XCTAssertEqual(
            reply.actions[1], .audioPlay(MediaPlayAction(identifier: "jazz", identifierType: "search")))
        XCTAssertEqual(reply.actions[2].type, "sparkle")
        XCTAssertEqual(reply.firstAnswer?.data.count, 2)
        XCTAssertEqual(reply.firstAnswer?.data[1], ["object": "loose"])
        XCTAssertEqual(reply.firstAnswer?.metadata.count, 1)
        XCTAssertEqual(reply.firstAnswer?.metadata.extra["offset"], 0)
        XCTAssertEqual(reply.session?["identity"]?["name"], "127.0.0.1")
        XCTAssertEqual(reply.spokenText, "Playing jazz")
        XCTAssertTrue(reply.hasAnswer)
    }

    func testDecodesOlderLayoutWithStringNumbers() throws {
        let reply = try ChatResponse.decode(Data(older.utf8))
        XCTAssertEqual(reply.count, 1)
        XCTAssertEqual(reply.answerTime, 12)
        XCTAssertNil(reply.queryLanguage)
        XCTAssertEqual(reply.effectiveLanguage, "de")
        XCTAssertEqual(reply.spokenText, "Hello!", "planned answers are not spoken now")
        XCTAssertNil(reply.skill)
    }

    func testRoundTripKeepsLayout() throws {
        for text in [newer, older] {
            let reply = try ChatResponse.decode(Data(text.utf8))
            let again = try ChatResponse.decode(try reply.encoded())
            XCTAssertEqual(again, reply)
        }
        let olderJSON = try JSONValue.parse(try ChatResponse.decode(Data(older.utf8)).encoded())
        XCTAssertEqual(olderJSON["count"], 1)
        XCTAssertNil(olderJSON["query_language"])
        XCTAssertEqual(olderJSON["language"], "de")
    }

    func testNoAnswerAndSoftFailure() throws {
        let missing = try ChatResponse.decode(Data(#"{"query":"x"}"#.utf8))
        XCTAssertTrue(missing.answers.isEmpty)
        XCTAssertFalse(missing.hasAnswer)
        XCTAssertEqual(missing.spokenText, "")
        let soft = try ChatResponse.decode(Data(#"{"accepted":false,"message":"quota exceeded"}"#.utf8))
        XCTAssertEqual(soft.accepted, false)
        XCTAssertEqual(soft.message, "quota exceeded")
        XCTAssertFalse(soft.hasAnswer)
    }

    func testTimestampFormat() {
        let date = Date(timeIntervalSince1970: 1_709_546_400.25)
        XCTAssertEqual(ChatResponse.timestamp(date), "2024-03-04T10:00:00.250Z")
    }
}
