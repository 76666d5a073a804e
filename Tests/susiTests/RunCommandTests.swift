import Foundation
import SusiAudio
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiCore

/// `susi run` end to end: real PocketSphinx, eSpeak NG, built-in brain, and PortAudio through
/// an ALSA file PCM.
final class RunCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
        XCTAssertEqual(try cli.run(["config", "set", "brain.mode", "local"]).status, 0)
    }

    override func tearDown() { cli.cleanUp() }

    /// "susi, <command>" spoken by eSpeak NG at 16 kHz, with silence around it and a faint
    /// noise floor as a microphone would have.
    private func request(_ command: String, leadMs: Int = 1200, tailMs: Int = 2500) throws -> [Int16] {
        let path = cli.directory + "/say.wav"
        let said = try cli.run(["say", "--voice", "en-us", "susi, \(command)", "--output", path])
        XCTAssertEqual(said.status, 0, said.stderr)
        let speech = try AudioConverter.convert(try WAVFile.read(path: path), to: .speech).samples
        let padded = [Int16](repeating: 0, count: leadMs * 16) + speech + [Int16](repeating: 0, count: tailMs * 16)
        return CLIRunner.underNoiseFloor(padded, seed: 7)
    }

    private func events(at path: String) throws -> [[String: Any]] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return try text.split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], String(line))
        }
    }

    func testFileInputGivesTheContractSequenceAndTheAnswerAskGives() throws {
        let input = cli.directory + "/in.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: try request("what time is it")), to: input)
        let eventsPath = cli.directory + "/events.jsonl"
        let output = cli.directory + "/answer.wav"
        let result = try cli.run(["run", "--input", input, "--output", output, "--events", eventsPath])
        XCTAssertEqual(result.status, 0, result.stderr)
        let all = try events(at: eventsPath)
        let names = all.compactMap { $0["event"] as? String }
        XCTAssertEqual(
            names, ["ready", "wake", "listening", "speech_end", "transcript", "answer", "speak_start", "speak_end", "idle"])
        for event in all {
            XCTAssertNotNil(event["wall_ms"] as? Int)
            XCTAssertNotNil(event["audio_ms"] as? Int)
        }
        let wake = try XCTUnwrap(all.first { $0["event"] as? String == "wake" })
        XCTAssertEqual(wake["phrase"] as? String, "susi")
        XCTAssertEqual(Double(wake["audio_ms"] as? Int ?? 0), 1700, accuracy: 500, "susi ends ~0.5 s after the 1.2 s lead-in")
        let transcript = try XCTUnwrap(all.first { $0["event"] as? String == "transcript" }?["text"] as? String)
        let answer = try XCTUnwrap(all.first { $0["event"] as? String == "answer" })
        let asked = try cli.run(["ask", "--local", "--json", transcript])
        XCTAssertEqual(asked.status, 0, asked.stderr)
        let reply = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [String: Any])
        let skill = ((reply["answers"] as? [[String: Any]])?.first?["skills"] as? [String])?.first
        XCTAssertEqual(answer["skill"] as? String, skill, "the pipeline's brain answers as `susi ask --local` does")
        let spoken = try WAVFile.read(path: output)
        XCTAssertGreaterThan(spoken.milliseconds, 500)
        XCTAssertGreaterThan(spoken.samples.map { abs(Int($0)) }.max() ?? 0, 3000, "the answer is audible")
    }

    func testUnreadableInputIsAnAudioErrorEvent() throws {
        let bad = cli.directory + "/bad.wav"
        try Data("not a wav".utf8).write(to: URL(fileURLWithPath: bad))
        let result = try cli.run(["run", "--input", bad, "--events", "-"])
        XCTAssertNotEqual(result.status, 0)
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").first)
        let event = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(event["event"] as? String, "error")
        XCTAssertEqual(event["stage"] as? String, "audio")
        XCTAssertEqual(event["code"] as? String, "audio-not-wav")
    }

    func testMicrophoneAndSpeakerThroughPortAudio() throws {
        // ALSA `type file` PCMs: capture reads in.raw, playback writes out.raw. The null slave
        // keeps no time, so capture runs far faster than real time (then delivers silence):
        // the microphone's 30 s buffer keeps the request whole.
        let alsa = cli.directory + "/alsa"
        try FileManager.default.createDirectory(atPath: alsa, withIntermediateDirectories: true)
        let samples = try request("what time is it", tailMs: 3000)
        try samples.map { $0.littleEndian }.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: alsa + "/in.raw"))
        let asoundrc = """
            pcm.susimic { type file; slave.pcm { type null }; file "/dev/null"; infile "\(alsa)/in.raw"; format "raw" }
            pcm.susispeaker { type file; slave.pcm { type null }; file "\(alsa)/out.raw"; format "raw" }
            pcm.!default "susispeaker"

            """
        try Data(asoundrc.utf8).write(to: URL(fileURLWithPath: alsa + "/asoundrc"))
        XCTAssertEqual(try cli.run(["config", "set", "audio.input", "susimic"]).status, 0)
        XCTAssertEqual(try cli.run(["config", "set", "audio.output", "susispeaker"]).status, 0)
        let eventsPath = cli.directory + "/events.jsonl"
        let process = try cli.start(["run", "--events", eventsPath], environment: ["ALSA_CONFIG_PATH": alsa + "/asoundrc"])
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(60)
        var names: [String] = []
        while Date() < deadline {
            names = try events(at: eventsPath).compactMap { $0["event"] as? String }
            if names.contains("speak_end") && names.contains("idle") { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let log = (try? String(contentsOfFile: cli.directory + "/background.out", encoding: .utf8)) ?? ""
        XCTAssertEqual(
            Array(names.prefix(9)),
            ["ready", "wake", "listening", "speech_end", "transcript", "answer", "speak_start", "speak_end", "idle"], log)
        process.terminate()
        process.waitUntilExit()
        let played = (try? Data(contentsOf: URL(fileURLWithPath: alsa + "/out.raw"))) ?? Data()
        XCTAssertGreaterThan(played.count, 22_050, "at least half a second of speech reached the PortAudio device")
    }

    func testTheDaemonSpeaksControlRequestsThroughItsOwnDevice() throws {
        let alsa = cli.directory + "/alsa"
        try FileManager.default.createDirectory(atPath: alsa, withIntermediateDirectories: true)
        try Data(count: 32_000).write(to: URL(fileURLWithPath: alsa + "/in.raw"))
        let asoundrc = """
            pcm.susimic { type file; slave.pcm { type null }; file "/dev/null"; infile "\(alsa)/in.raw"; format "raw" }
            pcm.susispeaker { type file; slave.pcm { type null }; file "\(alsa)/out.raw"; format "raw" }
            pcm.!default "susispeaker"

            """
        // (PortAudio 19.6's ALSA backend asserts when the configuration has no default PCM.)
        try Data(asoundrc.utf8).write(to: URL(fileURLWithPath: alsa + "/asoundrc"))
        let port = Int.random(in: 30_000...39_999)
        for (key, value) in [
            ("audio.input", "susimic"), ("audio.output", "susispeaker"), ("setup.port", "\(port)"), ("setup.bind", "127.0.0.1"),
        ] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let eventsPath = cli.directory + "/events.jsonl"
        let process = try cli.start(["run", "--events", eventsPath], environment: ["ALSA_CONFIG_PATH": alsa + "/asoundrc"])
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        // The control API answers once the daemon is up.
        var answered = false
        let deadline = Date().addingTimeInterval(30)
        while !answered, Date() < deadline {
            let curl = Process()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            curl.arguments = [
                "-s", "-f", "-X", "POST", "-o", "/dev/null", "http://127.0.0.1:\(port)/say?text=Dinner%20is%20ready",
            ]
            try curl.run()
            curl.waitUntilExit()
            answered = curl.terminationStatus == 0
            if !answered { Thread.sleep(forTimeInterval: 0.3) }
        }
        XCTAssertTrue(answered, "the control API answered /say")
        var spoken: [String] = []
        while Date() < deadline, !spoken.contains("Dinner is ready") {
            spoken = try events(at: eventsPath).filter { $0["event"] as? String == "speak_start" }.compactMap {
                $0["text"] as? String
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        XCTAssertEqual(spoken, ["Dinner is ready"], "said by the pipeline, on the device it already has open")
        let signalled = Date()
        process.terminate()
        process.waitUntilExit()
        // SIGTERM with the microphone open: the loop ends, server and player stop, exit 0.
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 1.0)
        let played = (try? Data(contentsOf: URL(fileURLWithPath: alsa + "/out.raw"))) ?? Data()
        XCTAssertGreaterThan(played.count, 22_050)
    }
}

/// Stopping `susi run` from outside, as systemd does.
final class RunTerminationTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
        XCTAssertEqual(try cli.run(["config", "set", "brain.mode", "local"]).status, 0)
    }

    override func tearDown() { cli.cleanUp() }

    private func events(at path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    /// "susi, what day is it", then half a minute of quiet room, as a WAV file.
    private func request() throws -> String {
        let said = cli.directory + "/said.wav"
        let spoken = try cli.run(["say", "--voice", "en-us", "susi, what day is it", "--output", said])
        XCTAssertEqual(spoken.status, 0, spoken.stderr)
        let speech = try AudioConverter.convert(try WAVFile.read(path: said), to: .speech).samples
        let input = CLIRunner.underNoiseFloor(
            [Int16](repeating: 0, count: 16_000) + speech + [Int16](repeating: 0, count: 30 * 16_000))
        let inputPath = cli.directory + "/in.wav"
        try WAVFile.write(AudioChunk(format: .speech, samples: input), to: inputPath)
        return inputPath
    }

    /// Counts the requests a loopback server got.
    final class Requests: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var total: Int { count.withLock { $0 } }
    }

    func testSIGTERMWhileTheBrainIsAskedStillExitsZeroWithinASecond() throws {
        // A SUSI server that takes three seconds to answer: the request cannot be cut.
        let requests = Requests()
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { _ in
                requests.add()
                Thread.sleep(forTimeInterval: 3)
                return .json(object: ["answers": []])
            }
        }
        defer { server.stop() }
        for (key, value) in [("brain.mode", "remote"), ("brain.server", base)] {
            XCTAssertEqual(try cli.run(["config", "set", key, value]).status, 0)
        }
        let inputPath = try request()
        let eventsPath = cli.directory + "/events.jsonl"
        let process = try cli.start([
            "run", "--input", inputPath, "--output", cli.directory + "/answer.wav", "--events", eventsPath, "--realtime",
        ])
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, requests.total == 0 { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(requests.total, 1, "the brain is being asked")
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "not killed by the signal")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertLessThan(Date().timeIntervalSince(signalled), 1.0, "stopped within a second")
        XCTAssertFalse(events(at: eventsPath).contains("answer"), "it did not wait for the answer")
    }

    func testSIGTERMWhileSpeakingCutsTheSentenceAndExitsZeroWithinASecond() throws {
        let inputPath = try request()
        let eventsPath = cli.directory + "/events.jsonl"
        let output = cli.directory + "/answer.wav"
        let process = try cli.start(["run", "--input", inputPath, "--output", output, "--events", eventsPath, "--realtime"])
        defer {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !events(at: eventsPath).contains("speak_start") { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertEqual(events(at: eventsPath).last, "speak_start", "the answer is being spoken")
        // A moment into the sentence, so that some of it has been played (a signal right at
        // `speak_start` can come before the first sample, and the file is then rightly empty).
        Thread.sleep(forTimeInterval: 0.3)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let took = Date().timeIntervalSince(signalled)
        XCTAssertEqual(process.terminationReason, .exit, "not killed by the signal")
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertLessThan(took, 1.0, "stopped within a second")
        XCTAssertEqual(Array(events(at: eventsPath).suffix(3)), ["speak_start", "speak_end", "idle"])
        // The answer file was closed properly, with the cut sentence in it.
        let answer = try WAVFile.read(path: output)
        XCTAssertGreaterThan(answer.samples.count, 0)
        XCTAssertLessThan(answer.milliseconds, 1_500, "not the whole sentence")
    }
}
