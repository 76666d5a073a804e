import Foundation
import SusiCore
import Synchronization
import XCTest

@testable import SusiBrain

/// Loading a directory of skill files: bad files are reported with file and line and skipped,
/// the others still load.
final class SkillDirectoryTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-brain-skills-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ name: String, _ data: Data) throws {
        try data.write(to: URL(fileURLWithPath: directory + "/" + name))
    }

    func testMalformedFilesAreReportedAndSkipped() throws {
        try write("a_good.txt", Data("::name Good\nhello\nHi!\n".utf8))
        try write(
            "b_no_eol.txt", Data("hi\nok\n\nweather\n!console:$x$\n{\"url\":\"http://x\"}\n".utf8))
        try write("c_binary.txt", Data([0x68, 0x69, 0x0A, 0x00, 0x01]))
        try write("d_latin1.txt", Data([0x63, 0x61, 0x66, 0xE9, 0x0A, 0x6F, 0x6B, 0x0A]))
        try write("e_bad_json.txt", Data("x\n!console:x\n{oops}\neol\n".utf8))
        try write("notes.md", Data("not a skill".utf8))
        try write("z_good.txt", Data("bye\nBye!\n".utf8))

        let brain = try Brain(
            directory: directory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
        // Unreadable files are rejected; a bad block only costs that block.
        XCTAssertEqual(brain.skills.map(\.id), ["a_good", "b_no_eol", "e_bad_json", "z_good"])
        XCTAssertEqual(brain.skills.map(\.name), ["Good", "b_no_eol", "e_bad_json", "z_good"])
        XCTAssertEqual(brain.skills[1].intents.map(\.patterns), [["hi"]])
        let byFile = Dictionary(grouping: brain.diagnostics) { ($0.file as NSString).lastPathComponent }
        XCTAssertEqual(byFile["b_no_eol.txt"]?.first?.line, 5)
        XCTAssertEqual(byFile["b_no_eol.txt"]?.first?.severity, .warning)
        XCTAssertEqual(byFile["c_binary.txt"]?.first?.line, 2)
        XCTAssertEqual(byFile["c_binary.txt"]?.first?.severity, .error)
        XCTAssertEqual(byFile["d_latin1.txt"]?.first?.message, "not valid UTF-8")
        XCTAssertEqual(byFile["e_bad_json.txt"]?.first?.line, 2)
        XCTAssertTrue(brain.diagnostics.allSatisfy { $0.file.hasPrefix(directory) })
        XCTAssertNil(byFile["notes.md"])
        XCTAssertEqual(say(brain, "hello"), "Hi!")
        XCTAssertEqual(say(brain, "bye"), "Bye!")
    }

    func testLogsDiagnostics() throws {
        final class Capture: LogHandler, Sendable {
            private let written = Mutex<[String]>([])
            var lines: [String] { written.withLock { $0 } }
            func write(level: LogLevel, label: String, message: String) {
                written.withLock { $0.append("\(level.name) \(message)") }
            }
        }
        try write("bad.txt", Data([0x68, 0x69, 0x0A, 0x00]))
        try write("odd.txt", Data("fine\nYes.\n\nlonely\n".utf8))
        let capture = Capture()
        let brain = try Brain(
            directory: directory, logger: Logger(label: "brain", level: .debug, handler: capture))
        XCTAssertEqual(brain.skills.map(\.id), ["odd"])
        XCTAssertEqual(capture.lines.count, 2)
        XCTAssertTrue(capture.lines.first?.hasPrefix("error ") ?? false)
        XCTAssertTrue(capture.lines.first?.contains("bad.txt:2:") ?? false)
        XCTAssertTrue(capture.lines.last?.hasPrefix("info ") ?? false)
        XCTAssertTrue(capture.lines.last?.contains("odd.txt:4:") ?? false)
    }

    func testMissingDirectoryThrows() {
        XCTAssertThrowsError(try Brain(directory: directory + "/missing")) { error in
            XCTAssertEqual((error as? BrainError)?.code, "brain-skills-unreadable")
        }
    }

    func testSkillListing() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher())
        let time = try XCTUnwrap(brain.skills.first { $0.id == "time" })
        XCTAssertEqual(time.name, "Time and date")
        XCTAssertGreaterThanOrEqual(time.intents.count, 3)
        XCTAssertGreaterThan(time.exampleCount, 5)
        XCTAssertEqual(brain.exampleCount, brain.runExamples().count)
    }
}
