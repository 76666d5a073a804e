import Foundation
import SusiSpeaker
import XCTest

/// Runs commands inside a network namespace (`ip netns exec NAME ...`); hostapd, which needs a
/// Wi-Fi device, is recorded and skipped.
private struct NamespaceRunner: CommandRunner {
    let namespace: String
    let base = ProcessCommandRunner(timeout: 20)

    func run(_ arguments: [String]) -> CommandResult {
        if arguments.first == "hostapd" { return CommandResult(status: 0, output: "skipped: no Wi-Fi device") }
        return base.run(["ip", "netns", "exec", namespace] + arguments)
    }
}

/// The first setup over a real network, without a radio: two network namespaces joined by a
/// veth pair stand for the speaker and the phone. The speaker side runs the hotspot's `up`
/// step (the generated dnsmasq file, the 10.0.0.1/24 address; hostapd skipped) and
/// `susi setup serve`; the phone side gets a DHCP lease from busybox udhcpc with the generated
/// script, resolves any name to 10.0.0.1, and runs the apps' whole setup sequence with curl as
/// the apps call it. Then the `down` step stops dnsmasq and clears the address. Every
/// namespace, interface and process is removed at the end, pass or fail.
final class HotspotNamespaceTests: XCTestCase {
    private var cli: CLIRunner!
    private var namespaces: [String] = []

    override func tearDown() {
        for namespace in namespaces {
            // Everything still running in the namespace goes first; deleting it removes the veth.
            let pids = ProcessCommandRunner().run(["ip", "netns", "pids", namespace]).output
                .split(separator: "\n").compactMap { Int32($0.trimmingCharacters(in: .whitespaces)) }
            for pid in pids { kill(pid, SIGKILL) }
            _ = ProcessCommandRunner().run(["ip", "netns", "delete", namespace])
        }
        namespaces = []
        cli?.cleanUp()
    }

    private func require(_ condition: Bool, _ why: String) throws {
        if !condition { throw XCTSkip(why) }
    }

    private func sh(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> CommandResult {
        let result = ProcessCommandRunner(timeout: 20).run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments.joined(separator: " ")): \(result.output)", file: file, line: line)
        return result
    }

    /// `curl` from the phone's namespace; returns the body.
    private func phoneGet(_ phone: String, _ url: String) -> CommandResult {
        ProcessCommandRunner(timeout: 20).run(["ip", "netns", "exec", phone, "curl", "-sS", "--max-time", "10", url])
    }

    func testAPhoneGetsALeaseAndSetsTheSpeakerUpOverTheHotspotNetwork() throws {
        try require(getuid() == 0, "network namespaces need root; run the tests as root (CI does)")
        for program in ["ip", "dnsmasq", "busybox", "curl"] {
            try require(ProcessCommandRunner.locate(program) != nil, "\(program) is not installed (make deps)")
        }
        let id = String(UUID().uuidString.prefix(6)).lowercased()
        let speaker = "susi-ap-\(id)"
        let phone = "susi-phone-\(id)"
        let speakerSide = "sap\(id)"
        let phoneSide = "sph\(id)"
        let probe = ProcessCommandRunner().run(["ip", "netns", "add", speaker])
        try require(probe.succeeded, "network namespaces are not available here: \(probe.output)")
        namespaces.append(speaker)
        _ = sh(["ip", "netns", "add", phone])
        namespaces.append(phone)
        _ = sh(["ip", "link", "add", speakerSide, "type", "veth", "peer", "name", phoneSide])
        // Until it moves into a namespace, a failed test must still remove the pair.
        addTeardownBlock { _ = ProcessCommandRunner().run(["ip", "link", "delete", speakerSide]) }
        _ = sh(["ip", "link", "set", speakerSide, "netns", speaker])
        _ = sh(["ip", "link", "set", phoneSide, "netns", phone])
        _ = sh(["ip", "-n", speaker, "link", "set", "lo", "up"])
        _ = sh(["ip", "-n", phone, "link", "set", "lo", "up"])
        _ = sh(["ip", "-n", phone, "link", "set", phoneSide, "up"])

        cli = try CLIRunner()
        let run = cli.directory + "/run"
        let settings = try HotspotSettings(
            interface: speakerSide, runDirectory: run, wifiFile: cli.directory + "/susi/wpa_supplicant.conf")

        // The speaker opens the hotspot: address, dnsmasq from the generated file.
        let actions = DirectHotspotActions(runner: NamespaceRunner(namespace: speaker))
        XCTAssertNoThrow(try actions.perform(.up, settings: settings))
        let address = sh(["ip", "-n", speaker, "-4", "-o", "addr", "show", "dev", speakerSide]).output
        XCTAssertTrue(address.contains("inet 10.0.0.1/24"), address)
        let dnsmasqPid = try String(contentsOfFile: run + "/dnsmasq.pid", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(isRunning(dnsmasqPid), "dnsmasq runs")

        // The phone joins: a lease in the small range, the speaker as router and DNS server.
        let script = cli.directory + "/udhcpc.script"
        try HotspotFiles.dhcpClientScript.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let resolv = cli.directory + "/phone-resolv.conf"
        let lease = ProcessCommandRunner(timeout: 30, environment: ["RESOLV_CONF": resolv]).run([
            "ip", "netns", "exec", phone, "busybox", "udhcpc", "-i", phoneSide, "-n", "-q", "-t", "5", "-T", "1", "-s", script,
        ])
        XCTAssertEqual(lease.status, 0, lease.output)
        let phoneAddress = sh(["ip", "-n", phone, "-4", "-o", "addr", "show", "dev", phoneSide]).output
        let leased = phoneAddress.split(separator: " ").first { $0.hasPrefix("10.0.0.") }.map(String.init) ?? ""
        let host = Int(leased.split(separator: "/").first?.split(separator: ".").last ?? "") ?? 0
        XCTAssertTrue((2...20).contains(host), "leased \(leased): \(phoneAddress)")
        XCTAssertTrue(sh(["ip", "-n", phone, "-4", "route", "show", "default"]).output.contains("via 10.0.0.1"))
        XCTAssertEqual(try String(contentsOfFile: resolv, encoding: .utf8), "nameserver 10.0.0.1\n")

        // Captive portal: any name is the speaker.
        let lookup = ProcessCommandRunner(timeout: 20).run([
            "ip", "netns", "exec", phone, "busybox", "nslookup", "connectivitycheck.gstatic.com", "10.0.0.1",
        ])
        let answers = lookup.output.components(separatedBy: "Name:").dropFirst().joined()
        XCTAssertTrue(answers.contains("Address: 10.0.0.1"), lookup.output)

        // The setup server on 10.0.0.1:5000 inside the speaker's namespace; the SUSI server
        // is unreachable there, as it is while the speaker runs its hotspot.
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", "http://127.0.0.1:9"]).status, 0)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: try XCTUnwrap(ProcessCommandRunner.locate("ip")))
        server.arguments = [
            "netns", "exec", speaker, CLIRunner.executable.path, "setup", "serve", "--port", "5000", "--bind", "10.0.0.1",
        ]
        server.environment = ProcessInfo.processInfo.environment.merging(["XDG_CONFIG_HOME": cli.directory]) { $1 }
        FileManager.default.createFile(atPath: cli.directory + "/background.out", contents: nil)
        server.standardOutput = FileHandle(forWritingAtPath: cli.directory + "/background.out")
        server.standardError = FileHandle(forWritingAtPath: cli.directory + "/background.out")
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var first = phoneGet(phone, "http://10.0.0.1:5000/speaker_config?room_name=Living%20room")
        for _ in 0..<100 where first.status != 0 {
            Thread.sleep(forTimeInterval: 0.1)
            first = phoneGet(phone, "http://10.0.0.1:5000/speaker_config?room_name=Living%20room")
        }
        let serverLog = (try? String(contentsOfFile: cli.directory + "/background.out", encoding: .utf8)) ?? ""
        XCTAssertEqual(first.status, 0, first.output + serverLog)
        XCTAssertEqual(try jsonField(first.output, "room_name"), "Living room")

        let wifi = phoneGet(phone, "http://10.0.0.1:5000/wifi_credentials?wifissid=Home%20WiFi&wifipassd=correct%20horse")
        XCTAssertEqual(try jsonField(wifi.output, "wifi"), "configured")
        let auth = phoneGet(phone, "http://10.0.0.1:5000/auth?auth=y&email=mario%40example.com&password=s3cret")
        XCTAssertEqual(try jsonField(auth.output, "authentication"), "successful", auth.output)
        XCTAssertFalse(auth.output.contains("s3cret"), "no secret echoed")
        let done = phoneGet(phone, "http://10.0.0.1:5000/config?stt=google&tts=google&hotword=y&wake=n")
        XCTAssertEqual(try jsonField(done.output, "configuration"), "successful", done.output)

        let stored = try String(contentsOfFile: cli.directory + "/susi/wpa_supplicant.conf", encoding: .utf8)
        XCTAssertTrue(stored.contains("ssid=\"Home WiFi\""), stored)
        let state = try String(contentsOfFile: cli.directory + "/susi/setup-state.json", encoding: .utf8)
        XCTAssertTrue(state.contains("\"setup_mode\":false"), state)
        let again = phoneGet(phone, "http://10.0.0.1:5000/speaker_config?room_name=x")
        XCTAssertTrue(again.output.contains("setup"), "setup routes close after /config: \(again.output)")

        // Leaving hotspot mode: dnsmasq ends, the address goes.
        XCTAssertNoThrow(try actions.perform(.down, settings: settings))
        XCTAssertFalse(isRunning(dnsmasqPid), "dnsmasq stopped")
        XCTAssertFalse(sh(["ip", "-n", speaker, "-4", "-o", "addr", "show", "dev", speakerSide]).output.contains("10.0.0.1"))
    }

    /// Whether process `pid` is alive: a killed daemon may linger as a zombie until this
    /// machine's init reaps it.
    private func isRunning(_ pid: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        let state = stat[close...].dropFirst(2).first
        return state != "Z" && state != "X"
    }

    private func jsonField(_ body: String, _ name: String) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return object?[name] as? String
    }
}
