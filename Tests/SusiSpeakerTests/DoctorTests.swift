import Foundation
import SusiAudio
import SusiModel
import SusiPlayer
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// `susi doctor`'s checks with the real models, eSpeak NG, mpv and yt-dlp, a loopback SUSI
/// server and sound devices given by the test.
final class DoctorTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-doctor")
    }

    override func tearDown() {
        scratch.remove()
    }

    private static let microphone = AudioDevice(
        index: 0, name: "USB Mic", hostAPI: "ALSA", maxInputChannels: 1, maxOutputChannels: 0, defaultSampleRate: 48_000,
        isDefaultInput: true, isDefaultOutput: false)
    private static let speaker = AudioDevice(
        index: 1, name: "Speaker", hostAPI: "ALSA", maxInputChannels: 0, maxOutputChannels: 2, defaultSampleRate: 48_000,
        isDefaultInput: false, isDefaultOutput: true)

    private func doctor(_ config: (inout Config) -> Void = { _ in }, devices: [AudioDevice]) throws -> Doctor {
        let store = ConfigStore(path: directory + "/config.json", voiceCheck: VoiceCatalogCheck.check)
        var settings = Config()
        config(&settings)
        try store.save(settings)
        var doctor = Doctor(store: store, environment: ["SUSI_MODELS": repositoryRoot + "/models"])
        doctor.devices = { devices }
        doctor.ytdl = YTDLP(virtualenv: repositoryRoot + "/.build/yt-dlp")
        doctor.serverTimeout = 2
        return doctor
    }

    private func check(_ checks: [Doctor.Check], _ topic: String) throws -> Doctor.Check {
        try XCTUnwrap(checks.first { $0.topic == topic }, "no \(topic) check in \(checks)")
    }

    func testAHealthySpeakerWithAnAnsweringServer() throws {
        let (server, base) = try startServer { router in
            router.get("/susi/chat.json") { _ in
                ServerResponse(
                    contentType: ServerResponse.jsonContentType,
                    body: Data(#"{"query":"hello","answers":[{"actions":[{"type":"answer","expression":"Hi."}]}]}"#.utf8))
            }
        }
        defer { server.stop() }
        let checks = try doctor({ $0.brain.server = base }, devices: [Self.microphone, Self.speaker]).run()
        XCTAssertTrue(Doctor.isHealthy(checks), "\(checks)")
        XCTAssertEqual(
            checks.map(\.topic),
            ["config", "audio", "models", "recogniser", "whisper", "wake", "voice", "player", "yt-dlp", "server", "disk"])
        XCTAssertEqual(try check(checks, "config").status, .ok)
        XCTAssertEqual(try check(checks, "audio").detail, "microphones: 0 USB Mic (default); speakers: 1 Speaker (default)")
        XCTAssertTrue(try check(checks, "models").detail.hasSuffix("skill files"))
        let answering = try check(checks, "server").detail
        XCTAssertTrue(answering.hasPrefix("\(base) answers"), answering)
        let player = try check(checks, "player").detail
        XCTAssertTrue(player.contains("mpv 0."), player)
        XCTAssertTrue(["neural", "pocketsphinx"].contains { (try? check(checks, "wake").detail.hasPrefix($0)) == true })
        if YTDLP(virtualenv: repositoryRoot + "/.build/yt-dlp") != nil {
            let ytdl = try check(checks, "yt-dlp").detail
            XCTAssertTrue(ytdl.contains("deno "), ytdl)
        }
        XCTAssertTrue(try check(checks, "disk").detail.contains("MB free"))
    }

    func testMissingEssentialsFailAndTheRestWarn() throws {
        let closed = try XCTUnwrap(closedPort())
        var doctor = try doctor(
            {
                $0.brain.server = "http://127.0.0.1:\(closed)"
                $0.player.command = "no-such-player"
            }, devices: [Self.speaker])
        doctor.ytdl = nil
        let checks = doctor.run()
        XCTAssertFalse(Doctor.isHealthy(checks))
        XCTAssertEqual(try check(checks, "audio").status, .failed, "no microphone")
        XCTAssertTrue(try check(checks, "audio").detail.hasPrefix("microphones: none"))
        XCTAssertEqual(try check(checks, "player").status, .warning)
        XCTAssertEqual(try check(checks, "yt-dlp").status, .warning)
        XCTAssertEqual(try check(checks, "server").status, .warning)
        XCTAssertTrue(try check(checks, "server").detail.contains("brain-connection-refused"))
        XCTAssertEqual(checks.filter { $0.status == .failed }.map(\.topic), ["audio"])
    }

    func testABrokenConfigFileIsNamed() throws {
        let doctor = try doctor(devices: [Self.microphone, Self.speaker])
        try Data(#"{"tts": {"rate": 5000}}"#.utf8).write(to: URL(fileURLWithPath: doctor.store.path))
        let checks = doctor.run()
        XCTAssertEqual(try check(checks, "config").status, .failed)
        let config = try check(checks, "config").detail
        XCTAssertTrue(config.contains("tts.rate"), config)
        XCTAssertFalse(Doctor.isHealthy(checks))
    }

    /// Issue 51: the report names the config file once, however the file is broken.
    func testTheReportNamesTheConfigFileOnce() throws {
        let doctor = try doctor(devices: [Self.microphone, Self.speaker])
        let path = doctor.store.path
        for text in [#"{"tts": {"rate": 5000}}"#, "{bad", #"{"no_such_key": 1}"#, #"{"tts": {"voice": "xx-nonesuch"}}"#] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let line = try XCTUnwrap(Doctor.lines(doctor.run()).first)
            XCTAssertTrue(line.hasPrefix("config     FAILED  \(path): "), line)
            XCTAssertEqual(line.components(separatedBy: path).count - 1, 1, line)
        }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let unreadable = try XCTUnwrap(Doctor.lines(doctor.run()).first)
        XCTAssertEqual(unreadable.components(separatedBy: path).count - 1, 1, unreadable)
    }
}
