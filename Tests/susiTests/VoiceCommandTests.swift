import Foundation
import XCTest

@testable import SusiCore

/// `susi say` and `susi voice` through the built binary, with the real eSpeak NG.
final class VoiceCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    private func wav(_ name: String) -> String { cli.directory + "/" + name }

    private func level(of chunk: AudioChunk) -> Double {
        let sum = chunk.samples.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(max(chunk.samples.count, 1))).squareRoot()
    }

    func testSayWritesANonSilentWAVAndAccentsSoundDifferent() throws {
        let american = try cli.run(["say", "hello there", "--output", wav("a.wav")])
        XCTAssertEqual(american.status, 0, american.stderr)
        XCTAssertTrue(american.stdout.contains("a.wav"))
        let scottish = try cli.run(["say", "hello there", "--voice", "en-gb-scotland", "--output", wav("b.wav")])
        XCTAssertEqual(scottish.status, 0, scottish.stderr)
        let a = try WAVFile.read(path: wav("a.wav"))
        let b = try WAVFile.read(path: wav("b.wav"))
        XCTAssertEqual(a.format, AudioFormat(sampleRate: 22_050, channels: 1))
        XCTAssertGreaterThan(a.milliseconds, 300)
        XCTAssertGreaterThan(level(of: a), 500, "not silent")
        XCTAssertGreaterThan(level(of: b), 500, "not silent")
        XCTAssertNotEqual(a.samples, b.samples)
    }

    func testConfiguredRateIsUsed() throws {
        XCTAssertEqual(try cli.run(["config", "set", "tts.rate", "120"]).status, 0)
        XCTAssertEqual(try cli.run(["say", "one two three four five six", "-o", wav("slow.wav")]).status, 0)
        XCTAssertEqual(try cli.run(["config", "set", "tts.rate", "360"]).status, 0)
        XCTAssertEqual(try cli.run(["say", "one two three four five six", "-o", wav("fast.wav")]).status, 0)
        let slow = try WAVFile.read(path: wav("slow.wav"))
        let fast = try WAVFile.read(path: wav("fast.wav"))
        XCTAssertGreaterThan(Double(slow.milliseconds), 1.8 * Double(fast.milliseconds))
    }

    func testVoiceSetAcceptsAccentNamesAndKeepsTheFilePrivate() throws {
        let result = try cli.run(["voice", "set", "scottish"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try cli.run(["config", "get", "tts.voice"]).stdout, "en-gb-scotland\n")
        XCTAssertEqual(try cli.run(["voice", "set", "received", "pronunciation", "--variant", "f3"]).status, 0)
        XCTAssertEqual(try cli.run(["voice", "get"]).stdout, "en-gb-x-rp+f3\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: cli.configPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testUnknownOrUnsuitableVoicesAreRefusedNamingThem() throws {
        let klingon = try cli.run(["config", "set", "tts.voice", "klingon"])
        XCTAssertEqual(klingon.status, 1)
        XCTAssertTrue(klingon.stderr.contains("tts.voice") && klingon.stderr.contains("klingon"), klingon.stderr)
        let vulcan = try cli.run(["voice", "set", "vulcan"])
        XCTAssertEqual(vulcan.status, 1)
        XCTAssertTrue(vulcan.stderr.contains("vulcan"), vulcan.stderr)
        let variant = try cli.run(["voice", "set", "british", "--variant", "nosuchvariant"])
        XCTAssertEqual(variant.status, 1)
        XCTAssertTrue(variant.stderr.contains("nosuchvariant"), variant.stderr)
        XCTAssertEqual(try cli.run(["voice", "get"]).stdout, "en-us\n", "nothing was saved")
        let say = try cli.run(["say", "hi", "--voice", "vulcan", "-o", wav("v.wav")])
        XCTAssertEqual(say.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: wav("v.wav")), "nothing half-written")
    }

    func testUnwritableOutputIsAOneLineError() throws {
        let result = try cli.run(["say", "hi", "--output", "/nonexistent-dir/x.wav"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("/nonexistent-dir"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
    }

    func testVoiceListShowsTheEnglishAccents() throws {
        let result = try cli.run(["voice", "list"])
        XCTAssertEqual(result.status, 0)
        for id in ["en-us ", "en-gb-scotland ", "en-029 "] { XCTAssertTrue(result.stdout.contains(id), id) }
        XCTAssertTrue(result.stdout.contains("Scotland"))
    }
}
