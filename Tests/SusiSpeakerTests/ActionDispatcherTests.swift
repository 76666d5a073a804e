import Foundation
import SusiModel
import SusiNet
import SusiPlayer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The one action dispatcher, with a fake player and HTTP client and a real config file.
final class ActionDispatcherTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    private func action(_ object: [String: JSONValue]) -> ChatAction {
        ChatAction(object: object)
    }

    func testMediaActionsGoToTheOnePlayer() throws {
        let fake = FakePlayer(volume: 50)
        let player = SpeakerPlayer { fake }
        let (dispatcher, _, _) = try scratch.dispatcher(player: player)
        XCTAssertNil(dispatcher.perform(.answer(AnswerAction(expression: "hello")), from: .builtIn).failure)
        XCTAssertNil(player.current, "an answer is no player action and makes no player")

        let actions: [ChatAction] = [
            action(["type": "audio_play", "identifier": "song.ogg", "identifier_type": "url"]),
            .pause, .resume, action(["type": "audio_volume", "volume": 30]), .next, .previous, .restart, .shuffle, .stop,
        ]
        for chatAction in actions {
            let outcome = dispatcher.perform(chatAction, from: .builtIn)
            XCTAssertNil(outcome.failure, "\(chatAction.type)")
            XCTAssertNil(outcome.say, "media actions bring no words of their own")
        }
        XCTAssertEqual(
            fake.calls,
            ["play url:song.ogg", "pause", "resume", "volume 30", "next", "previous", "restart", "shuffle", "stop"])
        XCTAssertEqual(fake.volume, 30)
    }

    func testAPlayerFailureIsTheOutcomesFailure() throws {
        let fake = FakePlayer()
        fake.fail(with: PlayerError(.loadFailed, "cannot open song.ogg"))
        let (dispatcher, _, _) = try scratch.dispatcher(player: SpeakerPlayer { fake })
        let outcome = dispatcher.perform(
            action(["type": "audio_play", "identifier": "song.ogg", "identifier_type": "url"]), from: .builtIn)
        XCTAssertEqual(outcome.failure?.code, "player-load-failed")
    }

    func testAfterShutdownNoPlayerIsMade() throws {
        let player = SpeakerPlayer { FakePlayer() }
        let (dispatcher, _, _) = try scratch.dispatcher(player: player)
        player.shutdown()
        XCTAssertEqual(dispatcher.perform(.pause, from: .builtIn).failure?.code, "player-start-failed")
        XCTAssertNil(player.current)
    }

    func testSettingsChangeTheLiveConfigAndTheFile() throws {
        let (dispatcher, live, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        let outcome = dispatcher.perform(action(["type": "settings", "key": "room", "value": "Kitchen"]), from: .builtIn)
        XCTAssertNil(outcome.failure)
        XCTAssertEqual(live.current.room, "Kitchen")
        XCTAssertEqual(try scratch.store.load().room, "Kitchen")
        let bad = dispatcher.perform(action(["type": "settings", "key": "no.such.key", "value": "1"]), from: .builtIn)
        XCTAssertNotNil(bad.failure, "an unknown key is reported, not ignored")
    }

    func testTimersAreSetListedAndCancelled() throws {
        let (dispatcher, _, planned) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() })
        XCTAssertEqual(
            dispatcher.perform(action(["type": "timer_cancel"]), from: .builtIn).say, "There is no timer to cancel.")
        let set = dispatcher.perform(
            action(["type": "answer", "expression": "Time is up.", "plan_delay": 60_000]), from: .builtIn)
        XCTAssertNil(set.failure)
        XCTAssertEqual(try planned.takeDue(), [], "not due for a minute")
        let listed = try XCTUnwrap(dispatcher.perform(action(["type": "timer_list"]), from: .builtIn).say)
        XCTAssertEqual(listed, planned.describe())
        XCTAssertNotEqual(listed, PlannedAnswers(path: scratch.directory + "/none.json").describe(), "one timer is listed")
        XCTAssertEqual(dispatcher.perform(action(["type": "timer_cancel"]), from: .builtIn).say, "Okay, I cancelled the timer.")
        XCTAssertEqual(
            dispatcher.perform(action(["type": "timer_cancel"]), from: .builtIn).say, "There is no timer to cancel.")
    }

    /// SUSI's `timer_set` rings at a clock time: the next one, later today or tomorrow.
    func testTimerSetPlansATimerAtTheNextSuchClockTime() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try XCTUnwrap(TimeZone(identifier: "Europe/Berlin"))
        let now = try XCTUnwrap(calendar.date(from: DateComponents(year: 2027, month: 3, day: 15, hour: 10, minute: 20)))
        let (dispatcher, _, planned) = try scratch.dispatcher(
            player: SpeakerPlayer { FakePlayer() }, clock: { now }, calendar: calendar)

        let evening = dispatcher.perform(
            action(["type": "timer_set", "hour": "18", "minute": 5, "second": 9]), from: .server)
        XCTAssertNil(evening.failure)
        XCTAssertEqual(evening.say, "Okay, a timer for 18:05:09. I'll tell you when the time is up.")
        let morning = dispatcher.perform(action(["type": "timer_set", "hour": 7, "minute": 30]), from: .server)
        XCTAssertNil(morning.failure)
        XCTAssertEqual(morning.say, "Okay, a timer for 7:30 tomorrow. I'll tell you when the time is up.")

        let today = try XCTUnwrap(
            calendar.date(from: DateComponents(year: 2027, month: 3, day: 15, hour: 18, minute: 5, second: 9)))
        let tomorrow = try XCTUnwrap(calendar.date(from: DateComponents(year: 2027, month: 3, day: 16, hour: 7, minute: 30)))
        XCTAssertEqual(planned.pending.map(\.due), [today, tomorrow])
        XCTAssertEqual(
            planned.pending.map(\.text),
            ["Time is up! Your 18:05:09 timer is done.", "Time is up! Your 7:30 timer is done."])
        XCTAssertEqual(
            PlannedAnswers(path: scratch.directory + "/timers.json") { now }.pending.map(\.due), [today, tomorrow],
            "kept in timers.json")

        for bad: [String: JSONValue] in [["minute": 5], ["hour": 24], ["hour": 7, "minute": 60], ["hour": -1]] {
            let outcome = dispatcher.perform(action(["type": "timer_set"].merging(bad) { $1 }), from: .server)
            XCTAssertEqual(outcome.failure?.code, "brain-bad-timer", "\(bad)")
            XCTAssertEqual(outcome.say, "Sorry, I could not set that timer.")
        }
        XCTAssertEqual(planned.pending.count, 2, "a bad time sets nothing")
    }

    func testWebSearchUsesTheInjectedClientAndTheLiveServer() throws {
        _ = try scratch.store.set("websearch.url", to: "http://127.0.0.1:9/search")
        let http = FakeHTTPClient.offline()
        let (dispatcher, _, _) = try scratch.dispatcher(player: SpeakerPlayer { FakePlayer() }, http: http)
        let outcome = dispatcher.perform(action(["type": "websearch", "query": "otters"]), from: .builtIn)
        XCTAssertEqual(outcome.say, "Sorry, I couldn't reach the web search just now.")
        XCTAssertEqual(http.urls.count, 1)
        XCTAssertTrue(http.urls.first?.hasPrefix("http://127.0.0.1:9/search") == true, "\(http.urls)")
    }

    func testSkillFeedbackAsksTheConfiguredServer() throws {
        _ = try scratch.store.set("brain.server", to: "http://127.0.0.1:9")
        let http = FakeHTTPClient.offline()
        let (dispatcher, _, _) = try scratch.dispatcher(
            player: SpeakerPlayer { FakePlayer() }, http: http, lastSkill: { "/general/Knowledge/en/otters" })
        XCTAssertEqual(
            dispatcher.perform(action(["type": "skill_rate", "stars": 9]), from: .builtIn).say, "Please give one to five stars.")
        XCTAssertEqual(http.urls, [], "a bad rating asks no server")
        let ratings = dispatcher.perform(action(["type": "skill_ratings"]), from: .builtIn)
        XCTAssertNotNil(ratings.say)
        XCTAssertFalse(http.urls.isEmpty)
        XCTAssertTrue(http.urls.allSatisfy { $0.hasPrefix("http://127.0.0.1:9/") }, "\(http.urls)")
    }

    func testChangeVolumeClamps() throws {
        let fake = FakePlayer(volume: 95)
        try fake.changeVolume(by: 10)
        XCTAssertEqual(fake.volume, 100)
        try fake.changeVolume(by: -130)
        XCTAssertEqual(fake.volume, 0)
    }
}
