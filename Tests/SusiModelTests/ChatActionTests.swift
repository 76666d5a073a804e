import Foundation
import XCTest

@testable import SusiModel

/// Every action type of SUSI's chat.json, decoded from hand-written SUSI-shaped JSON and
/// written back.
final class ChatActionTests: XCTestCase {
    private func decode(_ json: String) throws -> ChatAction {
        try JSONDecoder().decode(ChatAction.self, from: Data(json.utf8))
    }

    /// Encodes and decodes again; the result must equal the input.
    private func assertRoundTrip(
        _ action: ChatAction, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let data = try JSONEncoder().encode(action)
        let again = try JSONDecoder().decode(ChatAction.self, from: data)
        XCTAssertEqual(again, action, file: file, line: line)
    }

    func testAnswerWithPlan() throws {
        let action = try decode(
            #"{"type":"answer","expression":"Time is up","language":"en","plan_delay":"120000","plan_date":"2024-03-04T10:02:00.000Z"}"#
        )
        guard case .answer(let answer) = action else { return XCTFail("not an answer: \(action)") }
        XCTAssertEqual(answer.expression, "Time is up")
        XCTAssertEqual(answer.planDelay, 120000)
        XCTAssertEqual(answer.planDate, "2024-03-04T10:02:00.000Z")
        XCTAssertTrue(answer.isPlanned)
        XCTAssertEqual(action.object["plan_delay"], .number(120000))
        try assertRoundTrip(action)
    }

    func testAnswerDefaults() throws {
        let action = try decode(#"{"type":"answer"}"#)
        XCTAssertEqual(action, .answer(AnswerAction(expression: "", language: "en")))
        guard case .answer(let answer) = action else { return XCTFail() }
        XCTAssertFalse(answer.isPlanned)
    }

    func testTableWithTitledColumns() throws {
        let json =
            #"{"type":"table","columns":{"zname":"Name","amount":"Amount","city":"City"},"count":"3"}"#
        let action = try decode(json)
        guard case .table(let table) = action else { return XCTFail("not a table") }
        XCTAssertEqual(table.columns.all.map(\.key), ["amount", "city", "zname"], "sorted by key")
        XCTAssertEqual(table.columns.all.map(\.title), ["Amount", "City", "Name"])
        XCTAssertEqual(table.count, 3)
        try assertRoundTrip(action)
    }

    func testTableWithColumnArrayAndDefaultCount() throws {
        let action = try decode(#"{"type":"table","columns":["title","year"]}"#)
        XCTAssertEqual(action, .table(TableAction(columns: .keys(["title", "year"]), count: -1)))
        try assertRoundTrip(action)
    }

    func testPieChart() throws {
        let action = try decode(
            #"{"type":"piechart","total":"100","key":"party","value":"percent","unit":"%"}"#)
        XCTAssertEqual(
            action, .piechart(PieChartAction(key: "party", value: "percent", unit: "%", total: 100)))
        try assertRoundTrip(action)
    }

    func testRSS() throws {
        let action = try decode(
            #"{"type":"rss","title":"headline","description":"summary","link":"url","count":2}"#)
        XCTAssertEqual(
            action, .rss(RSSAction(title: "headline", description: "summary", link: "url", count: 2)))
        try assertRoundTrip(action)
        XCTAssertEqual(try decode(#"{"type":"rss"}"#), .rss(RSSAction()))
    }

    func testWebSearch() throws {
        let action = try decode(#"{"type":"websearch","query":"fossasia","count":"3"}"#)
        XCTAssertEqual(action, .websearch(WebSearchAction(query: "fossasia", count: 3)))
        try assertRoundTrip(action)
    }

    func testAnchor() throws {
        let action = try decode(#"{"type":"anchor","link":"https://susi.ai","text":"SUSI"}"#)
        XCTAssertEqual(action, .anchor(AnchorAction(link: "https://susi.ai", text: "SUSI")))
        try assertRoundTrip(action)
    }

    func testMapWithStringsAndNumbers() throws {
        let strings = try decode(#"{"type":"map","latitude":"52.52","longitude":"13.405","zoom":"13"}"#)
        let numbers = try decode(#"{"type":"map","latitude":52.52,"longitude":13.405,"zoom":13}"#)
        XCTAssertEqual(strings, numbers)
        XCTAssertEqual(strings, .map(MapAction(latitude: 52.52, longitude: 13.405, zoom: 13)))
        XCTAssertEqual(
            try decode(#"{"type":"map","latitude":1,"longitude":2}"#),
            .map(MapAction(latitude: 1, longitude: 2, zoom: 13)))
        try assertRoundTrip(strings)
    }

    func testVideoAndAudioPlay() throws {
        let video = try decode(
            #"{"type":"video_play","identifier":"7qnd-hdmgfk","identifier_type":"youtube"}"#)
        XCTAssertEqual(
            video, .videoPlay(MediaPlayAction(identifier: "7qnd-hdmgfk", identifierType: "youtube")))
        let audio = try decode(
            #"{"type":"audio_play","identifier":"some jazz","identifier_type":"search"}"#)
        XCTAssertEqual(
            audio,
            .audioPlay(MediaPlayAction(identifier: "some jazz", identifierType: MediaPlayAction.search)))
        let defaulted = try decode(#"{"type":"audio_play","identifier":"abc"}"#)
        XCTAssertEqual(
            defaulted, .audioPlay(MediaPlayAction(identifier: "abc", identifierType: "youtube")))
        try assertRoundTrip(video)
        try assertRoundTrip(audio)
    }

    func testAudioVolumeStringOrNumberClamped() throws {
        XCTAssertEqual(
            try decode(#"{"type":"audio_volume","volume":"60"}"#), .audioVolume(VolumeAction(volume: 60)))
        XCTAssertEqual(
            try decode(#"{"type":"audio_volume","volume":35}"#), .audioVolume(VolumeAction(volume: 35)))
        XCTAssertEqual(
            try decode(#"{"type":"audio_volume","volume":250}"#), .audioVolume(VolumeAction(volume: 100)))
        try assertRoundTrip(.audioVolume(VolumeAction(volume: 60)))
    }

    func testControlActions() throws {
        let expected: [String: ChatAction] = [
            "stop": .stop, "pause": .pause, "resume": .resume, "restart": .restart,
            "next": .next, "previous": .previous, "shuffle": .shuffle,
        ]
        for (type, action) in expected {
            XCTAssertEqual(try decode(#"{"type":"\#(type)"}"#), action, type)
            XCTAssertEqual(action.type, type)
            try assertRoundTrip(action)
        }
    }

    func testTimerSet() throws {
        let action = try decode(#"{"type":"timer_set","hour":"7","minute":30,"second":0}"#)
        XCTAssertEqual(action, .timerSet(TimerSetAction(hour: 7, minute: 30, second: 0)))
        try assertRoundTrip(action)
    }

    func testImageShow() throws {
        let action = try decode(#"{"type":"image_show","url":"https://example.org/cat.png"}"#)
        XCTAssertEqual(action, .imageShow(ImageShowAction(url: "https://example.org/cat.png")))
        try assertRoundTrip(action)
    }

    func testSettingsValueFromNumberOrString() throws {
        XCTAssertEqual(
            try decode(#"{"type":"settings","key":"tts.voice","value":"en-gb"}"#),
            .settings(SettingsAction(key: "tts.voice", value: "en-gb")))
        XCTAssertEqual(
            try decode(#"{"type":"settings","key":"tts.rate","value":200}"#),
            .settings(SettingsAction(key: "tts.rate", value: "200")))
        try assertRoundTrip(.settings(SettingsAction(key: "tts.rate", value: "200")))
    }

    func testUnknownTypeKeptVerbatim() throws {
        let json = #"{"type":"hologram","colour":"blue","size":[1,2]}"#
        let action = try decode(json)
        guard case .unknown(let unknown) = action else { return XCTFail("expected unknown") }
        XCTAssertEqual(unknown.type, "hologram")
        XCTAssertEqual(unknown.raw["size"], [1, 2])
        let reencoded = try JSONValue.parse(try JSONEncoder().encode(action))
        XCTAssertEqual(reencoded, try JSONValue.parse(json))
    }

    func testNonObjectActionFailsAlone() {
        XCTAssertThrowsError(try decode(#""answer""#))
    }

    func testTheSpeakersOwnActionsAreTyped() throws {
        XCTAssertEqual(try decode(#"{"type":"timer_list"}"#), .timerList)
        XCTAssertEqual(try decode(#"{"type":"Timer_Cancel"}"#), .timerCancel)
        let alarm = try decode(#"{"type":"alarm_set","hour":"7","repeat":"weekdays"}"#)
        XCTAssertEqual(alarm, .planner(PlannerAction(.alarmSet, fields: ["hour": "7", "repeat": "weekdays"])))
        XCTAssertEqual(alarm.type, "alarm_set")
        try assertRoundTrip(alarm)
        XCTAssertEqual(try decode(#"{"type":"skill_rate","stars":"4"}"#), .skillFeedback(SkillFeedbackAction(.rate, stars: 4)))
        try assertRoundTrip(.skillFeedback(SkillFeedbackAction(.rate, stars: 4)))
        XCTAssertEqual(try decode(#"{"type":"skill_report"}"#), .skillFeedback(SkillFeedbackAction(.report)))
        // A skill_ type the speaker does not know stays unknown, as any other.
        guard case .unknown = try decode(#"{"type":"skill_hologram"}"#) else { return XCTFail("expected unknown") }

        let home = try decode(
            #"{"type":"home_assistant","command":"brightness","entity_id":"light.a,light.b","name":"none","value":"40"}"#)
        guard case .homeAssistant(let action) = home else { return XCTFail("expected home_assistant") }
        XCTAssertEqual(action.command, .brightness)
        XCTAssertEqual(action.entityIDs, "light.a,light.b")
        XCTAssertNil(action.name)
        XCTAssertEqual(action.value, 40)
        XCTAssertNil(HomeAssistantAction(fields: ["command": "explode"]).command)
        try assertRoundTrip(home)
    }

    func testEachActionSaysWhetherItControlsTheSpeakerAndWhatEventItRaises() throws {
        XCTAssertTrue(ChatAction.pause.controlsSpeaker)
        XCTAssertTrue(ChatAction.timerSet(TimerSetAction(hour: 7)).controlsSpeaker)
        XCTAssertFalse(ChatAction.timerList.controlsSpeaker)
        XCTAssertFalse(ChatAction.answer(AnswerAction(expression: "hi")).controlsSpeaker)
        let play = ChatAction.audioPlay(MediaPlayAction(identifier: "jazz", identifierType: "search"))
        XCTAssertTrue(play.startsPlayback)
        XCTAssertFalse(ChatAction.resume.startsPlayback)
        XCTAssertEqual(play.event, .play(type: "audio_play", identifier: "jazz", identifierType: "search"))
        XCTAssertEqual(ChatAction.next.event, .player(command: "next"))
        XCTAssertEqual(ChatAction.audioVolume(VolumeAction(volume: 30)).event, .player(command: "volume 30"))
        XCTAssertNil(ChatAction.planner(PlannerAction(.listRead)).event)
    }

    func testAMediaActionCarriesAQueue() throws {
        let action = try decode(
            #"{"type":"audio_play","identifier":"http://a/1.mp3","identifier_type":"url","queue":["http://a/2.mp3"]}"#)
        guard case .audioPlay(let media) = action else { return XCTFail("expected audio_play") }
        XCTAssertEqual(media.queue, ["http://a/2.mp3"])
        try assertRoundTrip(action)
        XCTAssertNil(MediaPlayAction(identifier: "x").object["queue"], "one item has no queue member")
    }
}
