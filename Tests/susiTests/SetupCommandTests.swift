import Foundation
import SusiModel
import XCTest

/// `susi setup`: the built binary as the speaker runs it, driven over HTTP with curl.
final class SetupCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws {
        cli = try CLIRunner()
    }

    override func tearDown() {
        cli.cleanUp()
    }

    /// `susi setup serve` running in the background; `stop` signals it and waits.
    private final class Server {
        let process = Process()
        let base: String
        private let output = Pipe()

        init(_ cli: CLIRunner, file: StaticString = #filePath, line: UInt = #line) throws {
            process.executableURL = CLIRunner.executable
            process.arguments = ["setup", "serve", "--port", "0", "--bind", "127.0.0.1"]
            process.environment = cli.environment
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The first line names the URL once the server listens.
            var text = ""
            let handle = output.fileHandleForReading
            while !text.contains("\n") {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            guard let range = text.range(of: #"http://127\.0\.0\.1:\d+"#, options: .regularExpression) else {
                XCTFail("no URL printed: \(text)", file: file, line: line)
                base = ""
                return
            }
            base = String(text[range])
        }

        /// Sends `signal` and returns the seconds until the process ended.
        @discardableResult
        func stop(_ signal: Int32 = SIGTERM) -> Double {
            let start = Date()
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            return Date().timeIntervalSince(start)
        }
    }

    private func curl(_ arguments: [String]) throws -> (status: Int, json: [String: Any]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "--max-time", "15", "-w", "\n%{http_code}"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let newline = text.lastIndex(of: "\n") ?? text.endIndex
        let status = Int(text[newline...].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let json = (try? JSONSerialization.jsonObject(with: Data(text[..<newline].utf8))) as? [String: Any] ?? [:]
        return (status, json)
    }

    private var config: Config {
        get throws { try ConfigStore(path: cli.configPath).load() }
    }

    func testTheAppsSetUpTheSpeakerAndResetReopensSetup() throws {
        // An unreachable SUSI server: the login must wait for later, not fail the app.
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", "http://127.0.0.1:9"]).status, 0)
        XCTAssertTrue(try cli.run(["setup", "status"]).stdout.contains("setup mode"))
        let server = try Server(cli)
        defer { server.stop() }

        XCTAssertEqual(try curl([server.base + "/speaker_config?room_name=Bedroom"]).status, 200)
        XCTAssertEqual(try config.room, "Bedroom")
        let wifi = try curl([server.base + "/wifi_credentials?wifissid=Home&wifipassd=wifi-pass-9"])
        XCTAssertEqual(wifi.json["wifi"] as? String, "configured")
        let wifiFile = try String(contentsOfFile: cli.directory + "/susi/wpa_supplicant.conf", encoding: .utf8)
        XCTAssertTrue(wifiFile.contains("ssid=\"Home\"") && wifiFile.contains("psk=\"wifi-pass-9\""), wifiFile)
        let auth = try curl([server.base + "/auth?auth=y&email=me%40example.org&password=acct-pass-9"])
        XCTAssertEqual(auth.status, 200)
        XCTAssertEqual(auth.json["authentication"] as? String, "successful")
        let pendingPath = cli.directory + "/susi/pending-login.json"
        XCTAssertTrue(FileManager.default.fileExists(atPath: pendingPath), "kept for a later login")
        let mode = try FileManager.default.attributesOfItem(atPath: pendingPath)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        let finish = try curl([server.base + "/config?stt=google&tts=google&hotword=y&wake=n"])
        XCTAssertEqual(finish.json["configuration"] as? String, "successful")
        XCTAssertEqual(try config.stt.engine, "whisper")
        XCTAssertEqual(try curl([server.base + "/speaker_config?room_name=Garage"]).status, 403)
        XCTAssertTrue(try cli.run(["setup", "status"]).stdout.contains("set up"))

        let owner = try XCTUnwrap(finish.json["owner_token"] as? String)
        let reset = try cli.run(["setup", "--reset"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertEqual(try curl([server.base + "/speaker_config?room_name=Garage"]).status, 200, "reset takes effect at once")
        let rotated = try cli.run(["setup", "token"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotEqual(rotated, owner, "a reset replaces the owner token")
        XCTAssertEqual(try curl(["-X", "POST", "-H", "Authorization: Bearer \(owner)", server.base + "/pause"]).status, 401)

        let seconds = server.stop(SIGTERM)
        XCTAssertEqual(server.process.terminationStatus, 0)
        XCTAssertLessThan(seconds, 1.0, "SIGTERM stops the server within a second")
    }

    func testControlErrorsAreJSONWhenThereIsNoPlayerOrSoundDevice() throws {
        XCTAssertEqual(try cli.run(["config", "set", "player.command", "/nonexistent/mpv"]).status, 0)
        let server = try Server(cli)
        defer { server.stop() }
        let play = try curl(["-X", "POST", server.base + "/play?ytb=abcdef"])
        XCTAssertEqual(play.status, 503)
        XCTAssertEqual(play.json["code"] as? String, "player-missing")
        XCTAssertEqual(try curl([server.base + "/status"]).status, 200, "still answering")
        XCTAssertEqual(
            try curl(["-X", "POST", server.base + "/volume/40"]).json["volume"] as? Int, 40, "remembered for the player")
    }

    func testConfigSurvivesSIGKILLDuringWrites() throws {
        var server: Server? = try Server(cli)
        for round in 0..<12 {
            let current = try XCTUnwrap(server)
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = [
                "-c",
                "i=0; while [ $i -lt 400 ]; do i=$((i+1)); curl -s -o /dev/null --max-time 2 -H 'Content-Type: application/json' "
                    + "--data \"{\\\"key\\\":\\\"tts.rate\\\",\\\"value\\\":$((100 + i))}\" \(current.base)/settings; done",
            ]
            try writer.run()
            Thread.sleep(forTimeInterval: 0.15 + Double(round % 4) * 0.05)
            current.stop(SIGKILL)
            writer.terminate()
            writer.waitUntilExit()
            let loaded = try config
            XCTAssertTrue((80...450).contains(loaded.tts.rate), "round \(round): a valid config")
            server = try Server(cli)
        }
        server?.stop()
        XCTAssertGreaterThan(try config.tts.rate, 100, "writes happened")
    }

    /// `susi setup token` prints the token the app got from `/config`; `--rotate` replaces it,
    /// and the running server takes the new one at once.
    func testSetupTokenPrintsAndRotatesTheOwnerToken() throws {
        let server = try Server(cli)
        defer { server.stop() }
        let finish = try curl([server.base + "/config?stt=google&tts=google&hotword=y&wake=n"])
        let given = try XCTUnwrap(finish.json["owner_token"] as? String)
        let printed = try cli.run(["setup", "token"])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertEqual(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines), given)
        XCTAssertEqual(try curl(["-X", "POST", server.base + "/stop"]).status, 401)
        XCTAssertEqual(try curl(["-X", "POST", "-H", "Authorization: Bearer \(given)", server.base + "/stop"]).status, 200)

        let rotated = try cli.run(["setup", "token", "--rotate"])
        XCTAssertEqual(rotated.status, 0, rotated.stderr)
        let fresh = rotated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(fresh.count, 43)
        XCTAssertNotEqual(fresh, given)
        XCTAssertEqual(try curl(["-X", "POST", "-H", "Authorization: Bearer \(given)", server.base + "/stop"]).status, 401)
        XCTAssertEqual(try curl(["-X", "POST", "-H", "Authorization: Bearer \(fresh)", server.base + "/stop"]).status, 200)
        let mode = try FileManager.default.attributesOfItem(atPath: cli.directory + "/susi/owner-token")[.posixPermissions]
        XCTAssertEqual((mode as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(try cli.run(["setup", "status", "--rotate"]).status, 2, "--rotate only goes with token")
    }

    func testUsageErrors() throws {
        XCTAssertEqual(try cli.run(["setup"]).status, 2)
        XCTAssertEqual(try cli.run(["setup", "dance"]).status, 2)
        XCTAssertEqual(try cli.run(["setup", "serve", "--port", "70000"]).status, 2)
    }

    /// Two `susi setup serve` processes over one config directory (as `susi run` and
    /// `susi setup serve` may be), called in parallel: every network answered "configured" is
    /// in the wpa_supplicant file and none that failed is, so the lock works across processes.
    func testTwoServerProcessesKeepEachOthersWiFiNetworks() throws {
        let servers = [try Server(cli), try Server(cli)]
        defer { servers.forEach { $0.stop() } }
        let wifiPath = cli.directory + "/susi/wpa_supplicant.conf"
        var configured = 0
        for round in 0..<5 {
            let ssids = (0..<8).map { "net-\(round)-\($0)" }
            let calls = try ssids.enumerated().map { index, ssid -> (Process, Pipe) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                process.arguments = [
                    "-s", "-o", "/dev/null", "--max-time", "20", "-w", "%{http_code}",
                    servers[index % 2].base + "/wifi_credentials?wifissid=\(ssid)&wifipassd=pass-\(ssid)",
                ]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                return (process, pipe)
            }
            let statuses = calls.map { process, pipe -> Int in
                let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return Int(text) ?? 0
            }
            let text = (try? String(contentsOfFile: wifiPath, encoding: .utf8)) ?? ""
            for (ssid, status) in zip(ssids, statuses) {
                let stored = text.contains("ssid=\"\(ssid)\"")
                if status == 200 { configured += 1 }
                XCTAssertEqual(stored, status == 200, "round \(round): \(ssid) answered \(status), in the file: \(stored)")
            }
        }
        XCTAssertGreaterThanOrEqual(configured, 20, "most calls succeed")
    }
}
