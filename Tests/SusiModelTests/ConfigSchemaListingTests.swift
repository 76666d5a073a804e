import XCTest

@testable import SusiModel

/// `susi config keys` and what `susi config set` prints back.
final class ConfigSchemaListingTests: XCTestCase {
    func testEveryKeyIsListedWithItsDefaultAndMeaning() throws {
        let lines = ConfigSchema.listing()
        XCTAssertEqual(lines.count, 2 * (ConfigSchema.keys.count + ConfigSchema.secrets.count))
        XCTAssertTrue(lines.contains("home_assistant.token = (not set)"), "a secret is listed, never its value")
        let voice = try XCTUnwrap(lines.firstIndex(of: "tts.voice = en-us"))
        XCTAssertTrue(lines[voice + 1].hasPrefix("    "), lines[voice + 1])
        XCTAssertTrue(lines.contains("room = \"\""), "an empty default shows as \"\"")
    }

    func testOnlyRestartKeysSaySo() throws {
        let lines = ConfigSchema.listing()
        for (index, key) in ConfigSchema.keys.enumerated() {
            XCTAssertEqual(lines[2 * index + 1].hasSuffix("after a restart"), key.needsRestart, key.name)
        }
    }

    func testSetLinesShowTheStoredValuesOfRealKeysOnly() {
        var config = Config()
        config.tts.rate = 210
        XCTAssertEqual(ConfigSchema.lines(["tts.rate", "no.such.key", "room"], in: config), ["tts.rate = 210", "room = "])
    }
}
