import Foundation
import XCTest

@testable import SusiCore
@testable import SusiModel
@testable import SusiPipeline

/// Every action type the SUSI server sends, as a speaker without a screen says it.
final class SpokenTextTests: XCTestCase {
    private let rows: [[String: JSONValue]] = [
        ["name": "Berlin", "people": 3_700_000, "title": "Rain in Berlin", "link": "https://example.org/1"],
        ["name": "Hamburg", "people": 1_900_000, "title": "Sun in Hamburg", "link": "https://example.org/2"],
        ["name": "Munich", "people": 1_500_000, "title": "Snow in Munich", "link": "https://example.org/3"],
        ["name": "Cologne", "people": 1_100_000, "title": "Fog in Cologne", "link": "https://example.org/4"],
    ]

    func testTableSaysHowManyRowsThenTheFirstThree() throws {
        let text = try XCTUnwrap(
            SpokenText.brief(.table(TableAction(columns: .titled([TableColumn(key: "name", title: "City")]))), data: rows))
        XCTAssertTrue(text.hasPrefix("I found 4 results."), text)
        XCTAssertTrue(text.contains("City Berlin") && text.contains("City Munich"), text)
        XCTAssertFalse(text.contains("Cologne"), "only the first three rows")
    }

    func testRSSSaysTheFirstThreeTitlesAndNoLinks() throws {
        let text = try XCTUnwrap(SpokenText.brief(.rss(RSSAction()), data: rows))
        XCTAssertTrue(text.contains("Rain in Berlin") && text.contains("Snow in Munich"), text)
        XCTAssertFalse(text.contains("Fog in Cologne"))
        XCTAssertFalse(text.contains("https://"))
    }

    func testAnchorMapPiechartAndImages() throws {
        XCTAssertEqual(
            SpokenText.brief(.anchor(AnchorAction(link: "https://example.org", text: "The SUSI website"))), "The SUSI website")
        let map = try XCTUnwrap(SpokenText.brief(.map(MapAction(object: ["latitude": "52.52", "longitude": 13.4, "zoom": 12]))))
        XCTAssertTrue(map.contains("52.52") && map.contains("13.40"), map)
        let pie = try XCTUnwrap(SpokenText.brief(.piechart(PieChartAction(key: "name", value: "people")), data: rows))
        XCTAssertTrue(pie.contains("Berlin"), pie)
        let image = try XCTUnwrap(SpokenText.brief(.imageShow(ImageShowAction(object: ["url": "https://example.org/cat.png"]))))
        XCTAssertFalse(image.contains("https://"))
        XCTAssertEqual(SpokenText.answer("https://example.org/cat.png?size=2"), image, "an answer that is only an image URL")
    }

    func testDeviceActionsAreSilentHereAndShownInAsk() {
        let silent: [ChatAction] = [
            .audioPlay(MediaPlayAction(identifier: "jazz", identifierType: "search")),
            .videoPlay(MediaPlayAction(identifier: "7qnd-hdmgfk")), .audioVolume(VolumeAction(volume: 40)), .stop, .pause,
            .resume, .restart, .next, .previous, .shuffle, .settings(SettingsAction(key: "tts.voice", value: "en-gb")),
            .timerSet(TimerSetAction(object: ["hour": 7, "minute": 30])), .websearch(WebSearchAction(object: ["query": "swift"])),
        ]
        for action in silent {
            // What they say comes from performing them (ActionDispatcherTests: the timer is
            // planned and confirmed, the player asked, the setting saved).
            XCTAssertNil(SpokenText.brief(action), "\(action.type) is silent here")
        }
        let reply = ChatResponse(
            query: "q", queryDate: "", answerDate: "", answerTime: 0,
            answers: [
                ChatAnswer(actions: [
                    .answer(AnswerAction(expression: "Playing jazz.")), silent[0], .pause,
                    .answer(AnswerAction(expression: "Time is up", planDelay: 3000)),
                    .timerSet(TimerSetAction(hour: 7, minute: 30)),
                ])
            ])
        XCTAssertEqual(
            SpokenText.lines(for: reply),
            ["Playing jazz.", "(plays search jazz)", "(player: pause)", "(in 3 s: Time is up)", "(timer at 7:30)"])
    }

    /// Issue 51: an answer whose lines a bare carriage return splits (`%0d` from a SUSI
    /// server) keeps them as lines, as with a newline, rather than one glued line on a terminal.
    func testACarriageReturnInAnAnswerIsALineBreak() {
        XCTAssertEqual(SpokenText.answer("First line.\rSecond line."), "First line.\nSecond line.")
        XCTAssertEqual(SpokenText.answer("First line.\r\nSecond line.\r"), "First line.\nSecond line.")
        XCTAssertEqual(
            ControlCharacters.escapedForTerminal(SpokenText.answer("One.\rTwo.") ?? ""), "One.\nTwo.",
            "not \"One.Two.\" once the terminal output drops the carriage return")
    }

    func testWebAddressesAreSaidAsALink() {
        XCTAssertEqual(
            SpokenText.answer("See https://example.org/page.html for more."), "See a link for more.")
        XCTAssertEqual(
            SpokenText.answer("Docs (http://a.b/c?d=1), or www.example.com!"), "Docs (a link), or a link!")
        XCTAssertEqual(SpokenText.answer("No address: 3.14 and e.g. this."), "No address: 3.14 and e.g. this.")
        XCTAssertEqual(
            SpokenText.answer("https://example.org/cat.png"), "I found an image, but I cannot show it on a speaker.")
        let reply = ChatResponse(
            query: "q", queryDate: "", answerDate: "", answerTime: 0,
            answers: [
                ChatAnswer(actions: [.answer(AnswerAction(expression: "Read https://example.org/x now."))])
            ])
        XCTAssertEqual(SpokenText.lines(for: reply), ["Read a link now."])
        XCTAssertTrue(
            reply.actions.first.map { "\($0)" }?.contains("https://example.org/x") == true,
            "the action itself (and so the answer event) keeps the address")
    }

    func testLongAnswersAreCutAtASentenceWithAndMore() {
        let sentence = "The quick brown fox jumps over the lazy dog again and again. "
        let cut = SpokenText.answer(String(repeating: sentence, count: 12)) ?? ""
        XCTAssertTrue(cut.hasSuffix("again. And more."), cut)
        XCTAssertLessThanOrEqual(cut.count, SpokenText.maximumCharacters + 10)
    }
}
