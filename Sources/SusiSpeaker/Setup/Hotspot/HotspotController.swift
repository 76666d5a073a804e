import Foundation
import SusiCore
import SusiModel
import SusiServer
import Synchronization

/// What `susi setup hotspot status` shows: what runs, set against what hotspot mode wants.
///
/// The hotspot is on if and only if the interface exists, is up with 10.0.0.1, and hostapd and
/// dnsmasq run for it (`HotspotReality`); the recorded phase only says what is wanted.
public struct HotspotStatus: Sendable, Equatable, CustomStringConvertible {
    /// The recorded phase: what hotspot mode wants.
    public var phase: HotspotPhase
    /// When `searching` or `joining` gives up.
    public var deadline: Date?
    /// The network name.
    public var ssid: String
    /// The interface.
    public var interface: String
    /// Whether the hotspot is open (no passphrase).
    public var isOpen: Bool
    /// The WPA2 passphrase; nil when open or when the settings cannot be read.
    public var passphrase: String?
    /// The last failure of a step in this process, if any.
    public var lastError: String?
    /// What runs.
    public var reality: HotspotReality
    /// Why the last `susi setup hotspot start` failed (recorded, so any process sees it).
    public var startFailure: String?

    /// Whether the hotspot runs.
    public var isRunning: Bool { reality.isRunning }

    /// Whether the hotspot should run: hotspot mode is `hotspot`, or the last start failed.
    public var isWanted: Bool { phase == .hotspot || startFailure != nil }

    /// The exit status of `susi setup hotspot status`, after `systemctl is-active`: 0 when
    /// what runs is what is wanted, 3 when the hotspot is wanted but not running, 4 when it
    /// runs though hotspot mode does not want it (left over).
    public var exitStatus: Int32 {
        switch (isWanted, isRunning) {
        case (true, false): return 3
        case (false, true): return 4
        default: return 0
        }
    }

    /// One line to print on the box's label: the network and how to join it.
    public var label: String {
        guard let passphrase else { return "Wi-Fi \"\(ssid)\": \(isOpen ? "open, no password" : "password unknown")" }
        let shared =
            passphrase == "password"
            ? " (the SUSI apps' shared default: `susi config set setup.hotspot.passphrase \"\"` gives this speaker its own)"
            : ""
        return "Wi-Fi \"\(ssid)\" password: \(passphrase)\(shared)"
    }

    public var description: String {
        var text: String
        let on = "hotspot \"\(ssid)\" (\(isOpen ? "open" : "WPA2")) on \(interface) at \(HotspotSettings.address)"
        if isWanted, !isRunning {
            let problem = reality.problem(interface: interface) ?? "not running"
            text = "off: \(problem)" + (startFailure.map { " (start failed: \($0))" } ?? " (hotspot mode wants it on)")
        } else {
            switch phase {
            case .hotspot: text = on
            case .off: text = isRunning ? on + ", though hotspot mode is off" : "hotspot off"
            case .searching:
                text = "waiting for a known network on \(interface) before opening the hotspot"
                if isRunning { text += "; yet " + on }
            case .joining:
                text =
                    isRunning
                    ? "joining the home network on \(interface), yet " + on
                    : "hotspot closed; joining the home network on \(interface)"
            }
        }
        if let deadline, phase == .searching || phase == .joining {
            text += " (until \(Timestamp.iso8601(deadline)))"
        }
        if let lastError, lastError != startFailure { text += "; last error: \(lastError)" }
        return text
    }
}

/// Drives `HotspotMachine` on a speaker: reads and records its phase in the setup state file,
/// observes the network with unprivileged commands (`ip`), and performs the root steps through
/// `HotspotActions` (the privileged helper, or directly as root).
///
/// `susi run` and `susi setup serve` call `resume()` at start and `check()` every couple of
/// seconds (`startChecking`); `susi setup hotspot start|stop` call `start()`/`stop()` from
/// another process. Each call reloads the phase from the file first, so the processes agree.
/// Calls within one process are serialised. Blocking; call off Swift's cooperative pool.
public final class HotspotController: Sendable {
    /// The setup state file, which holds setup mode and the hotspot's phase.
    public let stateFile: SetupStateFile
    private let settings: @Sendable () throws(HotspotError) -> HotspotSettings
    private let actions: any HotspotActions
    private let probe: any CommandRunner
    private let reality: any HotspotProbe
    private let clock: @Sendable () -> Date
    private let isWireless: @Sendable (String) -> Bool
    private let logger: Logger
    private let retrySeconds: Double
    private let state = Mutex(Memory())
    private let stopped = Atomic<Bool>(false)

    private struct Memory {
        var lastError: String?
        /// Effects that failed, retried after `retrySeconds`.
        var pending: [HotspotEffect] = []
        var failedAt: Date?
        /// The last problem logged by a background check.
        var lastLogged: String?
    }

    /// A controller.
    ///
    /// - Parameters:
    ///   - stateFile: the setup state file.
    ///   - settings: the current `setup.hotspot.*` settings (called at every step, so edits
    ///     count).
    ///   - actions: performs the root steps.
    ///   - probe: runs the unprivileged `ip` queries.
    ///   - reality: looks at what runs for the hotspot (default: `SystemHotspotProbe` with
    ///     `probe`).
    ///   - clock: now.
    ///   - isWireless: whether an interface is a Wi-Fi device; only then does the hotspot open
    ///     by itself (a machine without Wi-Fi never tries).
    ///   - retrySeconds: how long after a failed step it is tried again.
    public init(
        stateFile: SetupStateFile, settings: @escaping @Sendable () throws(HotspotError) -> HotspotSettings,
        actions: any HotspotActions, probe: any CommandRunner, reality: (any HotspotProbe)? = nil,
        clock: @escaping @Sendable () -> Date = Date.init,
        isWireless: @escaping @Sendable (String) -> Bool = HotspotController.isWirelessInterface,
        retrySeconds: Double = 30, logger: Logger = .silent
    ) {
        self.stateFile = stateFile
        self.settings = settings
        self.actions = actions
        self.probe = probe
        self.reality = reality ?? SystemHotspotProbe(runner: probe)
        self.clock = clock
        self.isWireless = isWireless
        self.retrySeconds = retrySeconds
        self.logger = logger
    }

    /// The controller a speaker uses for `store`: steps run directly when this process is root,
    /// else through the privileged helper units.
    public static func forSpeaker(store: ConfigStore, logger: Logger) -> HotspotController {
        let runner = ProcessCommandRunner()
        let actions: any HotspotActions =
            getuid() == 0 ? DirectHotspotActions(runner: runner, logger: logger) : HelperHotspotActions(runner: runner)
        return HotspotController(
            stateFile: SetupStateFile(configStore: store),
            settings: { () throws(HotspotError) in
                let config: Config
                do throws(ConfigError) {
                    config = try store.load()
                } catch {
                    throw HotspotError(.badSetting, error.message)
                }
                return try HotspotSettings(config: config, store: store)
            },
            actions: actions, probe: runner, logger: logger)
    }

    /// The privileged helper's entry (`susi setup hotspot helper-STEP`, run as root by the
    /// helper units): performs one step directly with the config's settings. Only the three
    /// step names and a Wi-Fi file beside the config are accepted; nothing else can be asked
    /// of it. Warnings go to `logger` (default stderr, which the helper unit sends to the journal).
    /// - Throws: `hotspot-bad-setting` for any other name or a bad setting; the step's error.
    public static func runHelperStep(
        _ name: String, store: ConfigStore, runner: any CommandRunner = ProcessCommandRunner(),
        logger: Logger = Logger(label: "hotspot-helper")
    ) throws(HotspotError) {
        guard let step = HotspotStep(rawValue: name) else {
            throw HotspotError(.badSetting, "the helper performs only up, down or join, not \(name)")
        }
        let config: Config
        do throws(ConfigError) {
            config = try store.load()
        } catch {
            throw HotspotError(.badSetting, error.message)
        }
        let settings = try HotspotSettings(config: config, store: store)
        // Root hands this file to wpa_supplicant, whose errors quote it: only a file in the
        // speaker's own directory, never one the service user could point at (/etc/shadow).
        let directory = (store.directory as NSString).standardizingPath + "/"
        guard (settings.wifiFile as NSString).standardizingPath.hasPrefix(directory) else {
            throw HotspotError(
                .badSetting, "the helper uses only a Wi-Fi file in \(directory), not \(settings.wifiFile)")
        }
        try DirectHotspotActions(runner: runner, logger: logger).perform(step, settings: settings)
    }

    /// Whether `/sys/class/net/NAME` is a Wi-Fi device.
    @Sendable public static func isWirelessInterface(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: "/sys/class/net/\(name)/wireless")
            || FileManager.default.fileExists(atPath: "/sys/class/net/\(name)/phy80211")
    }

    // MARK: Operations

    /// At process start: resumes a recorded phase (a restart mid-way), or starts waiting for a
    /// network when setup mode is on, `setup.hotspot.auto` is set and the interface is Wi-Fi.
    public func resume() {
        serialised { machine, settings in
            let auto = settings.auto && isWireless(settings.interface)
            return machine.resume(
                setupMode: stateFile.isInSetupMode, auto: auto, now: clock(), waitSeconds: settings.waitSeconds,
                joinTimeoutSeconds: settings.joinTimeoutSeconds)
        }
    }

    /// One periodic check: observes the network and setup mode and moves on when due; retries
    /// a failed step after `retrySeconds`.
    public func check() {
        serialised { machine, settings in
            let connected = connected(in: machine.phase, settings: settings)
            // Only a join that could be tried can fail and bring setup mode back.
            let interfaceExists = machine.phase != .joining || reality.observe(settings).interfaceExists
            let seen = HotspotObservation(
                connected: connected, setupMode: stateFile.isInSetupMode, interfaceExists: interfaceExists)
            let before = machine.phase
            let effects = machine.check(seen, now: clock(), joinTimeoutSeconds: settings.joinTimeoutSeconds)
            if before == .joining, machine.phase == .off, !connected {
                logger.warning(
                    "hotspot: \(settings.interface) does not exist, so no home network was joined; setup mode stays as it was")
            }
            guard effects.isEmpty else { return effects }
            return state.withLock { memory in
                guard !memory.pending.isEmpty, let failedAt = memory.failedAt,
                    clock().timeIntervalSince(failedAt) >= retrySeconds
                else { return [] }
                return memory.pending
            }
        }
    }

    /// Opens the hotspot now (`susi setup hotspot start`).
    /// - Throws: the failed step's error. Then hotspot mode is left as it was before, with the
    ///   failure recorded (`HotspotStatus.startFailure`): nothing claims the hotspot is on, and
    ///   no running speaker acts on a hotspot that never opened.
    public func start() throws(HotspotError) {
        try Self.serial.withLock { _ throws(HotspotError) in
            let current = try settings()
            let before = loadMachine()
            var machine = before
            let effects = machine.start()
            try record(machine)
            do throws(HotspotError) {
                try perform(effects, settings: current)
            } catch {
                state.withLock { $0.pending = [] }
                try record(before, failure: error.message)
                logger.warning("hotspot: start failed, hotspot mode stays \(before.phase.rawValue): \(error.message)")
                throw error
            }
            if before != machine { logger.info("hotspot: \(before.phase.rawValue) -> \(machine.phase.rawValue)") }
        }
    }

    /// Leaves the hotspot for the home network (`susi setup hotspot stop`); a running speaker
    /// opens it again when the network does not connect within the join timeout.
    public func stop() throws(HotspotError) {
        try serialisedThrowing { machine, settings in
            machine.stop(now: clock(), joinTimeoutSeconds: settings.joinTimeoutSeconds)
        }
        // The owner no longer wants it: a failed start is no longer news.
        if stateFile.hotspotFailure != nil {
            let machine = loadMachine()
            try Self.serial.withLock { _ throws(HotspotError) in try record(machine) }
        }
    }

    /// What runs, the recorded phase and the settings in force. Blocking (runs `ip`).
    public func status() -> HotspotStatus {
        let machine = loadMachine()
        let current = try? settings()
        let failure = stateFile.hotspotFailure
        return HotspotStatus(
            phase: machine.phase, deadline: machine.deadline, ssid: current?.ssid ?? "?",
            interface: current?.interface ?? "?", isOpen: current?.isOpen ?? false,
            passphrase: current.flatMap { $0.isOpen ? nil : $0.passphrase },
            lastError: state.withLock { $0.lastError } ?? failure, reality: current.map(reality.observe) ?? .absent,
            startFailure: failure)
    }

    // MARK: Background checks

    /// Resumes, then checks every `interval` seconds on a thread of its own until
    /// `stopChecking()`.
    public func startChecking(every interval: Double = 2) {
        let thread = Thread { [self] in
            resume()
            while !stopped.load(ordering: .relaxed) {
                for _ in 0..<max(1, Int(interval * 10)) where !stopped.load(ordering: .relaxed) {
                    Thread.sleep(forTimeInterval: 0.1)
                }
                if !stopped.load(ordering: .relaxed) { check() }
            }
        }
        thread.name = "susi-hotspot"
        thread.start()
    }

    /// Ends the background checks within 0.1 s (a step under way finishes first). The
    /// hotspot itself stays as it is: a restart resumes it.
    public func stopChecking() {
        stopped.store(true, ordering: .relaxed)
    }

    // MARK: Internals

    private func loadMachine() -> HotspotMachine {
        guard let recorded = stateFile.hotspot, let phase = HotspotPhase(rawValue: recorded.phase) else {
            return HotspotMachine()
        }
        return HotspotMachine(
            phase: phase, deadline: recorded.deadline.map { Date(timeIntervalSince1970: TimeInterval($0)) })
    }

    private func connected(in phase: HotspotPhase, settings: HotspotSettings) -> Bool {
        switch phase {
        case .searching:
            let route = probe.run(["ip", "-4", "route", "show", "default"])
            return route.succeeded && route.output.contains("default")
        case .joining:
            let addresses = probe.run(["ip", "-4", "-o", "addr", "show", "dev", settings.interface])
            guard addresses.succeeded else { return false }
            return Self.homeAddresses(in: addresses.output).contains { $0 != HotspotSettings.address }
        case .off, .hotspot:
            return false
        }
    }

    /// The IPv4 addresses in `ip -4 -o addr show` output.
    static func homeAddresses(in output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let words = line.split(separator: " ")
            guard let index = words.firstIndex(of: "inet"), index + 1 < words.count else { return nil }
            return words[index + 1].split(separator: "/").first.map(String.init)
        }
    }

    private static let serial = Mutex(())

    private func serialised(_ transition: (inout HotspotMachine, HotspotSettings) -> [HotspotEffect]) {
        do throws(HotspotError) {
            try serialisedThrowing(transition)
        } catch {
            // Checked every two seconds: say a lasting problem once, not thirty times a minute.
            let isNew = state.withLock { memory in
                defer { memory.lastLogged = error.message }
                return memory.lastLogged != error.message
            }
            if isNew { logger.warning("hotspot: \(error.message)") }
            return
        }
        state.withLock { $0.lastLogged = nil }
    }

    private func serialisedThrowing(_ transition: (inout HotspotMachine, HotspotSettings) -> [HotspotEffect])
        throws(HotspotError)
    {
        try Self.serial.withLock { _ throws(HotspotError) in
            let current = try settings()
            var machine = loadMachine()
            let before = machine
            let effects = transition(&machine, current)
            if machine != before {
                try record(machine)
                logger.info("hotspot: \(before.phase.rawValue) -> \(machine.phase.rawValue)")
            }
            try perform(effects, settings: current)
        }
    }

    private func record(_ machine: HotspotMachine, failure: String? = nil) throws(HotspotError) {
        do throws(SetupError) {
            try stateFile.recordHotspot(
                phase: machine.phase.rawValue, deadline: machine.deadline.map { Int($0.timeIntervalSince1970.rounded(.up)) },
                failure: failure)
        } catch {
            throw HotspotError(.stateFailed, error.message)
        }
    }

    private func perform(_ effects: [HotspotEffect], settings current: HotspotSettings) throws(HotspotError) {
        for (index, effect) in effects.enumerated() {
            do throws(HotspotError) {
                switch effect {
                case .perform(let step):
                    try actions.perform(step, settings: current)
                    logger.info("hotspot: step \(step.rawValue) done")
                case .reopenSetup:
                    let reason =
                        "the home network did not connect on \(current.interface) within "
                        + "\(current.joinTimeoutSeconds) s (a failed Wi-Fi join)"
                    do throws(SetupError) {
                        try stateFile.reset(now: clock(), reason: reason)
                    } catch {
                        throw HotspotError(.stateFailed, error.message)
                    }
                    logger.warning("hotspot: \(reason); setup mode is on again, so the apps can send another network")
                }
            } catch {
                let now = clock()
                state.withLock { memory in
                    memory.lastError = error.message
                    memory.pending = Array(effects[index...])
                    memory.failedAt = now
                }
                throw error
            }
        }
        guard !effects.isEmpty else { return }
        state.withLock { memory in
            memory.pending = []
            memory.lastError = nil
        }
    }
}
