import Foundation
import XCTest

@testable import SusiSpeaker

final class TerminationWatchTests: XCTestCase {
    override func tearDown() {
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        super.tearDown()
    }

    /// The signals a child inherits as ignored, from its /proc status (bit n-1 for signal n).
    private func ignoredInChild() throws -> UInt64 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "grep SigIgn /proc/self/status"]
        let output = Pipe()
        child.standardOutput = output
        try child.run()
        child.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let hex = try XCTUnwrap(text.split(separator: "\t").last).trimmingCharacters(in: .whitespacesAndNewlines)
        return try XCTUnwrap(UInt64(hex, radix: 16))
    }

    func testASignalRunsTheBodyAndChildrenCanStillBeStopped() throws {
        let heard = DispatchSemaphore(value: 0)
        let watch = TerminationWatch { heard.signal() }
        defer { withExtendedLifetime(watch) {} }
        let ignored = try ignoredInChild()
        XCTAssertEqual(ignored & (1 << UInt64(SIGTERM - 1)), 0, "a child can be stopped with SIGTERM")
        XCTAssertEqual(ignored & (1 << UInt64(SIGINT - 1)), 0, "and interrupted")
        raise(SIGTERM)
        XCTAssertEqual(heard.wait(timeout: .now() + 5), .success, "the watch heard SIGTERM")
        raise(SIGINT)
        XCTAssertEqual(heard.wait(timeout: .now() + 5), .success, "and SIGINT")
    }
}
