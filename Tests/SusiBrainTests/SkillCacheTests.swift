import Foundation
import SusiCore
import Synchronization
import XCTest

@testable import SusiBrain

/// The parsed-skills cache: used when the files are unchanged, ignored when they change or
/// when the copy is damaged, and always answering exactly as a fresh parse does.
final class SkillCacheTests: XCTestCase {
    private var directory = ""
    private var cache = ""

    private final class Capture: LogHandler, Sendable {
        private let written = Mutex<[String]>([])
        var lines: [String] { written.withLock { $0 } }
        func write(level: LogLevel, label: String, message: String) {
            written.withLock { $0.append(message) }
        }
    }

    override func setUpWithError() throws {
        let base = NSTemporaryDirectory() + "susi-skill-cache-\(UUID().uuidString)"
        directory = base + "/skills"
        cache = base + "/cache"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try write("a.txt", "::name A\nhello|hi *\nHello $1$!|Hey!\nSecond line.\n!example:hi there\n!expect:Hello\n")
        try write(
            "b.txt",
            """
            who am i
            ?$_name$=ada:Ada, of course.:Someone else.

            data please
            !console:$title$ and $x.y$
            {'url': 'http://127.0.0.1/d', path: '$.[0]'}
            eol

            lonely
            """)
        try write("c.txt", "not\u{0}text")
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    private func load() throws -> (Brain, fromCache: Bool) {
        let capture = Capture()
        let brain = try Brain(
            directory: directory, options: SkillLoadOptions(cacheDirectory: cache),
            fetcher: InMemoryFetcher(["http://127.0.0.1/d": #"[{"title": "T", "x": {"y": "Z"}}]"#]), pick: { _ in 0 },
            logger: Logger(label: "brain", level: .debug, handler: capture))
        return (brain, capture.lines.contains { $0.hasPrefix("skills read from the cache") })
    }

    private func answers(_ brain: Brain) -> [String] {
        let memory = SkillMemory()
        memory.set("_name", "ada")
        var context = BrainContext.examples
        context.memory = memory
        return ["hi there", "hi you", "who am i", "data please", "lonely"].map { say(brain, $0, context: context) }
    }

    func testCachedSkillsAnswerExactlyAsParsedOnes() throws {
        let (fresh, firstFromCache) = try load()
        XCTAssertFalse(firstFromCache)
        let (cached, secondFromCache) = try load()
        XCTAssertTrue(secondFromCache)
        XCTAssertEqual(
            answers(fresh), ["Hello there! Second line.", "Hello you! Second line.", "Ada, of course.", "T and Z", ""])
        XCTAssertEqual(answers(cached), answers(fresh))
        XCTAssertEqual(cached.diagnostics, fresh.diagnostics)
        XCTAssertEqual(cached.skills.map(\.id), fresh.skills.map(\.id))
        XCTAssertEqual(cached.skills.map(\.headers), fresh.skills.map(\.headers))
        XCTAssertEqual(cached.skills.flatMap(\.intents).map(\.examples), fresh.skills.flatMap(\.intents).map(\.examples))
        XCTAssertEqual(cached.runExamples(), fresh.runExamples())
    }

    func testAChangedFileOrADamagedCopyIsParsedAgain() throws {
        _ = try load()
        try write("a.txt", "hello\nChanged.\n")
        let (changed, fromCache) = try load()
        XCTAssertFalse(fromCache)
        XCTAssertEqual(say(changed, "hello"), "Changed.")
        XCTAssertTrue(try load().fromCache)

        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        XCTAssertEqual(files.count, 1)
        let path = cache + "/" + files[0]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for damaged in [bytes.prefix(bytes.count / 2), bytes + Data([7]), Data(bytes.reversed())] {
            try damaged.write(to: URL(fileURLWithPath: path))
            let (brain, fromCache) = try load()
            XCTAssertFalse(fromCache)
            XCTAssertEqual(say(brain, "hello"), "Changed.")
        }
    }

    func testAKeptBrainOutlivesItsLastReference() {
        weak var kept: Brain?
        weak var dropped: Brain?
        do {
            let one = Brain(texts: [("a", "hello\nHi!\n")])
            one.keepUntilExit()
            kept = one
            dropped = Brain(texts: [("b", "hello\nHi!\n")])
        }
        XCTAssertNotNil(kept, "kept for the rest of the process, so exit frees nothing")
        XCTAssertNil(dropped, "others are freed as usual")
    }
}
