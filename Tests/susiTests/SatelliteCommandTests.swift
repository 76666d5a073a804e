import Foundation
import SusiTestSupport
import XCTest

@testable import SusiCore

/// `susi satellite serve` end to end, with the `wyoming` package (pinned, `make deps`) playing
/// Home Assistant (scripts/wyoming-satellite-check.py) and PortAudio's microphone and
/// loudspeaker on ALSA file PCMs: "susi, what time is it" said by eSpeak NG wakes it, the
/// command is streamed, and the answer sent back is played.
final class SatelliteCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() { cli.cleanUp() }

    /// The virtualenv's Python with the pinned `wyoming`; skips without it.
    private func wyomingPython() throws -> String {
        let python = repositoryRoot + "/.build/wyoming/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw XCTSkip("no wyoming virtualenv in .build/wyoming: `make deps` makes it")
        }
        return python
    }

    /// An ALSA configuration whose `susimic` delivers `input` and whose `susispeaker` writes
    /// `out.raw`, both in `directory/alsa`, set as audio.input and audio.output.
    private func fileDevices(input: [Int16]) throws -> (config: String, played: String) {
        let alsa = cli.directory + "/alsa"
        try FileManager.default.createDirectory(atPath: alsa, withIntermediateDirectories: true)
        try input.map { $0.littleEndian }.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: alsa + "/in.raw"))
        let asoundrc = """
            pcm.susimic { type file; slave.pcm { type null }; file "/dev/null"; infile "\(alsa)/in.raw"; format "raw" }
            pcm.susispeaker { type file; slave.pcm { type null }; file "\(alsa)/out.raw"; format "raw" }
            pcm.!default "susispeaker"

            """
        try Data(asoundrc.utf8).write(to: URL(fileURLWithPath: alsa + "/asoundrc"))
        // Whisper's time limit is not under test, and the machine running the tests may be busy.
        let set = try cli.run([
            "config", "set", "audio.input", "susimic", "audio.output", "susispeaker", "room", "Kitchen",
            "stt.whisper_timeout_ms", "10000",
        ])
        XCTAssertEqual(set.status, 0, set.stderr)
        return (alsa + "/asoundrc", alsa + "/out.raw")
    }

    /// Starts `susi satellite serve` on a free loopback port and returns it with its port.
    private func serve(alsa: String) throws -> (process: Process, port: Int) {
        let process = try cli.start(
            ["-v", "satellite", "serve", "--host", "127.0.0.1", "--port", "0"], environment: ["ALSA_CONFIG_PATH": alsa])
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let output = (try? String(contentsOfFile: cli.directory + "/background.out", encoding: .utf8)) ?? ""
            if let line = output.split(separator: "\n").first(where: {
                $0.hasPrefix("serving the Wyoming satellite at tcp://127.0.0.1:")
            }),
                let port = line.split(separator: ":").last.flatMap({ Int($0) })
            {
                return (process, port)
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTFail("the satellite did not start: \(log)")
        throw XCTSkip("no satellite")
    }

    private var log: String { (try? String(contentsOfFile: cli.directory + "/background.out", encoding: .utf8)) ?? "" }

    func testHomeAssistantHearsTheCommandAfterTheWakeWordAndItsAnswerIsPlayed() throws {
        let python = try wyomingPython()
        let said = cli.directory + "/said.wav"
        XCTAssertEqual(try cli.run(["say", "--voice", "en-us", "susi, what time is it", "--output", said]).status, 0)
        let speech = try AudioConverter.convert(try WAVFile.read(path: said), to: .speech).samples
        let quiet = [Int16](repeating: 0, count: 16_000)
        let devices = try fileDevices(input: CLIRunner.underNoiseFloor(quiet + speech + quiet + quiet, seed: 11))
        let answer = cli.directory + "/answer.wav"
        XCTAssertEqual(try cli.run(["say", "--voice", "en-gb", "It is five o'clock.", "--output", answer]).status, 0)
        let (process, port) = try serve(alsa: devices.config)
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        let recorded = cli.directory + "/streamed.wav"
        let check = Process()
        check.executableURL = URL(fileURLWithPath: python)
        check.arguments = [
            repositoryRoot + "/scripts/wyoming-satellite-check.py", "--port", "\(port)", "--answer", answer, "--timeout", "30",
            "--record", recorded, "--answer-format", "44100,2",
        ]
        let out = Pipe()
        check.standardOutput = out
        try check.run()
        let printed = out.fileHandleForReading.readDataToEndOfFile()
        check.waitUntilExit()
        XCTAssertEqual(check.terminationStatus, 0, String(decoding: printed, as: UTF8.self) + log)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: printed) as? [String: Any], log)

        // Malformed input closed only the connections that sent it; an unknown type was ignored.
        let malformed = try XCTUnwrap(report["malformed"] as? [String: Bool])
        XCTAssertEqual(
            malformed, ["bad_json_closed": true, "huge_payload_closed": true, "non_object_closed": true, "unknown_ignored": true])

        // describe -> info: the room, the wake word, the microphone and the loudspeaker.
        let info = try XCTUnwrap(report["info"] as? [String: Any])
        let satellite = try XCTUnwrap(info["satellite"] as? [String: Any])
        XCTAssertEqual(satellite["name"] as? String, "SUSI.AI speaker (Kitchen)")
        XCTAssertEqual(satellite["area"] as? String, "Kitchen")
        XCTAssertEqual(satellite["active_wake_words"] as? [String], ["susi"])
        XCTAssertEqual(info["wake"] as? [String], ["susi"])
        XCTAssertEqual(info["mic"] as? [[String: Int]], [["rate": 16000, "width": 2, "channels": 1]])
        XCTAssertEqual(info["snd"] as? [[String: Int]], [["rate": 22050, "width": 2, "channels": 1]])
        XCTAssertEqual(report["pong"] as? String, "hello")

        // The wake word, then the command streamed as Home Assistant's wyoming-satellite does.
        XCTAssertEqual(report["events"] as? [String], ["detection", "run-pipeline", "audio-start", "audio-chunk", "audio-stop"])
        XCTAssertEqual(report["detection"] as? String, "susi")
        XCTAssertEqual(report["run_pipeline"] as? [String: String], ["start_stage": "asr", "end_stage": "tts"])
        XCTAssertEqual(report["audio_start"] as? [String: Int], ["rate": 16000, "width": 2, "channels": 1])
        XCTAssertEqual(report["chunk_formats"] as? [[Int]], [[16000, 2, 1]])
        let streamedSeconds = Double(report["chunk_bytes"] as? Int ?? 0) / 32_000
        XCTAssertGreaterThan(streamedSeconds, 0.7, "the command, from the end of the name")
        XCTAssertLessThan(streamedSeconds, 3.0, "ended by the pause after it, not by the no-speech timeout or the file's end")
        let heard = try cli.run(["transcribe", recorded])
        XCTAssertEqual(heard.status, 0, heard.stderr)
        XCTAssertTrue(heard.stdout.contains("time"), "the streamed audio is the command: '\(heard.stdout)'")
        XCTAssertFalse(heard.stdout.lowercased().contains("susi"), "and not the name: '\(heard.stdout)'")

        // The answer, sent at 44.1 kHz stereo, went to the 22.05 kHz loudspeaker whole, and
        // `played` came back.
        XCTAssertNotNil(report["played_after_s"] as? Double)
        let answerFrames = try XCTUnwrap(report["answer_frames"] as? Int)
        let played = (try? Data(contentsOf: URL(fileURLWithPath: devices.played))) ?? Data()
        XCTAssertGreaterThanOrEqual(played.count, answerFrames * 2 * 9 / 10, "the answer's samples reached the PortAudio device")
        let loudest = stride(from: 0, to: played.count - 1, by: 2).reduce(0) { loudest, index in
            max(loudest, abs(Int(Int16(bitPattern: UInt16(played[index]) | UInt16(played[index + 1]) << 8))))
        }
        XCTAssertGreaterThan(loudest, 3000, "and they are the audible answer, not silence")

        // A newer Home Assistant takes over; a ninth connection is refused; it still answers.
        XCTAssertEqual(
            report["connections"] as? [String: Bool],
            ["taken_over": true, "controller_answers": true, "ninth_refused": true, "answers_after": true])

        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0, log)
    }

    func testUsageAndBadArguments() throws {
        let help = try cli.run(["satellite", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("susi satellite serve [--host ADDR] [--port N]"), help.stdout)
        XCTAssertTrue(try cli.run(["--help"]).stdout.contains("satellite"))
        let port = try cli.run(["satellite", "serve", "--port", "70000"])
        XCTAssertEqual(port.status, 2)
        XCTAssertTrue(port.stderr.contains("--port"), port.stderr)
        let host = try cli.run(["satellite", "serve", "--host", "kitchen.example", "--port", "0"])
        XCTAssertEqual(host.status, 1)
        XCTAssertTrue(host.stderr.contains("'kitchen.example' is not an IP address"), host.stderr)
        XCTAssertEqual(try cli.run(["satellite", "listen"]).status, 2)
    }
}
