import Foundation
import SusiPlayer
import SusiServer
import SusiTestSupport
import XCTest

/// `YTDLP.refresh` (`susi update`) upgrading a virtualenv from a loopback package index that
/// serves two small wheels the test builds, so it runs offline.
final class YTDLPRefreshTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-ytdlp-refresh-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/files", withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `executable arguments`, failing the test on a non-zero exit.
    private func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(executable) \(arguments)")
    }

    /// A pure-Python wheel for `name` at `version` whose console script `script` prints the
    /// version, written with Python's zipfile into `files/`.
    private func wheel(name: String, module: String, version: String, script: String?) throws -> String {
        let file = "\(module)-\(version)-py3-none-any.whl"
        let info = "\(module)-\(version).dist-info"
        let writer = """
            import sys, zipfile
            path, module, info, name, version, script = sys.argv[1:7]
            files = {
                module + "/__init__.py": "def main():\\n    print(%r)\\n" % version,
                info + "/METADATA": "Metadata-Version: 2.1\\nName: %s\\nVersion: %s\\n" % (name, version),
                info + "/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
            }
            if script:
                files[info + "/entry_points.txt"] = "[console_scripts]\\n%s = %s:main\\n" % (script, module)
            files[info + "/RECORD"] = "".join(f + ",,\\n" for f in files) + info + "/RECORD,,\\n"
            with zipfile.ZipFile(path, "w") as archive:
                for f, text in files.items():
                    archive.writestr(f, text)
            """
        try run(
            "/usr/bin/python3",
            ["-c", writer, directory + "/files/" + file, module, info, name, version, script ?? ""])
        return file
    }

    func testRefreshUpgradesFromTheIndexAndReportsTheNewVersion() throws {
        let venv = directory + "/venv"
        try run("/usr/bin/python3", ["-m", "venv", venv])
        let oldWheel = try wheel(name: "yt-dlp", module: "yt_dlp", version: "2020.1.1", script: "yt-dlp")
        try run(venv + "/bin/pip", ["install", "--quiet", "--no-index", "--no-deps", directory + "/files/" + oldWheel])
        let ytdl = try XCTUnwrap(YTDLP(virtualenv: venv))
        XCTAssertEqual(ytdl.version(), "2020.1.1")

        let newWheel = try wheel(name: "yt-dlp", module: "yt_dlp", version: "2099.1.1", script: "yt-dlp")
        let ejsWheel = try wheel(name: "yt-dlp-ejs", module: "yt_dlp_ejs", version: "9.9.9", script: nil)
        let directory = self.directory
        let (server, base) = try startServer { router in
            for (project, files) in [("yt-dlp", [oldWheel, newWheel]), ("yt-dlp-ejs", [ejsWheel])] {
                let links = files.map { "<a href=\"/files/\($0)\">\($0)</a>" }.joined(separator: "<br>")
                router.get("/simple/\(project)/") { _ in .html("<!DOCTYPE html><html><body>\(links)</body></html>") }
            }
            for file in [oldWheel, newWheel, ejsWheel] {
                router.get("/files/\(file)") { _ in
                    let data = FileManager.default.contents(atPath: directory + "/files/" + file) ?? Data()
                    return ServerResponse(status: 200, contentType: "application/octet-stream", body: data)
                }
            }
        }
        defer { server.stop() }
        XCTAssertEqual(try ytdl.refresh(indexURL: base + "/simple/", timeout: 120), "2099.1.1")
        XCTAssertEqual(ytdl.version(), "2099.1.1")

        // A virtualenv whose Python has gone (a removed Python version, a half copy).
        let broken = directory + "/broken"
        try FileManager.default.createDirectory(atPath: broken + "/bin", withIntermediateDirectories: true)
        FileManager.default.createFile(
            atPath: broken + "/bin/yt-dlp", contents: Data("#!/bin/sh\necho 1\n".utf8), attributes: [.posixPermissions: 0o755])
        XCTAssertThrowsError(try XCTUnwrap(YTDLP(virtualenv: broken)).refresh(indexURL: base + "/simple/")) {
            XCTAssertEqual(($0 as? PlayerError)?.code, "player-update-failed", "\($0)")
        }
    }
}
