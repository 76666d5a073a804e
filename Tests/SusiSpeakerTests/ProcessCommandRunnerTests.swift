import XCTest

@testable import SusiSpeaker

final class ProcessCommandRunnerTests: XCTestCase {
    func testOutputAndStatusComeBackAndTheOutputFileIsGoneWhileTheCommandRuns() {
        // The command names its own stdout: an output file already unlinked cannot be left
        // behind when the speaker is killed mid-command.
        let result = ProcessCommandRunner(timeout: 10).run([
            "/bin/sh", "-c", "echo out; echo err >&2; readlink /proc/self/fd/1; exit 3",
        ])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.output.hasPrefix("out\nerr\n"), result.output)
        XCTAssertTrue(result.output.contains("susi-command-"), result.output)
        XCTAssertTrue(result.output.contains("(deleted)"), result.output)
    }

    func testAMissingProgramAndARunawayCommandAreReported() {
        XCTAssertEqual(ProcessCommandRunner().run(["no-such-program-here"]).status, 127)
        let slow = ProcessCommandRunner(timeout: 0.3).run(["/bin/sleep", "5"])
        XCTAssertEqual(slow.status, 124)
        XCTAssertTrue(slow.output.contains("terminated"), slow.output)
    }
}
