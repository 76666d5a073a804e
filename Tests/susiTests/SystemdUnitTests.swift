import Foundation
import SusiTestSupport
import XCTest

/// The units in dist/ pass `systemd-analyze verify` without a word and their sandbox exposure
/// (`systemd-analyze security --offline`) is at most 3.0, through scripts/unit-check.sh, which
/// `make reliability` runs too. Works without systemd as PID 1.
final class SystemdUnitTests: XCTestCase {
    private func check(_ directory: String? = nil) throws -> (status: Int32, output: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            throw XCTSkip("systemd-analyze is missing (Debian package systemd; make deps installs it)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: repositoryRoot + "/scripts/unit-check.sh")
        process.arguments = [CLIRunner.executable.path]
        if let directory {
            // A copy of the repository's script and units, to show the check can fail.
            process.executableURL = URL(fileURLWithPath: directory + "/scripts/unit-check.sh")
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testUnitsVerifyAndEachExposureIsAtMostThree() throws {
        let result = try check()
        XCTAssertEqual(result.status, 0, result.output)
        let figures = result.output.split(separator: "\n").filter { $0.contains("exposure") }
        XCTAssertEqual(figures.count, 4, result.output)
        for unit in ["susi.service", "susi-setup.service", "susi-hotspot.service", "susi-wifi-join.service"] {
            let line = try XCTUnwrap(figures.first { $0.hasPrefix(unit + ":") }, result.output)
            let exposure = try XCTUnwrap(Double(line.split(separator: " ")[2]), String(line))
            XCTAssertLessThanOrEqual(exposure, 3.0, String(line))
        }
        let daemon = try String(contentsOfFile: repositoryRoot + "/dist/susi.service", encoding: .utf8)
        for setting in [
            "User=susi", "SupplementaryGroups=audio", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes",
            "NoNewPrivileges=yes", "RestrictAddressFamilies=", "CapabilityBoundingSet=\n", "ReadWritePaths=/etc/susi",
        ] {
            XCTAssertTrue(daemon.contains(setting), "susi.service lacks \(setting)")
        }
    }

    /// A weakened or broken unit fails the check.
    func testTheCheckFailsOnABrokenOrUnsandboxedUnit() throws {
        let copy = NSTemporaryDirectory() + "susi-units-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for directory in ["scripts", "dist"] {
            try FileManager.default.createDirectory(atPath: copy + "/" + directory, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: repositoryRoot + "/scripts/unit-check.sh", toPath: copy + "/scripts/unit-check.sh")
        let original = try String(contentsOfFile: repositoryRoot + "/dist/susi.service", encoding: .utf8)

        try original.replacingOccurrences(of: "ProtectSystem=strict", with: "ProtectSystem=bogus")
            .write(toFile: copy + "/dist/susi.service", atomically: true, encoding: .utf8)
        let broken = try check(copy)
        XCTAssertNotEqual(broken.status, 0, broken.output)
        XCTAssertTrue(broken.output.contains("verify"), broken.output)

        let bare = original.split(separator: "\n").prefix { !$0.hasPrefix("# The sandbox") }.joined(separator: "\n")
        try bare.write(toFile: copy + "/dist/susi.service", atomically: true, encoding: .utf8)
        let open = try check(copy)
        XCTAssertNotEqual(open.status, 0, open.output)
        XCTAssertTrue(open.output.contains("TOO HIGH"), open.output)
    }
}
