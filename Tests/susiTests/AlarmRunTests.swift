import Foundation
import SusiAudio
import XCTest

@testable import SusiCore

/// Alarms, reminders and lists through `susi run` with the built-in brain and the real mpv
/// (`--ao=null`): what is said, what mpv's volume did while an alarm rang, and what a restart
/// keeps. The wake word's second check is off, as in `PlayerRunTests`: these tests are about
/// what follows the wake word.
final class AlarmRunTests: XCTestCase {
    private var cli: CLIRunner!
    private var log: String { cli.directory + "/mpv.log" }

    override func setUpWithError() throws {
        cli = try CLIRunner()
        // PocketSphinx alone, as where neither Whisper nor the neural wake word is installed:
        // these tests are about alarms, reminders and lists, not hearing. (With both, eSpeak's
        // "remind me to call mom in twenty seconds" here is heard as "... call my mid 20s air
        // guns" by Whisper tiny.en, and as "... in twenty two and two" by PocketSphinx after
        // the neural wake word's later end of "susi".)
        for (key, value) in [
            ("brain.mode", "local"), ("hotword.verify", "false"), ("stt.engine", "pocketsphinx"),
            ("hotword.engine", "pocketsphinx"),
        ] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
    }

    override func tearDown() { cli.cleanUp() }

    /// "susi, TEXT" said by eSpeak NG en-us after `quietMs` each, then `tailMs` of quiet, under a
    /// faint noise floor.
    private func requests(_ parts: [(quietMs: Int, text: String)], tailMs: Int) throws -> String {
        var samples: [Int16] = []
        let said = cli.directory + "/said.wav"
        for part in parts {
            samples += [Int16](repeating: 0, count: part.quietMs * 16)
            XCTAssertEqual(try cli.run(["say", "--voice", "en-us", "susi, \(part.text)", "-o", said]).status, 0)
            samples += try AudioConverter.convert(try WAVFile.read(path: said), to: .speech).samples
        }
        samples += [Int16](repeating: 0, count: tailMs * 16)
        let path = cli.directory + "/requests-\(UUID().uuidString).wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: CLIRunner.underNoiseFloor(samples)), to: path)
        return path
    }

    private func run(_ input: String) throws -> [[String: Any]] {
        let result = try cli.run(["run", "--input", input, "--output", cli.directory + "/out.wav", "--realtime", "--events", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try result.stdout.split(separator: "\n").compactMap { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    private func spoken(_ events: [[String: Any]]) -> [(text: String, wallMs: Int)] {
        events.filter { $0["event"] as? String == "speak_start" }.compactMap { event in
            guard let text = event["text"] as? String, let wall = event["wall_ms"] as? Int else { return nil }
            return (text, wall)
        }
    }

    /// mpv plays a 40 s tone for any search, and logs its volume and idle state with the
    /// position in the tone.
    private func tonePlayer() throws {
        let tone = cli.directory + "/tone.wav"
        let samples = (0..<(16_000 * 40)).map { Int16(sin(Double($0) * 2 * .pi * 440 / 16_000) * 6000) }
        try WAVFile.write(AudioChunk(format: .speech, samples: samples), to: tone)
        let script = cli.directory + "/redirect.lua"
        try Data(
            """
            local log = io.open("\(log)", "a")
            mp.add_hook("on_load", 50, function()
                local path = mp.get_property("stream-open-filename", "")
                if path:find("^ytdl://") then mp.set_property("stream-open-filename", "\(tone)") end
            end)
            local function at() return tostring(mp.get_property_number("time-pos", -1)) end
            mp.observe_property("volume", "number", function(_, v) log:write("volume " .. tostring(v) .. " " .. at() .. "\\n"); log:flush() end)
            mp.observe_property("idle-active", "bool", function(_, v) log:write("idle " .. tostring(v) .. " " .. at() .. "\\n"); log:flush() end)

            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        let args = #"["--ao=null", "--no-config", "--script=\#(script)"]"#
        XCTAssertEqual(try cli.run(["config", "set", "player.args", args]).status, 0)
    }

    /// An alarm rings with the music ducked; "susi snooze" plans it again and "susi stop"
    /// silences the next one, and the music plays on at its own volume.
    func testAnAlarmRingsDuckedAndIsSnoozedAndStoppedByVoice() throws {
        try tonePlayer()
        let input = try requests(
            [
                (500, "play some jazz"), (2500, "wake me up in five seconds"), (8000, "snooze"),
                (3000, "wake me up in five seconds"), (8000, "stop"),
            ], tailMs: 4000)
        let events = try run(input)
        let said = spoken(events)
        let texts = said.map(\.text)
        let expected = [
            "Okay, an alarm in 5 seconds.", "Wake up! Your alarm is ringing.", "Okay, I'll ring again in 9 minutes.",
            "Okay, an alarm in 5 seconds.", "Wake up! Your alarm is ringing.", "Okay, the alarm is off.",
        ]
        var rest = texts[...]
        for text in expected {
            guard let index = rest.firstIndex(of: text) else { return XCTFail("\"\(text)\" not said in order: \(texts)") }
            rest = rest[(index + 1)...]
        }
        XCTAssertEqual(texts.filter { $0.hasPrefix("Wake up") }.count, 2, "each alarm rang until it was cut: \(texts)")

        // The alarm's ringing ducked the music: a duck where the alarm began, apart from the
        // interactions before and after it, and the full volume once it was stopped.
        let play = try XCTUnwrap(events.first { $0["event"] as? String == "play" }?["wall_ms"] as? Int)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map { $0.split(separator: " ") }
        let ducks = lines.filter { $0.first == "volume" && [14, 16].contains(Double($0[1]) ?? 0) }.compactMap { Double($0[2]) }
        // The ducks are placed in the tone, which mpv starts some time after the `play` event
        // (1.7 s later on a loaded machine): the first wake after it, which ducked the music,
        // sets the tone's clock.
        let firstWake = try XCTUnwrap(
            events.first { $0["event"] as? String == "wake" && ($0["wall_ms"] as? Int ?? 0) > play }?["wall_ms"] as? Int)
        let lag = Double(firstWake - play) / 1000 - (ducks.first ?? 0)
        let rings = said.filter { $0.text.hasPrefix("Wake up") }.map { Double($0.wallMs - play) / 1000 - lag }
        for ring in rings {
            XCTAssertTrue(
                ducks.contains { abs($0 - ring) < 1.2 }, "ducked as the alarm at \(ring) s began: \(ducks), lag \(lag) s")
        }
        XCTAssertEqual(lines.last { $0.first == "volume" }.flatMap { Double($0[1]) }, 70, "back to full volume: \(lines)")
        XCTAssertEqual(lines.last { $0.first == "idle" }?[1], "false", "\"stop\" was the alarm's, the music plays on")
    }

    /// A reminder and a list set before a restart: the reminder is said after it, and the list
    /// is read back.
    func testARemindersAndListsSetBeforeARestartOutliveIt() throws {
        let first = try requests(
            [(500, "remind me to call mom in twenty seconds"), (2500, "add milk to my shopping list")], tailMs: 0)
        let before = spoken(try run(first)).map(\.text)
        XCTAssertTrue(before.contains("Okay, I'll remind you to call mom in 20 seconds."), "\(before)")
        XCTAssertTrue(before.contains("Okay, I added milk to your shopping list."), "\(before)")
        XCTAssertFalse(before.contains { $0.contains("Reminder") }, "not due before the restart")

        let second = try requests([(16_000, "what's on my shopping list")], tailMs: 4000)
        let after = spoken(try run(second)).map(\.text)
        XCTAssertTrue(after.contains { $0.hasSuffix("Reminder: call mom.") }, "\(after)")
        XCTAssertTrue(after.contains("Your shopping list has one item: milk."), "\(after)")
        let kept = try String(contentsOfFile: cli.directory + "/susi/lists.json", encoding: .utf8)
        XCTAssertTrue(kept.contains("milk"), kept)
    }
}
