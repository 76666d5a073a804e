import Foundation
import XCTest

@testable import SusiCore

final class ChildProcessTests: XCTestCase {
    func testStatusAndTheChosenStreamsComeBack() {
        let script = "echo out; echo err >&2; exit 3"
        let both = ChildProcess("/bin/sh", arguments: ["-c", script], timeout: 10).run()
        XCTAssertEqual(both.end, .exited(3))
        XCTAssertEqual(both.text, "out\nerr\n")
        XCTAssertFalse(both.succeeded)
        let errorOnly = ChildProcess("/bin/sh", arguments: ["-c", script], capture: .standardError, timeout: 10).run()
        XCTAssertEqual(errorOnly.text, "err\n")
        let none = ChildProcess("/bin/sh", arguments: ["-c", script], capture: .nothing, timeout: 10).run()
        XCTAssertEqual(none.end, .exited(3))
        XCTAssertTrue(none.output.isEmpty)
    }

    func testArgumentsStayDataAndEnvironmentAndDirectoryReachTheChild() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var started: Int32 = 0
        let result = ChildProcess(
            "/bin/sh", arguments: ["-c", #"printf '%s|%s|%s' "$1" "$SUSI_CHILD_TEST" "$(pwd -P)""#, "sh", "a; echo b"],
            environment: ["SUSI_CHILD_TEST": "x y"], workingDirectory: directory.path, timeout: 10
        ).run { started = $0 }
        XCTAssertTrue(result.succeeded)
        XCTAssertGreaterThan(started, 0)
        XCTAssertEqual(result.text, "a; echo b|x y|" + directory.resolvingSymlinksInPath().path)
    }

    func testAMissingProgramOrDirectoryDoesNotStart() {
        guard case .notStarted = ChildProcess("/no/such/program", timeout: 5).run().end else {
            return XCTFail("a missing program started")
        }
        let elsewhere = ChildProcess("/bin/true", workingDirectory: "/no/such/directory", timeout: 5).run()
        guard case .notStarted = elsewhere.end else { return XCTFail("ran in a missing directory: \(elsewhere.end)") }
    }

    func testARunawayIsTerminatedAndOneIgnoringSIGTERMIsKilled() {
        let begun = Date()
        let slow = ChildProcess("/bin/sleep", arguments: ["30"], timeout: 0.3).run()
        XCTAssertEqual(slow.end, .timedOut)
        // An ignored signal stays ignored across exec, so sleep itself shrugs SIGTERM off.
        let stubborn = ChildProcess(
            "/bin/sh", arguments: ["-c", "trap '' TERM; echo stubborn; exec /bin/sleep 30"], timeout: 0.3,
            terminationGrace: 0.3
        ).run()
        XCTAssertEqual(stubborn.end, .timedOut)
        XCTAssertEqual(stubborn.text, "stubborn\n", "output written before the timeout is kept")
        XCTAssertLessThan(Date().timeIntervalSince(begun), 20, "both runs end long before their sleeps would")
    }

    func testLargeOutputKeepsItsStartAndItsLastWordsWithinTheLimit() {
        let result = ChildProcess(
            "/bin/sh", arguments: ["-c", "head -c 1000000 /dev/zero | tr '\\0' a; echo; echo last words"],
            capture: .standardOutput, outputLimit: 4096, timeout: 20
        ).run()
        XCTAssertTrue(result.succeeded)
        XCTAssertLessThan(result.output.count, 4096 + 64)
        XCTAssertTrue(result.text.hasPrefix("aaaa"))
        XCTAssertTrue(result.text.hasSuffix("a\nlast words\n"), String(result.text.suffix(40)))
        XCTAssertTrue(result.text.contains("bytes left out"))
    }

    func testADaemonKeepingTheOutputOpenDoesNotHoldUpTheRun() throws {
        // Without the trampoline Foundation sees the end only when the daemon exits.
        let begun = Date()
        let result = ChildProcess("/bin/sh", arguments: ["-c", "/bin/sleep 30 & echo $!"], timeout: 20).run()
        let daemon = try XCTUnwrap(Int32(result.text.trimmingCharacters(in: .whitespacesAndNewlines)), result.text)
        kill(daemon, SIGKILL)
        XCTAssertEqual(result.end, .exited(0))
        XCTAssertLessThan(Date().timeIntervalSince(begun), 10, "waited for the daemon")
    }

    func testTheTrampolineLeavesOnlyTheStandardDescriptors() {
        // What descriptors 3 and up point at, read once the glob's own directory is closed.
        let script = #"for f in /proc/$$/fd/*; do [ "${f##*/}" -gt 2 ] && readlink "$f"; done; true"#
        let result = ChildProcess("/bin/sh", arguments: ["-c", script], timeout: 10).run()
        XCTAssertTrue(result.succeeded)
        XCTAssertEqual(result.text, "", "inherited descriptors")
    }
}
