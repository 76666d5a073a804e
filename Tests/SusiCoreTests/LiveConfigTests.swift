import Foundation
import XCTest

@testable import SusiCore

final class LiveConfigTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-live-\(UUID().uuidString)"
    private var path: String { directory + "/config.json" }

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes the file with a modification time `offset` seconds from now, so that a change
    /// is seen even within the file system's timestamp resolution.
    private func write(_ text: String, offset: TimeInterval) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(offset)], ofItemAtPath: path)
    }

    func testAnEditIsPickedUpAndABadOneKeepsTheLastGoodConfig() throws {
        try write(#"{"room": "Kitchen"}"#, offset: -10)
        let problems = Problems()
        let live = try LiveConfig(store: ConfigStore(path: path), interval: 0) { problems.add($0) }
        XCTAssertEqual(live.current.room, "Kitchen")

        try write(#"{"room": "Garage", "tts": {"rate": 200}}"#, offset: -5)
        XCTAssertEqual(live.current.room, "Garage")
        XCTAssertEqual(live.current.tts.rate, 200)

        try write(#"{"room": "Attic", "tts": {"rate": "fast"}}"#, offset: 0)
        XCTAssertEqual(live.current.room, "Garage", "an invalid edit changes nothing")
        XCTAssertEqual(problems.codes, ["config-bad-value"])
        _ = live.current
        XCTAssertEqual(problems.codes.count, 1, "reported once, not on every read")
    }

    func testSetSavesAndIsCurrentAtOnce() throws {
        let live = try LiveConfig(store: ConfigStore(path: path), interval: 60) { _ in }
        try live.set("tts.voice", to: "en-gb")
        XCTAssertEqual(live.current.tts.voice, "en-gb")
        XCTAssertEqual(try ConfigStore(path: path).load().tts.voice, "en-gb")
        XCTAssertThrowsError(try live.set("tts.rate", to: "9999"))
        XCTAssertEqual(live.current.tts.rate, 175)
    }

    /// Collects reported problems from any thread.
    final class Problems: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func add(_ error: ConfigError) { lock.withLock { stored.append(error.code) } }
        var codes: [String] { lock.withLock { stored } }
    }
}
