import Foundation
import SusiServer
import SusiSpeaker
import SusiTestSupport
import Synchronization
import XCTest

/// Runs commands inside a network namespace (`ip netns exec NAME ...`). hostapd and
/// wpa_supplicant, which need a Wi-Fi device, are skipped; the DHCP client script writes its
/// name servers to a scratch file, never this machine's /etc/resolv.conf.
private struct NamespaceRunner: CommandRunner {
    let namespace: String
    let base: ProcessCommandRunner

    init(namespace: String, resolvConf: String) {
        self.namespace = namespace
        base = ProcessCommandRunner(timeout: 20, environment: ["RESOLV_CONF": resolvConf])
    }

    func run(_ arguments: [String]) -> CommandResult {
        if ["hostapd", "wpa_supplicant"].contains(arguments.first ?? "") {
            return CommandResult(status: 0, output: "skipped: no Wi-Fi device")
        }
        return base.run(["ip", "netns", "exec", namespace] + arguments)
    }
}

/// A clock the test moves.
private final class ManualClock: Sendable {
    private let now = Mutex(Date())
    var date: Date { now.withLock { $0 } }
    func advance(_ seconds: Double) { now.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The first setup over a real network, without a radio: two network namespaces joined by a
/// veth pair stand for the speaker and the phone (later the home router). A `HotspotController`
/// drives the speaker side with the real commands (hostapd and wpa_supplicant skipped): it
/// opens the hotspot (10.0.0.1/24, dnsmasq from the generated file, the port-80 redirect),
/// falls back to it when the home network does not come, and leaves it after the apps'
/// `/config`. The phone gets a DHCP lease from busybox udhcpc with the generated script, uses
/// the hotspot's DNS (its `/etc/netns/NAME/resolv.conf`), so `http://example.com/` and the
/// phones' captive-portal checks land on the setup page, and runs the apps' whole setup sequence
/// with curl against `susi setup serve` on 10.0.0.1:5000. Then the phone's side turns into a
/// home router and the speaker's join step gets its lease. Every namespace, interface, process
/// and `/etc/netns` file is removed at the end, pass or fail.
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
            try? FileManager.default.removeItem(atPath: "/etc/netns/\(namespace)")
        }
        // Only when empty: never another namespace's files.
        if !namespaces.isEmpty { rmdir("/etc/netns") }
        namespaces = []
        cli?.cleanUp()
    }

    private func require(_ condition: Bool, _ why: String) throws {
        if !condition { throw XCTSkip(why) }
    }

    @discardableResult
    private func sh(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> CommandResult {
        let result = ProcessCommandRunner(timeout: 20).run(arguments)
        XCTAssertEqual(result.status, 0, "\(arguments.joined(separator: " ")): \(result.output)", file: file, line: line)
        return result
    }

    /// `curl` from the phone's namespace.
    private func phoneGet(_ phone: String, _ url: String) -> CommandResult {
        ProcessCommandRunner(timeout: 20).run(["ip", "netns", "exec", phone, "curl", "-sS", "--max-time", "10", url])
    }

    /// `curl` from the phone's namespace with its own options; the phone's resolver is the
    /// hotspot's dnsmasq.
    private func phoneCurl(_ phone: String, _ options: [String]) -> CommandResult {
        ProcessCommandRunner(timeout: 30).run(["ip", "netns", "exec", phone, "curl", "-sS", "--max-time", "10"] + options)
    }

    /// The speaker namespace's captive-portal redirect table, or "" when there is none.
    private func redirectTable(_ speaker: String) -> String {
        let table = ProcessCommandRunner().run(["ip", "netns", "exec", speaker, "nft", "list", "table", "ip", "susi_hotspot"])
        return table.succeeded ? table.output : ""
    }

    private func addresses(_ namespace: String, _ interface: String) -> String {
        sh(["ip", "-n", namespace, "-4", "-o", "addr", "show", "dev", interface]).output
    }

    private func pid(_ file: String) -> String {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testFirstSetupOverANamespacePairFromHotspotToHomeNetwork() throws {
        try require(getuid() == 0, "network namespaces need root; run the tests as root (CI does)")
        for program in ["ip", "dnsmasq", "busybox", "curl", "start-stop-daemon", "nft"] {
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
        sh(["ip", "netns", "add", phone])
        namespaces.append(phone)
        sh(["ip", "link", "add", speakerSide, "type", "veth", "peer", "name", phoneSide])
        // Until it moves into a namespace, a failed test must still remove the pair.
        addTeardownBlock { _ = ProcessCommandRunner().run(["ip", "link", "delete", speakerSide]) }
        sh(["ip", "link", "set", speakerSide, "netns", speaker])
        sh(["ip", "link", "set", phoneSide, "netns", phone])
        sh(["ip", "-n", speaker, "link", "set", "lo", "up"])
        sh(["ip", "-n", phone, "link", "set", "lo", "up"])
        sh(["ip", "-n", phone, "link", "set", phoneSide, "up"])

        cli = try CLIRunner()
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", "http://127.0.0.1:9"]).status, 0)
        let run = cli.directory + "/run"
        let settings = try HotspotSettings(
            interface: speakerSide, runDirectory: run, wifiFile: cli.directory + "/susi/wpa_supplicant.conf",
            joinTimeoutSeconds: 30)
        let stateFile = SetupStateFile(path: cli.directory + "/susi/setup-state.json")
        let clock = ManualClock()
        let speakerResolv = cli.directory + "/speaker-resolv.conf"
        let runner = NamespaceRunner(namespace: speaker, resolvConf: speakerResolv)
        let hotspot = HotspotController(
            stateFile: stateFile, settings: { settings }, actions: DirectHotspotActions(runner: runner), probe: runner,
            clock: { clock.date }, isWireless: { _ in true })

        // The hotspot opens: the address, dnsmasq from the generated file, the redirect.
        XCTAssertNoThrow(try hotspot.start())
        XCTAssertTrue(addresses(speaker, speakerSide).contains("inet 10.0.0.1/24"))
        let firstDnsmasq = pid(run + "/dnsmasq.pid")
        XCTAssertTrue(isRunning(firstDnsmasq), "dnsmasq runs")
        let rule = "iifname \"\(speakerSide)\" tcp dport 80 redirect to :5000"
        XCTAssertTrue(redirectTable(speaker).contains(rule), redirectTable(speaker))

        // Leaving for a home network that never answers: after the join timeout the hotspot is
        // back, with setup mode on again.
        try stateFile.finish()
        XCTAssertNoThrow(try hotspot.stop())
        XCTAssertEqual(hotspot.status().phase, .joining)
        XCTAssertFalse(isRunning(firstDnsmasq), "dnsmasq stopped")
        XCTAssertFalse(addresses(speaker, speakerSide).contains("10.0.0.1"), "the hotspot's address is gone")
        XCTAssertEqual(redirectTable(speaker), "", "the redirect is gone")
        hotspot.check()
        XCTAssertEqual(hotspot.status().phase, .joining, "still within the join timeout")
        clock.advance(31)
        hotspot.check()
        XCTAssertEqual(hotspot.status().phase, .hotspot, hotspot.status().description)
        XCTAssertTrue(stateFile.isInSetupMode, "the apps can set it up again")
        XCTAssertTrue(addresses(speaker, speakerSide).contains("inet 10.0.0.1/24"))
        let dnsmasq = pid(run + "/dnsmasq.pid")
        XCTAssertTrue(isRunning(dnsmasq), "dnsmasq runs again")
        XCTAssertFalse(isRunning(pid(run + "/udhcpc.pid")), "the join's DHCP client was stopped")
        XCTAssertTrue(redirectTable(speaker).contains(rule), "the redirect is back")

        // The phone joins: a lease in the small range, the speaker as router and DNS server.
        let script = cli.directory + "/udhcpc.script"
        try HotspotFiles.dhcpClientScript.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        // `ip netns exec` puts the files of /etc/netns/NAME over /etc: the phone's resolver.
        sh(["mkdir", "-p", "/etc/netns/\(phone)"])
        let phoneResolv = "/etc/netns/\(phone)/resolv.conf"
        let lease = ProcessCommandRunner(timeout: 30, environment: ["RESOLV_CONF": phoneResolv]).run([
            "ip", "netns", "exec", phone, "busybox", "udhcpc", "-i", phoneSide, "-n", "-q", "-t", "5", "-T", "1", "-s", script,
        ])
        XCTAssertEqual(lease.status, 0, lease.output)
        let phoneAddress = addresses(phone, phoneSide)
        let leased = phoneAddress.split(separator: " ").first { $0.hasPrefix("10.0.0.") }.map(String.init) ?? ""
        let host = Int(leased.split(separator: "/").first?.split(separator: ".").last ?? "") ?? 0
        XCTAssertTrue((2...20).contains(host), "leased \(leased): \(phoneAddress)")
        XCTAssertTrue(sh(["ip", "-n", phone, "-4", "route", "show", "default"]).output.contains("via 10.0.0.1"))
        XCTAssertEqual(try String(contentsOfFile: phoneResolv, encoding: .utf8), "nameserver 10.0.0.1\n")

        // Captive portal: any name is the speaker.
        let lookup = ProcessCommandRunner(timeout: 20).run([
            "ip", "netns", "exec", phone, "busybox", "nslookup", "connectivitycheck.gstatic.com", "10.0.0.1",
        ])
        let answers = lookup.output.components(separatedBy: "Name:").dropFirst().joined()
        XCTAssertTrue(answers.contains("Address: 10.0.0.1"), lookup.output)

        // The setup server on 10.0.0.1:5000 in the speaker's namespace (this test drives the
        // hotspot); the SUSI server is unreachable there, as it is on the hotspot.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: try XCTUnwrap(ProcessCommandRunner.locate("ip")))
        server.arguments = [
            "netns", "exec", speaker, CLIRunner.executable.path, "setup", "serve", "--port", "5000", "--bind", "10.0.0.1",
            "--no-hotspot",
        ]
        server.environment = cli.environment
        _ = FileManager.default.createFile(atPath: cli.directory + "/background.out", contents: nil)
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

        // Captive portal: with the hotspot's DNS, port 80 of any name reaches the setup server,
        // which sends the phone to the setup page. Android's and Apple's checks first.
        for check in ["http://connectivitycheck.gstatic.com/generate_204", "http://captive.apple.com/hotspot-detect.html"] {
            let reply = phoneCurl(phone, ["-i", check])
            XCTAssertTrue(reply.output.hasPrefix("HTTP/1.1 302"), "\(check): \(reply.output)")
            XCTAssertTrue(reply.output.contains("Location: http://10.0.0.1:5000/\r\n"), "\(check): \(reply.output)")
        }
        let landed = phoneCurl(phone, ["-L", "-w", "\n%{url_effective} %{http_code} %{num_redirects}", "http://example.com/"])
        XCTAssertEqual(landed.status, 0, landed.output)
        XCTAssertTrue(landed.output.hasSuffix("\nhttp://10.0.0.1:5000/ 200 1"), String(landed.output.suffix(200)))
        XCTAssertTrue(landed.output.contains("<select id=\"voice\""), "the setup page: \(landed.output.prefix(300))")
        let byAddress = phoneCurl(phone, ["-w", "\n%{http_code}", "http://10.0.0.1/"])
        XCTAssertTrue(
            byAddress.output.hasSuffix("\n200") && byAddress.output.contains("<select id=\"voice\""),
            "port 80 of the speaker's own address serves the page: \(byAddress.output.suffix(200))")
        let wifi = phoneGet(phone, "http://10.0.0.1:5000/wifi_credentials?wifissid=Home%20WiFi&wifipassd=correct%20horse")
        XCTAssertEqual(try jsonField(wifi.output, "wifi"), "configured", wifi.output)
        let auth = phoneGet(phone, "http://10.0.0.1:5000/auth?auth=y&email=mario%40example.com&password=s3cret")
        XCTAssertEqual(try jsonField(auth.output, "authentication"), "successful", auth.output)
        XCTAssertFalse(auth.output.contains("s3cret"), "no secret echoed")
        let done = phoneGet(phone, "http://10.0.0.1:5000/config?stt=google&tts=google&hotword=y&wake=n")
        XCTAssertEqual(try jsonField(done.output, "configuration"), "successful", done.output)
        let stored = try String(contentsOfFile: settings.wifiFile, encoding: .utf8)
        XCTAssertTrue(stored.contains("ssid=\"Home WiFi\""), stored)
        XCTAssertFalse(stateFile.isInSetupMode)
        XCTAssertEqual(stateFile.hotspot?.phase, "hotspot", "/config kept the hotspot's phase")

        // The phone's side becomes the home router (DHCP on 192.168.77.0/24).
        sh(["ip", "-n", phone, "-4", "addr", "flush", "dev", phoneSide])
        sh(["ip", "-n", phone, "-4", "addr", "add", "192.168.77.1/24", "dev", phoneSide])
        let router = cli.directory + "/router.conf"
        try [
            "interface=\(phoneSide)", "bind-interfaces", "listen-address=192.168.77.1", "no-resolv", "no-hosts",
            "dhcp-range=192.168.77.10,192.168.77.20,255.255.255.0,1h", "dhcp-option=option:router,192.168.77.1",
            "dhcp-leasefile=\(cli.directory)/router.leases", "pid-file=\(cli.directory)/router.pid", "",
        ].joined(separator: "\n").write(toFile: router, atomically: true, encoding: .utf8)
        sh(["ip", "netns", "exec", phone, "dnsmasq", "--conf-file=" + router])

        // The speaker sees setup finished and leaves: dnsmasq ends, the join gets a lease.
        hotspot.check()
        XCTAssertFalse(isRunning(dnsmasq), "dnsmasq stopped")
        XCTAssertTrue(
            eventually(timeout: 20) {
                hotspot.check()
                return hotspot.status().phase == .off
            }, hotspot.status().description)
        let home = addresses(speaker, speakerSide)
        // dnsmasq picks from the whole range by a hash of the (random) veth address: .10 to .20.
        XCTAssertNotNil(home.range(of: #"inet 192\.168\.77\.(1[0-9]|20)/24"#, options: .regularExpression), home)
        XCTAssertFalse(home.contains("10.0.0.1"), home)
        XCTAssertTrue(sh(["ip", "-n", speaker, "-4", "route", "show", "default"]).output.contains("via 192.168.77.1"))
        XCTAssertEqual(try String(contentsOfFile: speakerResolv, encoding: .utf8), "nameserver 192.168.77.1\n")
        XCTAssertEqual(stateFile.hotspot?.phase, "off")
        XCTAssertEqual(redirectTable(speaker), "", "no redirect on the home network")
    }

    /// `susi setup hotspot start|status|stop` as the speaker runs them as root, in a namespace
    /// whose veth interface stands for wlan0: the real commands with the speaker's own run
    /// directory (`/run/susi-hotspot`), hostapd and wpa_supplicant replaced by stand-ins on
    /// `PATH` that only say they ran (no Wi-Fi device here). The run directory is removed
    /// afterwards; a machine that already has one (a speaker) skips the test.
    func testTheHotspotCommandsOpenAndCloseTheHotspotAsRoot() throws {
        try require(getuid() == 0, "the hotspot's commands need root; run the tests as root (CI does)")
        for program in ["ip", "dnsmasq", "busybox", "start-stop-daemon", "nft"] {
            try require(ProcessCommandRunner.locate(program) != nil, "\(program) is not installed (make deps)")
        }
        let run = HotspotSettings.systemRunDirectory
        try require(
            !FileManager.default.fileExists(atPath: run), "\(run) exists: this machine runs a speaker's hotspot; not touching it")
        let id = String(UUID().uuidString.prefix(6)).lowercased()
        let speaker = "susi-cli-\(id)"
        let wifi = "swl\(id)"
        let probe = ProcessCommandRunner().run(["ip", "netns", "add", speaker])
        try require(probe.succeeded, "network namespaces are not available here: \(probe.output)")
        namespaces.append(speaker)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: run) }
        // A veth pair inside the namespace (a dummy device needs a module containers may lack);
        // Foundation's run loop needs loopback.
        sh(["ip", "-n", speaker, "link", "add", wifi, "type", "veth", "peer", "name", "spr\(id)"])
        sh(["ip", "-n", speaker, "link", "set", "lo", "up"])

        cli = try CLIRunner()
        let stand = cli.directory + "/bin"
        try FileManager.default.createDirectory(atPath: stand, withIntermediateDirectories: true)
        let log = cli.directory + "/stand-ins.log"
        // hostapd's stand-in stays in the background under its name with its pid file (`-B -P
        // FILE`), as hostapd does, so status finds it running.
        let hostapdStandIn = """
            #!/bin/sh
            if [ "$1" = --stay ]; then while :; do sleep 1; done; fi
            echo "hostapd $*" >> \(log)
            if [ "$1" = -B ]; then "$0" --stay </dev/null >/dev/null 2>&1 & echo $! > "$3"; fi

            """
        for (program, script) in [
            ("hostapd", hostapdStandIn), ("wpa_supplicant", "#!/bin/sh\necho \"wpa_supplicant $*\" >> \(log)\n"),
        ] {
            try script.write(toFile: stand + "/" + program, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stand + "/" + program)
        }
        XCTAssertEqual(try cli.run(["config", "set", "setup.hotspot.interface", wifi]).status, 0)
        let environment = [
            "XDG_CONFIG_HOME": cli.directory, "XDG_RUNTIME_DIR": cli.environment["XDG_RUNTIME_DIR"] ?? "",
            "PATH": stand + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "RESOLV_CONF": cli.directory + "/resolv.conf",
        ]
        func susi(_ arguments: [String]) -> CommandResult {
            ProcessCommandRunner(timeout: 30, environment: environment).run(
                ["ip", "netns", "exec", speaker, CLIRunner.executable.path] + arguments)
        }

        let start = susi(["setup", "hotspot", "start"])
        XCTAssertEqual(start.status, 0, start.output)
        XCTAssertEqual(start.output, "hotspot \"SUSI.AI\" (WPA2) on \(wifi) at 10.0.0.1\n")
        XCTAssertTrue(addresses(speaker, wifi).contains("inet 10.0.0.1/24"))
        let dnsmasq = pid(run + "/dnsmasq.pid")
        XCTAssertTrue(isRunning(dnsmasq), "dnsmasq runs")
        XCTAssertTrue(redirectTable(speaker).contains("iifname \"\(wifi)\" tcp dport 80 redirect to :5000"))
        let hostapd = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertEqual(hostapd, "hostapd -B -P \(run)/hostapd.pid \(run)/hostapd.conf\n")
        let statusRun = susi(["setup", "hotspot", "status"])
        XCTAssertEqual(statusRun.status, 0, "on, as wanted: \(statusRun.output)")
        XCTAssertTrue(isRunning(pid(run + "/hostapd.pid")), "hostapd's stand-in runs")
        let status = statusRun.output
        XCTAssertTrue(status.hasPrefix(start.output), "status sees what start opened: \(status)")
        let passphrase = try String(contentsOfFile: cli.directory + "/susi/hotspot-passphrase", encoding: .utf8)
        XCTAssertEqual(status.dropFirst(start.output.count), "Wi-Fi \"SUSI.AI\" password: \(passphrase)")
        let hostapdFile = try String(contentsOfFile: run + "/hostapd.conf", encoding: .utf8)
        XCTAssertTrue(hostapdFile.contains("wpa_passphrase=\(passphrase)"), "this speaker's own passphrase")

        let stop = susi(["setup", "hotspot", "stop"])
        XCTAssertEqual(stop.status, 0, stop.output)
        XCTAssertTrue(stop.output.hasPrefix("hotspot closed; joining the home network on \(wifi) (until "), stop.output)
        XCTAssertFalse(isRunning(dnsmasq), "dnsmasq stopped")
        XCTAssertEqual(redirectTable(speaker), "", "the redirect is gone")
        XCTAssertFalse(addresses(speaker, wifi).contains("10.0.0.1"), "the hotspot's address is gone")
        let joined = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        XCTAssertTrue(joined.contains("wpa_supplicant -B -i \(wifi) -D nl80211,wext -c "), joined)
        XCTAssertTrue(isRunning(pid(run + "/udhcpc.pid")), "the DHCP client looks for the home network")
        XCTAssertTrue(susi(["setup", "hotspot", "status"]).output.hasPrefix("hotspot closed; joining"))
    }

    /// Issue 51: `SystemHotspotProbe` on a real interface in a namespace: missing, down, up
    /// without and with 10.0.0.1, and the daemons by pid file (a live process of that name; a
    /// stale file or another program's pid does not count).
    func testTheProbeSeesTheInterfaceItsAddressAndTheDaemonsAsTheyAre() throws {
        try require(getuid() == 0, "network namespaces need root; run the tests as root (CI does)")
        let id = String(UUID().uuidString.prefix(6)).lowercased()
        let speaker = "susi-probe-\(id)"
        let wifi = "spw\(id)"
        let made = ProcessCommandRunner().run(["ip", "netns", "add", speaker])
        try require(made.succeeded, "network namespaces are not available here: \(made.output)")
        namespaces.append(speaker)
        sh(["ip", "-n", speaker, "link", "add", wifi, "type", "veth", "peer", "name", "spp\(id)"])
        cli = try CLIRunner()
        let run = cli.directory + "/run"
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        let probe = SystemHotspotProbe(
            runner: NamespaceRunner(namespace: speaker, resolvConf: cli.directory + "/resolv.conf"), helperControlGroup: nil)
        func settings(_ interface: String) throws -> HotspotSettings {
            try HotspotSettings(interface: interface, runDirectory: run, wifiFile: cli.directory + "/wpa.conf")
        }

        XCTAssertEqual(probe.observe(try settings("nope\(id)")), .absent)
        XCTAssertEqual(probe.observe(try settings("nope\(id)")).problem(interface: "nope\(id)"), "nope\(id) does not exist")
        var seen = probe.observe(try settings(wifi))
        XCTAssertTrue(seen.interfaceExists)
        XCTAssertEqual(seen.problem(interface: wifi), "\(wifi) is down")
        sh(["ip", "-n", speaker, "link", "set", wifi, "up"])
        seen = probe.observe(try settings(wifi))
        XCTAssertEqual(seen.problem(interface: wifi), "\(wifi) does not have 10.0.0.1")
        sh(["ip", "-n", speaker, "-4", "addr", "add", "10.0.0.1/24", "dev", wifi])
        XCTAssertEqual(probe.observe(try settings(wifi)).problem(interface: wifi), "hostapd is not running")

        // Stand-ins named hostapd and dnsmasq, as the kernel names a script's process.
        var daemons: [Process] = []
        defer {
            for daemon in daemons where daemon.isRunning {
                daemon.terminate()
                daemon.waitUntilExit()
            }
        }
        for program in ["hostapd", "dnsmasq"] {
            let path = cli.directory + "/" + program
            try "#!/bin/sh\nwhile :; do sleep 1; done\n".write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            let daemon = Process()
            daemon.executableURL = URL(fileURLWithPath: path)
            try daemon.run()
            daemons.append(daemon)
        }
        try "\(daemons[0].processIdentifier)\n".write(toFile: run + "/hostapd.pid", atomically: true, encoding: .utf8)
        try "\(getpid())\n".write(toFile: run + "/dnsmasq.pid", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            try eventually(timeout: 5) { probe.observe(try settings(wifi)).hostapdRunning }, "hostapd's pid file names it")
        XCTAssertEqual(
            probe.observe(try settings(wifi)).problem(interface: wifi), "dnsmasq is not running", "another program's pid")
        try "\(daemons[1].processIdentifier)\n".write(toFile: run + "/dnsmasq.pid", atomically: true, encoding: .utf8)
        XCTAssertTrue(probe.observe(try settings(wifi)).isRunning)
        daemons[0].terminate()
        daemons[0].waitUntilExit()
        XCTAssertFalse(probe.observe(try settings(wifi)).hostapdRunning, "a stale pid file")
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
