import Foundation
import XCTest

/// `susi language set` and the config cross-check between brain.language and tts.voice.
final class LanguageCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    func testOneKeyChangeIsRefusedWithAWayOutThatWorks() throws {
        let refused = try cli.run(["config", "set", "brain.language", "de"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("susi language set de"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("tts.voice"), refused.stderr)

        let both = try cli.run(["config", "set", "brain.language", "fr", "tts.voice", "fr"])
        XCTAssertEqual(both.status, 0, both.stderr)
        XCTAssertEqual(both.stdout, "brain.language = fr\ntts.voice = fr\n")
        XCTAssertTrue(both.stderr.contains("still be spoken in English"), both.stderr)

        let set = try cli.run(["language", "set", "de"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, "brain.language = de, tts.voice = de\n")
        XCTAssertEqual(try cli.run(["config", "get", "tts.voice"]).stdout, "de\n")

        let back = try cli.run(["language", "set", "en"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(back.stdout, "brain.language = en, tts.voice = en-us\n", "the voice before German, not en-gb")
        XCTAssertFalse(back.stderr.contains("English"), "no warning for English: \(back.stderr)")
    }

    func testAnAccentThatSpeaksTheLanguageIsKept() throws {
        XCTAssertEqual(try cli.run(["config", "set", "tts.voice", "en-gb-scotland"]).status, 0)
        let set = try cli.run(["language", "set", "en"])
        XCTAssertEqual(set.stdout, "brain.language = en, tts.voice = en-gb-scotland\n")
    }

    func testALanguageWithoutAVoiceIsRefused() throws {
        let result = try cli.run(["language", "set", "qq"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no voice for language 'qq'"), result.stderr)
        XCTAssertEqual(try cli.run(["config", "get", "brain.language"]).stdout, "en\n", "nothing saved")
    }

    func testConfigKeysSayCommandsAreHeardInEnglish() throws {
        let keys = try cli.run(["config", "keys"]).stdout
        XCTAssertTrue(keys.contains("Commands are still heard in English"), keys)
    }
}
