import Foundation
import SusiTestSupport
import XCTest

/// `susi doctor`: one line per check and the exit status, with and without sound devices.
final class DoctorCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    func testExitStatusFollowsTheSoundDevices() throws {
        XCTAssertEqual(try cli.run(["config", "set", "brain.mode", "local"]).status, 0)
        // ALSA_CONFIG_PATH replaces ALSA's whole configuration: first a default card that is
        // not there, then one null device that records and plays, as a sound card would.
        let none = cli.directory + "/no-card.conf"
        try Data("pcm.!default { type hw card 99 }\n".utf8).write(to: URL(fileURLWithPath: none))
        let missing = try cli.run(["doctor"], environment: ["ALSA_CONFIG_PATH": none])
        XCTAssertEqual(missing.status, 1, missing.stdout + missing.stderr)
        XCTAssertTrue(missing.stdout.contains("audio      FAILED  microphones: none"), missing.stdout)
        XCTAssertTrue(missing.stderr.contains("essential checks failed: audio"), missing.stderr)

        let card = cli.directory + "/card.conf"
        let config = """
            pcm.card { type file slave.pcm { type null } file "/dev/null" infile "/dev/zero" format "raw" }
            pcm.!default "card"
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: card))
        let healthy = try cli.run(["doctor"], environment: ["ALSA_CONFIG_PATH": card])
        XCTAssertEqual(healthy.status, 0, healthy.stdout + healthy.stderr)
        let topics = healthy.stdout.split(separator: "\n").map { String($0.prefix(10)).trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(
            topics, ["config", "audio", "models", "recogniser", "whisper", "wake", "voice", "player", "yt-dlp", "server", "disk"])
        XCTAssertTrue(healthy.stdout.contains("server     ok      not used (brain.mode local)"), healthy.stdout)
        XCTAssertTrue(healthy.stdout.contains("whisper    ok      whisper.cpp 1.8.5 ("), healthy.stdout)
        XCTAssertTrue(healthy.stdout.contains("model tiny.en ("), healthy.stdout)
    }

    /// Issue 51: loading the neural wake word (TensorFlow Lite with XNNPACK) prints nothing
    /// of TensorFlow Lite's own on standard error ("INFO: Created TensorFlow Lite XNNPACK
    /// delegate for CPU."), in `susi doctor` and in `susi run`.
    func testTheWakeModelLoadsWithoutTensorFlowLiteInfoLines() throws {
        let library = repositoryRoot + "/models/hotword/frontend/libtensorflowlite_c.so"
        guard FileManager.default.fileExists(atPath: library) else {
            throw XCTSkip("no wake word front end: run `make deps`")
        }
        XCTAssertEqual(try cli.run(["config", "set", "brain.mode", "local"]).status, 0)
        let doctor = try cli.run(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("wake       ok      neural \"susi\""), doctor.stdout)
        XCTAssertFalse(doctor.stderr.contains("TensorFlow Lite"), doctor.stderr)
        XCTAssertFalse(doctor.stderr.split(separator: "\n").contains { $0.hasPrefix("INFO:") }, doctor.stderr)

        let quiet = try cli.spokenRequests([], gapMs: 500, tailMs: 0)
        let run = try cli.run(["run", "--input", quiet, "--output", cli.directory + "/out.wav"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertFalse(run.stderr.split(separator: "\n").contains { $0.hasPrefix("INFO:") }, run.stderr)
    }
}
