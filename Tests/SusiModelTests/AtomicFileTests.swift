import Foundation
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel

/// Whole-file writes under a lock: parallel writers from threads and from other processes
/// never lose each other's data, and no temporary file is left behind.
final class AtomicFileTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-atomic")
    }

    override func tearDown() {
        scratch.remove()
    }

    /// Runs `body(index)` on `count` threads started together; waits for all.
    private func parallel(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            Thread {
                start.wait()
                body(index)
                group.leave()
            }.start()
        }
        for _ in 0..<count { start.signal() }
        group.wait()
    }

    func testParallelReadModifyWritesFromThreadsKeepEveryLine() throws {
        let path = directory + "/lines.txt"
        let succeeded = Mutex<[String]>([])
        let failed = Mutex<[String]>([])
        parallel(8) { thread in
            for round in 0..<10 {
                let line = "thread-\(thread)-\(round)"
                do throws(ConfigError) {
                    try AtomicFile.update(path) { data throws(ConfigError) in
                        .replace((data ?? Data()) + Data((line + "\n").utf8))
                    }
                    succeeded.withLock { $0.append(line) }
                } catch {
                    failed.withLock { $0.append("\(line): \(error.message)") }
                }
            }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(failed.withLock { $0 }, [])
        XCTAssertEqual(Set(lines), Set(succeeded.withLock { $0 }), "every write that succeeded is in the file")
        XCTAssertEqual(lines.count, 8 * 10, "and each exactly once")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(left, [".lines.txt.lock", "lines.txt"], "no temporary file is left behind")
    }

    /// `ConfigStore.set` from many threads at once, each its own key: before the lock, two
    /// writers shared one temporary name (`config.json.tmp-PID`) and read-modify-writes
    /// overwrote each other, so changes that reported success went missing.
    func testParallelConfigSetsFromThreadsAreAllKept() throws {
        let store = ConfigStore(path: directory + "/config.json")
        // Each key with a base its values count up from, inside the key's range.
        let keys: [(name: String, base: Int)] = [
            ("tts.rate", 100), ("tts.pitch", 20), ("tts.volume", 50), ("player.volume", 30), ("player.duck_volume", 5),
            ("player.volume_step", 1), ("setup.port", 6000), ("brain.timeout_seconds", 2),
        ]
        for round in 1...10 {
            let results = Mutex<[String: Result<String, ConfigError>]>([:])
            parallel(keys.count) { index in
                let key = keys[index].name
                let value = String(keys[index].base + round)
                do throws(ConfigError) {
                    try store.set(key, to: value)
                    results.withLock { $0[key] = .success(value) }
                } catch {
                    results.withLock { $0[key] = .failure(error) }
                }
            }
            let config = try store.load()
            for (key, result) in results.withLock({ $0 }) {
                let stored = ConfigSchema.key(named: key)?.value(in: config)
                switch result {
                case .success(let value):
                    let expected = ConfigSchema.key(named: key)?.parse(value)
                    XCTAssertEqual(stored, expected, "round \(round): \(key)=\(value) was reported saved")
                case .failure(let error):
                    XCTFail("round \(round): \(key) failed: \(error.message)")
                }
            }
        }
    }

    /// The first start writes the defaults; a change another thread makes meanwhile must not
    /// be overwritten by them (the file was missing when the first start looked).
    func testCreatingTheDefaultsNeverOverwritesAChangeMadeMeanwhile() throws {
        for round in 0..<10 {
            let store = ConfigStore(path: directory + "/round-\(round)/config.json")
            parallel(8) { index in
                if index == 0 {
                    _ = try? store.set("room", to: "kitchen \(round)")
                } else {
                    _ = try? store.loadOrCreate()
                }
            }
            XCTAssertEqual(try store.load().room, "kitchen \(round)", "round \(round)")
        }
    }

    func testTheLockExcludesOtherProcesses() throws {
        let path = directory + "/state.json"
        let lock = AtomicFile.lockPath(for: path)
        func otherProcessCanLock() throws -> Bool {
            try run("/usr/bin/flock", ["-n", lock, "true"]) == 0
        }
        try AtomicFile.withLock(path) { () throws(ConfigError) in
            XCTAssertFalse((try? otherProcessCanLock()) ?? true, "flock(1) is kept out while the lock is held")
        }
        XCTAssertTrue(try otherProcessCanLock(), "and gets in once it is released")

        // The other way round: a write waits for the lock another process holds.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [lock, "-c", "echo held; sleep 1"]
        let output = Pipe()
        holder.standardOutput = output
        try holder.run()
        defer { holder.waitUntilExit() }
        XCTAssertEqual(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self), "held\n")
        let start = Date()
        try AtomicFile.write(Data("{}".utf8), to: path)
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 0.5, "the write waited for the other process")
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("{}".utf8))
    }

    func testModeKeepRemoveAndAnUnreadableFile() throws {
        let path = directory + "/sub/cache.json"
        try AtomicFile.write(Data("one".utf8), to: path, mode: 0o644)
        XCTAssertEqual(try mode(path), 0o644)
        try AtomicFile.write(Data("two".utf8), to: path)
        XCTAssertEqual(try mode(path), 0o600, "every write sets the mode it is given")
        try AtomicFile.update(path) { data throws(ConfigError) in
            XCTAssertEqual(data, Data("two".utf8))
            return .keep
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("two".utf8))
        try AtomicFile.update(path) { _ throws(ConfigError) in .remove }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        try AtomicFile.update(path) { _ throws(ConfigError) in .remove }

        // A directory where the file should be: an error, and nothing is replaced.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        XCTAssertThrowsError(try AtomicFile.update(path) { _ throws(ConfigError) in .replace(Data()) }) { error in
            XCTAssertEqual((error as? ConfigError)?.code, "config-unreadable")
        }
        var isDirectory: ObjCBool = false
        XCTAssertTrue(FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    func testAWriteRemovesTheTemporaryAKilledWriterLeft() throws {
        let path = directory + "/timers.json"
        let stale = directory + "/.timers.json.tmp-a1B2c3"
        let other = directory + "/.other.json.tmp-a1B2c3"
        for file in [stale, other] { XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data("half".utf8))) }
        try AtomicFile.write(Data("[]".utf8), to: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: other), "another file's temporary is not this write's business")
    }

    func testTheOlderConfigStoreEntryPointWritesThroughTheLockToo() throws {
        let path = directory + "/owner-token"
        try ConfigStore.writeAtomically(Data("t".utf8), to: path)
        XCTAssertEqual(try mode(path), 0o600)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), [".owner-token.lock", "owner-token"])
    }

    func testAFailingChangeWritesNothing() throws {
        let path = directory + "/config.json"
        try AtomicFile.write(Data("old".utf8), to: path)
        XCTAssertThrowsError(
            try AtomicFile.update(path) { _ throws(ConfigError) in throw ConfigError(.badValue, "no") })
        XCTAssertEqual(FileManager.default.contents(atPath: path), Data("old".utf8))
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
