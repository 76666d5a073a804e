import Foundation
import XCTest

@testable import SusiServer

/// Parallel `/wifi_credentials` calls through the real setup server over loopback: every
/// network answered "configured" is in the wpa_supplicant file, and none that failed is.
/// (Before the file lock, 3 parallel calls lost a network in 27 rounds of 30.)
final class SetupParallelWritesTests: XCTestCase {
    private var fixtures: [SetupFixture] = []

    override func tearDown() {
        fixtures.forEach { $0.tearDown() }
        fixtures = []
    }

    /// Starts one curl per URL at once and returns each one's HTTP status (0: no reply).
    private func parallelGets(_ urls: [String]) throws -> [Int] {
        let runs = try urls.map { url -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-o", "/dev/null", "--max-time", "20", "-w", "%{http_code}", url]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            return (process, pipe)
        }
        return runs.map { process, pipe in
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return Int(text) ?? 0
        }
    }

    /// Sends `rounds` bursts of `parallel` calls, spread over `bases`, each naming a new
    /// network; checks the file after every burst and returns how many were answered 200.
    private func storeNetworksInParallel(
        bases: [String], wifiPath: String, rounds: Int, parallel: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws -> Int {
        var configured = 0
        for round in 0..<rounds {
            let ssids = (0..<parallel).map { "net-\(round)-\($0)" }
            let urls = ssids.enumerated().map { index, ssid in
                bases[index % bases.count] + "/wifi_credentials?wifissid=\(ssid)&wifipassd=password-\(ssid)"
            }
            let statuses = try parallelGets(urls)
            let text = FileManager.default.contents(atPath: wifiPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
            for (ssid, status) in zip(ssids, statuses) {
                let stored = text.contains("ssid=\"\(ssid)\"") && text.contains("psk=\"password-\(ssid)\"")
                if status == 200 {
                    configured += 1
                    XCTAssertTrue(
                        stored, "round \(round): \(ssid) was answered 200 but is not in the file", file: file, line: line)
                } else {
                    XCTAssertFalse(
                        stored, "round \(round): \(ssid) failed (\(status)) but is in the file", file: file, line: line)
                }
            }
            XCTAssertEqual(
                text.components(separatedBy: "network={").count - 1, configured, "one block per configured network",
                file: file, line: line)
        }
        return configured
    }

    func testParallelWiFiCallsAreAllKeptOrCleanlyRefused() throws {
        let fixture = try SetupFixture()
        fixtures.append(fixture)
        let configured = try storeNetworksInParallel(bases: [fixture.base], wifiPath: fixture.wifiPath, rounds: 8, parallel: 6)
        XCTAssertGreaterThanOrEqual(configured, 8 * 6 / 2, "most calls succeed: the lock serialises, it does not refuse")
        XCTAssertEqual(try fixture.mode(fixture.wifiPath), 0o600)
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.directory).filter { $0.contains(".tmp-") }
        XCTAssertEqual(left, [], "no temporary file is left behind")
    }

    /// Two servers over one config directory, as `susi run` and `susi setup serve` may be:
    /// the lock is on the file, not in one server's memory.
    func testTwoServersOverOneFileKeepEachOthersNetworks() throws {
        let first = try SetupFixture()
        fixtures.append(first)
        let service = SetupService(
            store: first.store, control: RecordingSpeakerControl(), account: RecordingAccountLinking(), voices: { [] },
            version: "test-2", hooks: HookRunner(timeout: 10))
        let second = HTTPServer(host: "127.0.0.1", port: 0, limits: SetupService.limits, router: service.makeRouter())
        try second.start()
        defer { second.stop() }
        let configured = try storeNetworksInParallel(
            bases: [first.base, "http://127.0.0.1:\(second.port ?? 0)"], wifiPath: first.wifiPath, rounds: 4, parallel: 8)
        XCTAssertGreaterThanOrEqual(configured, 4 * 8 / 2)
    }
}
