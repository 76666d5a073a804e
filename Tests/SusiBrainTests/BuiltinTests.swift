import Foundation
import SusiModel
import XCTest

@testable import SusiBrain

/// Number words, arithmetic, durations, voices, rate, volume and clock values.
final class BuiltinTests: XCTestCase {
    func testNumberWords() {
        let cases: [(String, Double)] = [
            ("twenty two", 22), ("one hundred and five", 105), ("a hundred", 100), ("a thousand", 1000),
            ("two thousand three hundred and forty one", 2341), ("nineteen hundred", 1900), ("zero", 0),
            ("22", 22), ("2.5", 2.5), ("two point five", 2.5), ("three point one four", 3.14),
            ("minus three", -3), ("negative 7", -7), ("five million", 5_000_000), ("1,000", 1000),
            ("twenty-one", 21), ("5 hundred", 500), ("ninety nine", 99), ("eleven", 11),
        ]
        for (text, value) in cases {
            XCTAssertEqual(NumberWords.value(of: text), value, text)
        }
        for text in [
            "", "banana", "two three", "twenty twenty", "and five", "hundred", "a", "point five",
        ] {
            XCTAssertNil(NumberWords.value(of: text), text)
        }
        XCTAssertEqual(NumberWords.firstNumber(in: "set it to forty five please"), 45)
    }

    func testArithmetic() throws {
        let cases: [(String, String, Double)] = [
            ("what is seven times eight", "7 times 8", 56),
            ("seven plus five", "7 plus 5", 12),
            ("what's 10 minus 12", "10 minus 12", -2),
            ("twelve divided by five", "12 divided by 5", 2.4),
            ("six multiplied by seven", "6 times 7", 42),
            ("2 plus 3 times 4 minus 1", "2 plus 3 times 4 minus 1", 13),
            ("how much is ten take away three", "10 minus 3", 7),
            ("nine over three", "9 divided by 3", 3),
            ("4 x 5", "4 times 5", 20),
            ("add five and seven", "5 plus 7", 12),
            ("add 5 to 7", "5 plus 7", 12),
            ("subtract four from nine", "9 minus 4", 5),
            ("multiply 3 by 3", "3 times 3", 9),
            ("divide one hundred by eight", "100 divided by 8", 12.5),
            ("what is the sum of two and three", "2 plus 3", 5),
            ("calculate 7 + 5 please", "7 plus 5", 12),
            ("one divided by three", "1 divided by 3", 0.3333),
        ]
        for (text, expression, value) in cases {
            let result = try Calculator.evaluate(text)
            XCTAssertEqual(result.expression, expression, text)
            XCTAssertEqual(Double(Calculator.format(result.value)), value, text)
        }
        XCTAssertThrowsError(try Calculator.evaluate("ten divided by zero")) { error in
            XCTAssertEqual(error as? Calculator.Failure, .divisionByZero(expression: "10 divided by 0"))
        }
        for text in [
            "what is love", "seven", "plus five", "game over", "how many legs do 2 dogs plus 3 cats have",
            "seven plus",
        ] {
            XCTAssertThrowsError(try Calculator.evaluate(text), text)
        }
        XCTAssertEqual(Calculator.format(56), "56")
        XCTAssertEqual(Calculator.format(-2.5), "-2.5")
    }

    func testArithmeticIntentAnswersPolitelyOnDivisionByZero() throws {
        let brain = try Brain(
            directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        XCTAssertEqual(say(brain, "what is seven times eight"), "7 times 8 is 56.")
        XCTAssertTrue(say(brain, "what is 5 divided by 0").contains("zero"))
    }

    func testDurations() {
        let cases: [(String, Double, String)] = [
            ("two minutes", 120, "2 minutes"),
            ("90 seconds", 90, "1 minute and 30 seconds"),
            ("an hour and a half", 5400, "1 hour and 30 minutes"),
            ("one and a half hours", 5400, "1 hour and 30 minutes"),
            ("half an hour", 1800, "30 minutes"),
            ("a quarter of an hour", 900, "15 minutes"),
            ("1 hour 20 minutes", 4800, "1 hour and 20 minutes"),
            ("a minute and 5 seconds", 65, "1 minute and 5 seconds"),
            ("set a timer for 10 mins please", 600, "10 minutes"),
            ("1 hour, 2 minutes and 3 seconds", 3723, "1 hour, 2 minutes and 3 seconds"),
            ("two minutes for 3 eggs", 120, "2 minutes"),
            ("a day", 86400, "1 day"),
        ]
        for (text, seconds, spoken) in cases {
            XCTAssertEqual(DurationParser.seconds(in: text), seconds, text)
            XCTAssertEqual(DurationParser.spoken(seconds: seconds), spoken, text)
        }
        for text in ["", "five", "the pasta", "zero seconds", "eight days", "half"] {
            XCTAssertNil(DurationParser.seconds(in: text), text)
        }
    }

    func testVoiceNames() {
        let cases: [(String, String)] = [
            ("american", "en-us"), ("a british accent", "en-gb"), ("scottish", "en-gb-scotland"),
            ("the caribbean voice", "en-029"), ("received pronunciation", "en-gb-x-rp"),
            ("new york", "en-us-nyc"),
            ("a new yorker", "en-us-nyc"), ("west midlands", "en-gb-x-gbcwmd"),
            ("lancastrian", "en-gb-x-gbclan"),
            ("en-gb-scotland", "en-gb-scotland"), ("EN-GB", "en-gb"),
            ("scottish english", "en-gb-scotland"),
            ("american english", "en-us"),
        ]
        for (text, id) in cases {
            XCTAssertEqual(AccentCatalog.entry(mentionedIn: QueryNormalizer.words(text))?.id, id, text)
        }
        XCTAssertNil(AccentCatalog.entry(mentionedIn: QueryNormalizer.words("martian")))
        XCTAssertNil(AccentCatalog.entry(mentionedIn: QueryNormalizer.words("tell us a story")))
        XCTAssertEqual(AccentCatalog.name(of: "en-gb"), "British")
        XCTAssertEqual(AccentCatalog.name(of: "de"), "de")
        XCTAssertTrue(AccentCatalog.spokenList.hasPrefix("American, British"))
        XCTAssertTrue(AccentCatalog.spokenList.hasSuffix(" and Lancastrian"))
    }

    func testVoiceIdsExistInESpeakNG() throws {
        // The catalog must only name voices the installed eSpeak NG has.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["--voices=en"]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            throw XCTSkip("espeak-ng is not installed")
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let listed = Set(
            output.split(separator: "\n").dropFirst().compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(
                    String.init)
            })
        for entry in AccentCatalog.entries {
            XCTAssertTrue(listed.contains(entry.id), "\(entry.id) not in espeak-ng --voices=en")
        }
    }

    func testRateAndVolumeFunctions() {
        let context = BrainContext(rate: 175, volume: 50)
        func rate(_ text: String, _ context: BrainContext = BrainContext(rate: 175)) -> JSONValue? {
            BuiltinFunctions.call("rate", argument: text, context: context)?["rate"]
        }
        func volume(_ text: String, _ context: BrainContext = BrainContext(volume: 50)) -> JSONValue? {
            BuiltinFunctions.call("volume", argument: text, context: context)?["volume"]
        }
        XCTAssertEqual(rate("faster"), 200)
        XCTAssertEqual(rate("much faster"), 225)
        XCTAssertEqual(rate("slower"), 150)
        XCTAssertEqual(rate("normal"), 175)
        XCTAssertEqual(rate("300"), 300)
        XCTAssertEqual(rate("faster", BrainContext(rate: 440)), 450, "bounded by eSpeak NG's range")
        XCTAssertEqual(rate("slower", BrainContext(rate: 90)), 80)
        XCTAssertNil(rate("purple"))
        XCTAssertEqual(volume("volume up"), 60)
        XCTAssertEqual(volume("turn it down"), 40)
        XCTAssertEqual(volume("turn it up by 25"), 75)
        XCTAssertEqual(volume("down by five"), 45)
        XCTAssertEqual(volume("set the volume to eighty"), 80)
        XCTAssertEqual(volume("too loud"), 40)
        XCTAssertEqual(volume("too quiet"), 60)
        XCTAssertEqual(volume("mute"), 0)
        XCTAssertEqual(volume("maximum volume"), 100)
        XCTAssertEqual(volume("louder", BrainContext(volume: 95)), 100)
        XCTAssertEqual(volume("250"), 100)
        XCTAssertNil(volume("what is the volume"))
        XCTAssertEqual(
            BuiltinFunctions.call("number", argument: "twenty two", context: context)?["number"], "22")
        XCTAssertEqual(
            BuiltinFunctions.call("voice", argument: "british", context: context)?["voice"], "en-gb")
        XCTAssertNil(BuiltinFunctions.call("voice", argument: "klingon", context: context))
        XCTAssertNil(BuiltinFunctions.call("nonexistent", argument: "", context: context))
    }

    func testClockValuesFollowTheTimeZone() throws {
        let moment = Date(timeIntervalSince1970: 1_741_100_700)  // Tuesday 2025-03-04 15:05 UTC
        let utc = BrainContext(timeZone: try XCTUnwrap(TimeZone(secondsFromGMT: 0)))
        XCTAssertEqual(BuiltinValues.value("time", context: utc, now: moment), "3:05 PM")
        XCTAssertEqual(BuiltinValues.value("time24", context: utc, now: moment), "15:05")
        XCTAssertEqual(BuiltinValues.value("date", context: utc, now: moment), "Tuesday, March 4, 2025")
        XCTAssertEqual(BuiltinValues.value("weekday", context: utc, now: moment), "Tuesday")
        XCTAssertEqual(BuiltinValues.value("day_ordinal", context: utc, now: moment), "4th")
        XCTAssertEqual(BuiltinValues.value("year", context: utc, now: moment), "2025")
        let tokyo = BrainContext(timeZone: try XCTUnwrap(TimeZone(identifier: "Asia/Tokyo")))
        XCTAssertEqual(BuiltinValues.value("time", context: tokyo, now: moment), "12:05 AM")
        XCTAssertEqual(BuiltinValues.value("weekday", context: tokyo, now: moment), "Wednesday")
        XCTAssertEqual(
            BuiltinValues.value("date", context: tokyo, now: moment), "Wednesday, March 5, 2025")
        XCTAssertEqual(BuiltinValues.ordinal(11), "11th")
        XCTAssertEqual(BuiltinValues.ordinal(22), "22nd")
        XCTAssertEqual(BuiltinValues.ordinal(103), "103rd")
    }

    func testWithoutAZoneTheClockValuesAreTheSpeakersLocalOnes() {
        let own = BrainContext(timeZone: .current), unset = BrainContext()
        let start: Double = 1_741_100_700
        let step: Double = 47_220  // 13 h 7 min: every hour of the day over a year
        for seconds in stride(from: start, to: start + 366 * 86_400, by: step) {
            let moment = Date(timeIntervalSince1970: seconds)
            for name in ["time", "time24", "date", "weekday", "month", "day", "day_ordinal", "year"] {
                XCTAssertEqual(
                    BuiltinValues.value(name, context: unset, now: moment),
                    BuiltinValues.value(name, context: own, now: moment), "\(name) at \(moment)")
            }
        }
        XCTAssertEqual(BuiltinValues.value("timezone", context: unset, now: Date()), TimeZone.current.identifier)
    }

    func testContextValues() {
        let context = BrainContext(
            room: "study", voice: "en-gb-scotland", rate: 190, volume: 30, lastAnswer: "Hi.",
            lastSkill: "conversation")
        let now = Date()
        XCTAssertEqual(BuiltinValues.value("room", context: context, now: now), "study")
        XCTAssertEqual(BuiltinValues.value("voice", context: context, now: now), "en-gb-scotland")
        XCTAssertEqual(BuiltinValues.value("voice_name", context: context, now: now), "Scottish")
        XCTAssertEqual(BuiltinValues.value("rate", context: context, now: now), "190")
        XCTAssertEqual(BuiltinValues.value("volume", context: context, now: now), "30")
        XCTAssertEqual(BuiltinValues.value("last", context: context, now: now), "Hi.")
        XCTAssertEqual(BuiltinValues.value("last_skill", context: context, now: now), "conversation")
        XCTAssertNil(BuiltinValues.value("unknown", context: context, now: now))
    }

    func testIssueAcceptanceQueries() throws {
        let brain = try Brain(
            directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        XCTAssertTrue(try brain.answer("what is seven times eight").spokenText.contains("56"))
        let timer = try brain.answer("set a timer for two minutes").actions
        XCTAssertTrue(
            timer.contains {
                if case .answer(let answer) = $0 { answer.planDelay == 120_000 } else { false }
            })
        XCTAssertTrue(
            try brain.answer("change your voice to british").actions.contains(
                .settings(SettingsAction(key: "tts.voice", value: "en-gb"))))
        XCTAssertTrue(
            try brain.answer("play some jazz").actions.contains {
                if case .audioPlay = $0 { true } else { false }
            })
        let hal = try brain.answer("open the pod bay doors").actions
        XCTAssertTrue(
            hal.contains(
                .videoPlay(MediaPlayAction(identifier: "7qnd-hdmgfk", identifierType: "youtube"))))
        XCTAssertFalse(try brain.answer("open the pod bay doors").spokenText.isEmpty)
        let fresh = BrainContext(lastAnswer: nil)
        XCTAssertEqual(
            try brain.answer("say that again", context: fresh).spokenText, "I haven't said anything yet.")
        XCTAssertEqual(
            try brain.answer("which room are you in", context: BrainContext(room: "")).spokenText,
            "Nobody has told me which room I'm in yet. You can set it in the SUSI app.")
    }
}
