import Foundation

/// What is running for the hotspot, as seen on the system (not what was asked for): the
/// interface, its address, and the two daemons.
public struct HotspotReality: Sendable, Equatable {
    /// Whether the interface exists.
    public var interfaceExists: Bool
    /// Whether it is administratively up.
    public var interfaceUp: Bool
    /// Whether it holds the hotspot's address, 10.0.0.1.
    public var hasAddress: Bool
    /// Whether the hotspot's hostapd runs.
    public var hostapdRunning: Bool
    /// Whether the hotspot's dnsmasq runs.
    public var dnsmasqRunning: Bool

    /// An observation.
    public init(interfaceExists: Bool, interfaceUp: Bool, hasAddress: Bool, hostapdRunning: Bool, dnsmasqRunning: Bool) {
        self.interfaceExists = interfaceExists
        self.interfaceUp = interfaceUp
        self.hasAddress = hasAddress
        self.hostapdRunning = hostapdRunning
        self.dnsmasqRunning = dnsmasqRunning
    }

    /// A hotspot that runs.
    public static let running = HotspotReality(
        interfaceExists: true, interfaceUp: true, hasAddress: true, hostapdRunning: true, dnsmasqRunning: true)
    /// No interface and nothing running.
    public static let absent = HotspotReality(
        interfaceExists: false, interfaceUp: false, hasAddress: false, hostapdRunning: false, dnsmasqRunning: false)

    /// Whether the hotspot is on: all of the above.
    public var isRunning: Bool { problem(interface: "") == nil }

    /// The first thing missing, for people ("wlan0 does not exist"); nil when it runs.
    public func problem(interface: String) -> String? {
        if !interfaceExists { return "\(interface) does not exist" }
        if !interfaceUp { return "\(interface) is down" }
        if !hasAddress { return "\(interface) does not have \(HotspotSettings.address)" }
        if !hostapdRunning { return "hostapd is not running" }
        if !dnsmasqRunning { return "dnsmasq is not running" }
        return nil
    }
}

/// Looks at the system for what the hotspot has running. Tests use a fake.
public protocol HotspotProbe: Sendable {
    /// What runs for `settings` now. Blocking (runs `ip`).
    func observe(_ settings: HotspotSettings) -> HotspotReality
}

/// Looks with `ip` (through `runner`, so a namespace test can point it elsewhere) and at the
/// daemons' pid files in the run directory.
///
/// A daemon runs when its pid file names a live process of that name (a stale file, a zombie
/// or a reused pid does not count). The installed speaker runs as `susi` and cannot read root's
/// run directory (mode 0700), and its sandbox (`ProtectProc=invisible`) hides root's processes;
/// then a process of that name whose command line names the run directory counts, and failing
/// that the helper unit's control group: hostapd and dnsmasq are the only processes the unit
/// keeps there, so two or more means both run.
public struct SystemHotspotProbe: HotspotProbe {
    /// Runs `ip`.
    public let runner: any CommandRunner
    /// Where processes are listed.
    public var procDirectory: String
    /// The helper unit's control group directory; nil: not used.
    public var helperControlGroup: String?

    /// A probe running `ip` through `runner`.
    public init(
        runner: any CommandRunner, procDirectory: String = "/proc",
        helperControlGroup: String? = "/sys/fs/cgroup/system.slice/" + HelperHotspotActions.hotspotUnit
    ) {
        self.runner = runner
        self.procDirectory = procDirectory
        self.helperControlGroup = helperControlGroup
    }

    public func observe(_ settings: HotspotSettings) -> HotspotReality {
        let link = runner.run(["ip", "-o", "link", "show", "dev", settings.interface])
        guard link.succeeded, !link.output.isEmpty else { return .absent }
        let addresses = runner.run(["ip", "-4", "-o", "addr", "show", "dev", settings.interface])
        return HotspotReality(
            interfaceExists: true, interfaceUp: Self.isUp(link.output),
            hasAddress: addresses.succeeded
                && HotspotController.homeAddresses(in: addresses.output).contains(HotspotSettings.address),
            hostapdRunning: isRunning("hostapd", settings: settings), dnsmasqRunning: isRunning("dnsmasq", settings: settings))
    }

    /// Whether `ip -o link show` output has the UP flag (`<BROADCAST,MULTICAST,UP,LOWER_UP>`).
    static func isUp(_ output: String) -> Bool {
        guard let open = output.firstIndex(of: "<"), let close = output[open...].firstIndex(of: ">") else { return false }
        return output[output.index(after: open)..<close].split(separator: ",").contains("UP")
    }

    private func isRunning(_ program: String, settings: HotspotSettings) -> Bool {
        let pidFile = settings.runFile(program + ".pid")
        if let text = try? String(contentsOfFile: pidFile, encoding: .utf8) {
            guard let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            return name(of: pid) == program
        }
        // A missing file in a readable directory: not running. Only an unreadable run
        // directory (another user's) sends us looking elsewhere.
        guard access(pidFile, F_OK) != 0, errno == EACCES else { return false }
        if processExists(program, mentioning: settings.runDirectory) { return true }
        guard let helperControlGroup,
            let procs = try? String(contentsOfFile: helperControlGroup + "/cgroup.procs", encoding: .utf8)
        else { return false }
        return procs.split(separator: "\n").count >= 2
    }

    /// The name of live process `pid` (its `comm`), nil when there is none or it is a zombie.
    private func name(of pid: Int32) -> String? {
        guard pid > 0, let stat = try? String(contentsOfFile: "\(procDirectory)/\(pid)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { return nil }
        let state = stat[close...].dropFirst(2).first
        guard state != "Z", state != "X" else { return nil }
        return String(stat[stat.index(after: open)..<close])
    }

    private func processExists(_ program: String, mentioning directory: String) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: procDirectory) else { return false }
        return entries.contains { entry in
            guard let pid = Int32(entry), name(of: pid) == program,
                let data = FileManager.default.contents(atPath: "\(procDirectory)/\(entry)/cmdline")
            else { return false }
            return String(decoding: data, as: UTF8.self).contains(directory)
        }
    }
}
