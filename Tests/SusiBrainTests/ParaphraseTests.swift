import Foundation
import XCTest

@testable import SusiBrain

/// Phrasings that appear nowhere in the skill files must still reach the right skill.
final class ParaphraseTests: XCTestCase {
    private static let brain: Brain? = try? Brain(
        directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })

    private func check(
        _ cases: [(String, String, String?)], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let brain = try XCTUnwrap(Self.brain)
        var problems: [String] = []
        for (query, skill, contains) in cases {
            let reply = try brain.answer(query, context: .examples)
            let described = ExampleResult.describe(reply)
            if reply.skill != skill {
                problems.append(
                    "\"\(query)\" -> \(reply.skill ?? "nothing") (\(described)), wanted \(skill)")
            } else if let contains, !described.lowercased().contains(contains.lowercased()) {
                problems.append("\"\(query)\" -> \(described), wanted \"\(contains)\"")
            }
        }
        XCTAssertTrue(problems.isEmpty, problems.joined(separator: "\n"), file: file, line: line)
    }

    /// "please" before or after a command the skills do not spell with it; a skill that does
    /// ("snooze please") and the catch-all's own "please" are left as they are.
    func testPleaseAroundACommand() throws {
        try check([
            ("add milk to my shopping list please", "lists", "[list_add item=milk list=shopping]"),
            ("please add milk to my shopping list", "lists", "[list_add item=milk list=shopping]"),
            ("please clear my shopping list please", "lists", "[list_clear list=shopping]"),
            ("remind me to call mom in ten minutes please", "reminders", "call mom"),
            ("set an alarm for seven am please", "alarms", "alarm_set"),
            ("repeat please", "repeat", nil),
            ("please", "fallback", nil),
        ])
        let brain = try XCTUnwrap(Self.brain)
        XCTAssertEqual(brain.politely(["please"], context: .examples, now: Date()), ["please"])
        XCTAssertEqual(
            brain.politely(["what", "time", "is", "it", "please"], context: .examples, now: Date()),
            ["what", "time", "is", "it", "please"], "the time skill takes it as said")
    }

    func testTime() throws {
        try check([
            ("what's the time", "time", "3:05 PM"),
            ("tell me the time", "time", "3:05"),
            ("do you know what time it is", "time", "3:05"),
            ("time please", "time", "3:05"),
            ("what time is it now", "time", "3:05"),
            ("have you got the time", "time", "3:05"),
            ("excuse me what time is it", "time", "3:05"),
            ("can you tell me what time it is please", "time", "3:05"),
            ("what's the current time", "time", "3:05"),
            ("hey susi what's the time", "time", "3:05"),
            ("What day is it today?", "time", "Tuesday"),
            ("what's the date today", "time", "March 4"),
            ("tell me today's date", "time", "March 4"),
            ("which date is it", "time", "March"),
        ])
    }

    func testConversation() throws {
        try check([
            ("hey there", "conversation", "Hello"),
            ("good evening", "conversation", "Hello"),
            ("how are you doing", "conversation", "well"),
            ("how's everything going", "conversation", nil),
            ("what is your name", "conversation", "SUSI"),
            ("who am I talking to", "conversation", "SUSI"),
            ("what can I ask you", "conversation", "I can"),
            ("what are you able to do", "conversation", "I can"),
            ("what things can you do", "conversation", "I can"),
            ("can you help me", "conversation", "I can"),
            ("thanks a lot", "conversation", "welcome"),
            ("tell me a funny joke", "jokes", nil),
            ("know any jokes", "jokes", nil),
            ("tell me something funny", "jokes", nil),
        ])
    }

    func testMedia() throws {
        try check([
            ("play some jazz", "media", "[audio_play search: jazz]"),
            ("play jazz music", "media", "[audio_play search: jazz music]"),
            ("play songs by queen", "media", "[audio_play library_artist: queen]"),
            ("can you put on some rock", "media", "rock"),
            ("i'd like to hear some blues", "media", "blues"),
            ("stop the music", "media", "[stop]"),
            ("stop playing", "media", "[stop]"),
            ("okay stop", "media", "[stop]"),
            ("pause the song", "media", "[pause]"),
            ("pause please", "media", "[pause]"),
            ("resume the music", "media", "[resume]"),
            ("continue", "media", "[resume]"),
            ("skip this song", "media", "[next]"),
            ("next song please", "media", "[next]"),
            ("play the next song", "media", "[next]"),
            ("go back to the previous song", "media", "[previous]"),
            ("previous track please", "media", "[previous]"),
            ("start the song over", "media", "[restart]"),
            ("restart this song", "media", "[restart]"),
            ("shuffle the songs", "media", "[shuffle]"),
            ("turn on shuffle", "media", "[shuffle]"),
        ])
    }

    func testVolume() throws {
        try check([
            ("turn the volume up", "volume", "[audio_volume 60]"),
            ("make it a bit louder", "volume", "[audio_volume 60]"),
            ("increase volume", "volume", "[audio_volume 60]"),
            ("turn the volume down", "volume", "[audio_volume 40]"),
            ("lower the volume please", "volume", "[audio_volume 40]"),
            ("decrease volume", "volume", "[audio_volume 40]"),
            ("set volume to 80", "volume", "[audio_volume 80]"),
            ("set the volume to fifty percent", "volume", "[audio_volume 50]"),
            ("change the volume to ten", "volume", "[audio_volume 10]"),
            ("volume 35", "volume", "[audio_volume 35]"),
            ("it's too quiet", "volume", "[audio_volume 60]"),
        ])
    }

    func testVoiceAndSpeed() throws {
        try check([
            ("change your voice to british", "voice", "[settings tts.voice=en-gb]"),
            ("change your accent to scottish", "voice", "[settings tts.voice=en-gb-scotland]"),
            ("can you speak with a british accent", "voice", "[settings tts.voice=en-gb]"),
            ("use the american voice", "voice", "[settings tts.voice=en-us]"),
            ("switch to a jamaican accent", "voice", "[settings tts.voice=en-029]"),
            ("i want a posh voice", "voice", "[settings tts.voice=en-gb-x-rp]"),
            ("talk like a brummie", "voice", "[settings tts.voice=en-gb-x-gbcwmd]"),
            ("speak faster please", "voice", "[settings tts.rate=200]"),
            ("can you talk a bit faster", "voice", "[settings tts.rate=200]"),
            ("talk slower", "voice", "[settings tts.rate=150]"),
            ("could you speak more slowly", "voice", "[settings tts.rate=150]"),
            ("you speak too fast", "voice", "[settings tts.rate=150]"),
        ])
    }

    func testRoomArithmeticTimerRepeatHAL() throws {
        try check([
            ("what room are you in", "room", "kitchen"),
            ("which room is this speaker in", "room", "kitchen"),
            ("what's 3 plus 4", "arithmetic", "is 7"),
            ("what is nine minus two", "arithmetic", "is 7"),
            ("how much is six times seven", "arithmetic", "is 42"),
            ("what's 100 divided by 4", "arithmetic", "is 25"),
            ("what is 5 multiplied by 5", "arithmetic", "is 25"),
            ("one hundred plus twenty five", "arithmetic", "is 125"),
            ("what is twenty two plus twenty two", "arithmetic", "is 44"),
            ("set a timer for 10 minutes", "timer", "[answer in 600000 ms"),
            ("set a timer for three minutes", "timer", "[answer in 180000 ms"),
            ("timer 30 seconds", "timer", "[answer in 30000 ms"),
            ("can you set a two minute timer", "timer", "[answer in 120000 ms"),
            ("start a timer for an hour", "timer", "[answer in 3600000 ms"),
            ("repeat that please", "repeat", "The kettle is on."),
            ("say that one more time", "repeat", "The kettle is on."),
            ("what did you just say", "repeat", "The kettle is on."),
            ("open the pod bay doors, HAL", "hal", "7qnd-hdmgfk"),
            ("please open the pod bay doors", "hal", "[video_play youtube: 7qnd-hdmgfk]"),
            ("what is the meaning of life", "fallback", "sorry"),
        ])
    }
}
