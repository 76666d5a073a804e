import Foundation
import SusiCore

/// The hotspot's root actions: the only things hotspot mode needs root for.
public enum HotspotStep: String, Sendable, CaseIterable {
    /// Open the access point: the interface at 10.0.0.1/24, hostapd, dnsmasq, and the
    /// captive-portal redirect of port 80 to the setup server.
    case up
    /// Close it: delete the redirect, stop dnsmasq and hostapd, clear the interface's address.
    case down
    /// Join the home network: close whatever of the access point is left, then wpa_supplicant
    /// with the apps' Wi-Fi file and a DHCP client.
    case join
}

/// Performs a `HotspotStep`, directly (as root) or through the privileged helper.
public protocol HotspotActions: Sendable {
    /// Performs `step` with `settings`; blocking.
    /// - Throws: `hotspot-command-failed` or `hotspot-write-failed`, naming what failed.
    func perform(_ step: HotspotStep, settings: HotspotSettings) throws(HotspotError)
}

/// Runs a step's commands itself through `runner`, which must have root (the privileged
/// helper unit runs `susi setup hotspot helper STEP` as root; a developer may use sudo).
///
/// Each step first stops what an earlier step may have left running (by pid file), so any
/// step may be repeated, and a restart mid-way simply performs the recorded step again. An
/// `up` that fails half-way is rolled back with `down`'s commands before the error is thrown:
/// the helper unit does not run its stop command after a failed start, and a half-open
/// hotspot (an address without an access point, a redirect without a server behind it) helps
/// nobody; the controller retries the whole step later.
public struct DirectHotspotActions: HotspotActions {
    /// Runs the commands.
    public let runner: any CommandRunner
    /// Where a failed `warned` command is reported.
    public let logger: Logger

    /// Actions through `runner`.
    public init(runner: any CommandRunner, logger: Logger = .silent) {
        self.runner = runner
        self.logger = logger
    }

    /// A command of a step, and what its failure means.
    public struct Command: Sendable, Equatable {
        /// What a non-zero exit does.
        public enum OnFailure: Sendable, Equatable {
            /// The step fails (and an `up` is rolled back).
            case failsStep
            /// Nothing: stopping something that is not running is fine.
            case ignored
            /// A warning, and the step goes on: something the apps do not need.
            case warned
        }
        /// The argument vector.
        public let arguments: [String]
        /// What a non-zero exit does.
        public let onFailure: OnFailure
    }

    /// The commands of `step`, in order.
    public static func commands(for step: HotspotStep, settings: HotspotSettings) -> [Command] {
        let interface = settings.interface
        func checked(_ arguments: String...) -> Command { Command(arguments: arguments, onFailure: .failsStep) }
        func tolerated(_ arguments: String...) -> Command { Command(arguments: arguments, onFailure: .ignored) }
        // The process name too: dnsmasq's pid file belongs to the user it drops to, and
        // start-stop-daemon rightly refuses to trust such a file alone.
        func stop(_ program: String) -> Command {
            let pidFile = settings.runFile((program == "busybox" ? "udhcpc" : program) + ".pid")
            return tolerated(
                "start-stop-daemon", "--stop", "--quiet", "--oknodo", "--retry", "5", "--remove-pidfile", "--pidfile", pidFile,
                "--name", program)
        }
        // Deleting a table that is not there fails, harmlessly: nothing to remove.
        let closing = [
            tolerated("nft", "delete", "table", "ip", HotspotFiles.redirectTable), stop("dnsmasq"), stop("hostapd"),
        ]
        switch step {
        case .up:
            return [
                stop("busybox"), stop("wpa_supplicant"), stop("dnsmasq"), stop("hostapd"),
                tolerated("rfkill", "unblock", "wlan"),
                checked("ip", "-4", "addr", "flush", "dev", interface),
                checked("ip", "link", "set", "dev", interface, "up"),
                checked(
                    "ip", "-4", "addr", "add", "\(HotspotSettings.address)/\(HotspotSettings.prefixLength)", "dev", interface),
                checked("hostapd", "-B", "-P", settings.runFile("hostapd.pid"), settings.runFile("hostapd.conf")),
                checked("dnsmasq", "--conf-file=\(settings.runFile("dnsmasq.conf"))"),
                // Last, once everything behind it runs. Only a convenience for phone browsers
                // (the apps call 10.0.0.1:5000 themselves), so a kernel without NAT keeps the
                // hotspot open and says why in the log instead.
                Command(arguments: ["nft", "-f", settings.runFile("captive.nft")], onFailure: .warned),
            ]
        case .down:
            return closing + [tolerated("ip", "-4", "addr", "flush", "dev", interface)]
        case .join:
            // `closing` again: a restart between recording `joining` and `down` resumes with
            // `join` alone.
            return closing + [
                stop("busybox"), stop("wpa_supplicant"),
                checked("ip", "link", "set", "dev", interface, "up"),
                checked(
                    "wpa_supplicant", "-B", "-i", interface, "-D", "nl80211,wext", "-c", settings.wifiFile, "-P",
                    settings.runFile("wpa_supplicant.pid")),
                checked(
                    "busybox", "udhcpc", "-b", "-t", "3", "-T", "2", "-i", interface, "-p", settings.runFile("udhcpc.pid"), "-s",
                    settings.runFile("udhcpc.script")),
            ]
        }
    }

    /// The files `step` writes into the run directory first: name, contents, mode.
    public static func files(for step: HotspotStep, settings: HotspotSettings) -> [(name: String, text: String, mode: Int)] {
        switch step {
        case .up:
            // hostapd's file holds the passphrase.
            return [
                ("hostapd.conf", HotspotFiles.hostapd(settings), 0o600), ("dnsmasq.conf", HotspotFiles.dnsmasq(settings), 0o644),
                ("captive.nft", HotspotFiles.captiveRedirect(settings), 0o644),
            ]
        case .down: return []
        case .join: return [("udhcpc.script", HotspotFiles.dhcpClientScript, 0o755)]
        }
    }

    public func perform(_ step: HotspotStep, settings: HotspotSettings) throws(HotspotError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: settings.runDirectory, withIntermediateDirectories: true)
            for file in Self.files(for: step, settings: settings) {
                let path = settings.runFile(file.name)
                try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                try manager.setAttributes([.posixPermissions: file.mode], ofItemAtPath: path)
            }
        } catch {
            throw HotspotError(
                .writeFailed, "cannot write the hotspot's files in \(settings.runDirectory): \(error.localizedDescription)")
        }
        for command in Self.commands(for: step, settings: settings) {
            let result = runner.run(command.arguments)
            guard !result.succeeded else { continue }
            let output = result.output.split(separator: "\n").suffix(3).joined(separator: " / ")
            let failure =
                "\(command.arguments.joined(separator: " ")) exited with \(result.status)" + (output.isEmpty ? "" : ": \(output)")
            switch command.onFailure {
            case .ignored: continue
            case .warned: logger.warning("hotspot: \(failure)")
            case .failsStep:
                if step == .up {
                    for undo in Self.commands(for: .down, settings: settings) { _ = runner.run(undo.arguments) }
                }
                throw HotspotError(.commandFailed, failure)
            }
        }
    }
}

/// Asks the privileged helper units to perform a step, with `systemctl`; the polkit rule lets
/// the `susi` user start, stop and restart these two units and nothing else (dist/):
/// - `susi-hotspot.service` runs `susi setup hotspot helper up` as root and keeps hostapd and
///   dnsmasq in its control group; stopping it ends them and runs `helper down` (which also
///   deletes the captive-portal redirect);
/// - `susi-wifi-join.service` runs `helper join` and keeps wpa_supplicant and udhcpc.
public struct HelperHotspotActions: HotspotActions {
    /// Runs `systemctl`.
    public let runner: any CommandRunner

    /// Actions through the helper units, with `systemctl` run by `runner`.
    public init(runner: any CommandRunner) {
        self.runner = runner
    }

    /// The access point's unit.
    public static let hotspotUnit = "susi-hotspot.service"
    /// The home network's unit.
    public static let joinUnit = "susi-wifi-join.service"

    /// The `systemctl` calls of `step`, in order.
    public static func commands(for step: HotspotStep) -> [[String]] {
        switch step {
        case .up: return [["systemctl", "stop", joinUnit], ["systemctl", "restart", hotspotUnit]]
        case .down: return [["systemctl", "stop", hotspotUnit]]
        case .join: return [["systemctl", "restart", joinUnit]]
        }
    }

    public func perform(_ step: HotspotStep, settings: HotspotSettings) throws(HotspotError) {
        for arguments in Self.commands(for: step) {
            let result = runner.run(arguments)
            guard result.succeeded else {
                throw HotspotError(
                    .commandFailed,
                    "\(arguments.joined(separator: " ")) exited with \(result.status): "
                        + result.output.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
    }
}
