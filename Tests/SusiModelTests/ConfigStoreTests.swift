import Foundation
import XCTest

@testable import SusiCore
@testable import SusiModel

final class ConfigStoreTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func store(_ name: String = "config.json") -> ConfigStore {
        ConfigStore(path: directory + "/" + name)
    }

    private func write(_ text: String, to name: String = "config.json") {
        FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(text.utf8))
    }

    private func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func assertConfigError(
        _ kind: ConfigError.Kind, containing fragments: [String], file: StaticString = #filePath, line: UInt = #line,
        _ body: () throws -> Void
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? ConfigError else {
                return XCTFail("not a ConfigError: \(error)", file: file, line: line)
            }
            XCTAssertEqual(error.kind, kind, error.message, file: file, line: line)
            for fragment in fragments {
                XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'", file: file, line: line)
            }
        }
    }

    func testMissingFileGivesDefaults() throws {
        let config = try store().load()
        XCTAssertEqual(config, Config())
        XCTAssertEqual(config.tts.voice, "en-us")
        XCTAssertEqual(config.brain.mode, "hybrid")
        XCTAssertEqual(config.setup.port, 5000)
        XCTAssertFalse(store().exists, "load alone must not create the file")
    }

    func testLoadOrCreateWritesDefaultsWithMode0600() throws {
        let store = store("sub/dir/config.json")
        XCTAssertEqual(try store.loadOrCreate(), Config())
        XCTAssertTrue(store.exists)
        XCTAssertEqual(try mode(of: store.path), 0o600)
        XCTAssertEqual(try store.load(), Config())
    }

    func testMissingKeysKeepDefaultsAndNestedKeysAreRead() throws {
        write(#"{"tts": {"voice": "en-gb", "rate": 200}, "room": "Kitchen", "location": {"latitude": 52.5}}"#)
        let config = try store().load()
        XCTAssertEqual(config.tts.voice, "en-gb")
        XCTAssertEqual(config.tts.rate, 200)
        XCTAssertEqual(config.tts.pitch, 50)
        XCTAssertEqual(config.room, "Kitchen")
        XCTAssertEqual(config.location.latitude, 52.5)
        XCTAssertNil(config.location.longitude)
    }

    func testRoundTripThroughSaveKeepsEveryValue() throws {
        var config = Config()
        config.tts.voice = "en-gb-scotland"
        config.tts.variant = "f3"
        config.brain.timeoutSeconds = 2.5
        config.hotword.threshold = 1e-30
        config.hotword.enabled = false
        config.player.args = ["--no-config", "--volume=50"]
        config.location.longitude = -0.12
        config.room = "Living Room"
        try store().save(config)
        XCTAssertEqual(try store().load(), config)
    }

    func testBadJSONNamesLineAndColumn() {
        write("{\n  \"tts\": {\n    \"voice\": en-us\n  }\n}")
        assertConfigError(.badJSON, containing: ["config.json", "line 3", "column"]) { _ = try store().load() }
    }

    func testEmptyFileIsBadJSON() {
        write("")
        assertConfigError(.badJSON, containing: ["config.json"]) { _ = try store().load() }
    }

    func testTopLevelMustBeObject() {
        write("[1, 2]")
        assertConfigError(.badJSON, containing: ["object"]) { _ = try store().load() }
    }

    func testUnknownKeyIsNamed() {
        write(#"{"tts": {"voise": "en-gb"}}"#)
        assertConfigError(.unknownKey, containing: ["tts.voise"]) { _ = try store().load() }
        write(#"{"speech": {"voice": "en-gb"}}"#)
        assertConfigError(.unknownKey, containing: ["speech"]) { _ = try store().load() }
    }

    func testWrongTypeAndRangeNameKeyAndAllowedValues() {
        write(#"{"tts": {"rate": "fast"}}"#)
        assertConfigError(.badValue, containing: ["tts.rate", "80", "450"]) { _ = try store().load() }
        write(#"{"tts": {"pitch": 120}}"#)
        assertConfigError(.badValue, containing: ["tts.pitch", "0", "99"]) { _ = try store().load() }
        write(#"{"brain": {"mode": "cloud"}}"#)
        assertConfigError(.badValue, containing: ["brain.mode", "local", "remote", "hybrid"]) { _ = try store().load() }
        write(#"{"hotword": {"enabled": 1}}"#)
        assertConfigError(.badValue, containing: ["hotword.enabled", "true or false"]) { _ = try store().load() }
        write(#"{"brain": {"server": "ftp://example"}}"#)
        assertConfigError(.badValue, containing: ["brain.server", "http"]) { _ = try store().load() }
    }

    func testSetParsesTypedValuesAndSavesAtomically() throws {
        let store = store()
        try store.set("tts.rate", to: "220")
        try store.set("hotword.enabled", to: "no")
        try store.set("brain.timeout_seconds", to: "1.5")
        try store.set("location.latitude", to: "48.1")
        try store.set("player.args", to: #"["--af=loudnorm", "--no-config"]"#)
        let config = try store.load()
        XCTAssertEqual(config.tts.rate, 220)
        XCTAssertFalse(config.hotword.enabled)
        XCTAssertEqual(config.brain.timeoutSeconds, 1.5)
        XCTAssertEqual(config.location.latitude, 48.1)
        XCTAssertEqual(config.player.args, ["--af=loudnorm", "--no-config"])
        XCTAssertEqual(try mode(of: store.path), 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp") }
        XCTAssertEqual(leftovers, [])
    }

    func testRejectedSetLeavesFileUntouched() throws {
        let store = store()
        try store.set("tts.rate", to: "200")
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        assertConfigError(.badValue, containing: ["tts.rate", "abc"]) { try store.set("tts.rate", to: "abc") }
        assertConfigError(.unknownKey, containing: ["tts.speed"]) { try store.set("tts.speed", to: "1") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store.path)), before)
    }

    func testVoiceCheckIsApplied() throws {
        let store = ConfigStore(path: directory + "/config.json") { config in
            config.tts.voice == "klingon" ? "tts.voice 'klingon' is not an installed eSpeak NG voice" : nil
        }
        assertConfigError(.badValue, containing: ["tts.voice", "klingon"]) { try store.set("tts.voice", to: "klingon") }
        XCTAssertFalse(store.exists)
        try store.set("tts.voice", to: "en-gb")
        XCTAssertEqual(try store.load().tts.voice, "en-gb")
        write(#"{"tts": {"voice": "klingon"}}"#)
        XCTAssertEqual(try store.load().tts.voice, "klingon", "a plain load does not ask eSpeak")
        assertConfigError(.badValue, containing: ["klingon"]) { try store.validate() }
    }

    func testUnwritableLocationIsTypedError() {
        let store = ConfigStore(path: "/proc/susi-cannot-exist/config.json")
        assertConfigError(.unwritable, containing: ["/proc/susi-cannot-exist"]) { try store.save(Config()) }
    }

    func testDefaultPathFollowsXDG() {
        XCTAssertEqual(
            ConfigStore.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/a"]), "/x/cfg/susi/config.json")
        XCTAssertEqual(ConfigStore.defaultPath(environment: ["HOME": "/home/a"]), "/home/a/.config/susi/config.json")
        XCTAssertEqual(
            ConfigStore.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]),
            "/home/a/.config/susi/config.json")
    }

    func testEveryKeyRoundTripsItsDefaultThroughItsOwnParser() {
        for key in ConfigSchema.keys {
            var config = Config()
            let text = key.read(config).description
            guard let value = key.parse(text) else { return XCTFail("\(key.name) cannot parse its default '\(text)'") }
            XCTAssertNil(key.write(&config, value), key.name)
            XCTAssertEqual(key.read(config), key.read(Config()), key.name)
        }
    }
}
