import Foundation
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel

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

    func testObserversHearEachChangeOnceWithTheKeysThatChanged() throws {
        try write(#"{"room": "Kitchen"}"#, offset: -10)
        let live = try LiveConfig(store: ConfigStore(path: path), interval: 0) { _ in }
        let heard = Recorder<ConfigChange>()
        live.observe { heard.add($0) }
        _ = live.current
        XCTAssertTrue(heard.items.isEmpty, "no change, no call")

        try write(#"{"room": "Garage", "brain": {"mode": "remote"}}"#, offset: -5)
        _ = live.current
        _ = live.current
        XCTAssertEqual(heard.items.count, 1, "told once")
        let edit = try XCTUnwrap(heard.items.first)
        XCTAssertEqual(edit.keys.map(\.name), ["brain.mode", "room"])
        XCTAssertEqual(edit.old.room, "Kitchen")
        XCTAssertEqual(edit.new.brain.mode, "remote")
        XCTAssertTrue(edit.touches("brain."))
        XCTAssertFalse(edit.touches("tts."))

        try live.set("tts.rate", to: "200")
        XCTAssertEqual(heard.items.map { $0.keys.map(\.name) }, [["brain.mode", "room"], ["tts.rate"]])
        XCTAssertGreaterThan(heard.items[1].generation, heard.items[0].generation)
        try live.set("tts.rate", to: "200")
        XCTAssertEqual(heard.items.count, 2, "setting the same value is no change")

        // An edit that leaves every value as it was (only the layout differs) is no change.
        try write(#"{ "room": "Garage", "brain": {"mode": "remote"}, "tts": {"rate": 200} }"#, offset: 0)
        _ = live.current
        XCTAssertEqual(heard.items.count, 2)
    }

    /// The observer and `onInvalid` are called without the lock held: both read the config
    /// again from inside, which would deadlock otherwise.
    func testCallbacksMayReadTheConfigAgain() throws {
        try write(#"{"room": "Kitchen"}"#, offset: -10)
        let inner = Recorder<String>()
        let holder = Recorder<LiveConfig>()
        let live = try LiveConfig(store: ConfigStore(path: path), interval: 0) { _ in
            if let live = holder.items.first { inner.add("invalid, in force: " + live.current.room) }
        }
        holder.add(live)
        live.observe { [unowned live] change in inner.add("\(change.new.room), in force: \(live.current.room)") }
        try write(#"{"room": "Garage"}"#, offset: -5)
        _ = live.current
        try write(#"{"room": 5}"#, offset: 0)
        _ = live.current
        XCTAssertEqual(inner.items, ["Garage, in force: Garage", "invalid, in force: Garage"])
    }

    /// Readers on several threads while another thread sets keys: every set is kept, the
    /// readers only ever see whole configs, and the observers see every generation once.
    func testConcurrentReadersAndWriters() throws {
        let live = try LiveConfig(store: ConfigStore(path: path), interval: 0) { error in XCTFail("\(error)") }
        let generations = Recorder<Int>()
        live.observe { generations.add($0.generation) }
        let rates = Array(100...139)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            if worker == 0 {
                for rate in rates {
                    do { try live.set("tts.rate", to: String(rate)) } catch { XCTFail("\(error)") }
                }
            } else {
                for _ in 0..<400 {
                    let rate = live.current.tts.rate
                    let whole = rate == 175 || rates.contains(rate)
                    XCTAssertTrue(whole)
                }
            }
        }
        XCTAssertEqual(live.current.tts.rate, 139)
        XCTAssertEqual(try ConfigStore(path: path).load().tts.rate, 139)
        XCTAssertEqual(generations.items.sorted(), Array(1...rates.count), "each set told once; file looks add none")
    }

    func testRestartKeysAreRealKeysAndChangedKeysFollowTheSchema() {
        for name in ConfigSchema.restartKeys {
            XCTAssertNotNil(ConfigSchema.key(named: name), name)
        }
        XCTAssertTrue(ConfigSchema.key(named: "setup.port")?.needsRestart == true)
        XCTAssertTrue(ConfigSchema.key(named: "brain.mode")?.needsRestart == false)
        var changed = Config()
        changed.location.latitude = 52.5
        changed.player.args = ["--ao=null"]
        XCTAssertEqual(ConfigSchema.changedKeys(from: Config(), to: changed).map(\.name), ["player.args", "location.latitude"])
        XCTAssertTrue(ConfigSchema.changedKeys(from: changed, to: changed).isEmpty)
    }

    /// Collects reported problems from any thread.
    final class Problems: Sendable {
        private let stored = Mutex<[String]>([])
        func add(_ error: ConfigError) { stored.withLock { $0.append(error.code) } }
        var codes: [String] { stored.withLock { $0 } }
    }

    /// Collects values from any thread.
    final class Recorder<Item: Sendable>: Sendable {
        private let stored = Mutex<[Item]>([])
        func add(_ item: Item) { stored.withLock { $0.append(item) } }
        var items: [Item] { stored.withLock { $0 } }
    }
}
