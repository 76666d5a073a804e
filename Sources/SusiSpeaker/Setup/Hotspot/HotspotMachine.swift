import Foundation

/// Where hotspot mode stands; kept in the setup state file (`hotspot`), so a restart resumes.
public enum HotspotPhase: String, Sendable, CaseIterable {
    /// Not managing the network: set up, or setup mode without automatic hotspot.
    case off
    /// Setup mode at start: waiting up to `setup.hotspot.wait_seconds` for a known network.
    case searching
    /// The access point is up at 10.0.0.1; the apps can set the speaker up.
    case hotspot
    /// The access point is closed and the home network is being joined, with a deadline.
    case joining
}

/// What the machine sees at a check.
public struct HotspotObservation: Sendable, Equatable {
    /// Whether the speaker is online: a default route while searching, the Wi-Fi interface
    /// holding an address of the home network while joining.
    public var connected: Bool
    /// Whether setup mode is on (the apps' `/config` turns it off).
    public var setupMode: Bool
    /// Whether the Wi-Fi interface exists (looked at while joining): without it no join was
    /// tried, so none failed.
    public var interfaceExists: Bool

    /// An observation.
    public init(connected: Bool, setupMode: Bool, interfaceExists: Bool = true) {
        self.connected = connected
        self.setupMode = setupMode
        self.interfaceExists = interfaceExists
    }
}

/// What the machine asks its controller to do, in order.
public enum HotspotEffect: Sendable, Equatable {
    /// Perform a root step.
    case perform(HotspotStep)
    /// Turn setup mode back on, so the apps can send another network (the owner is never
    /// locked out when the home network fails). Only ever after a failed Wi-Fi join.
    case reopenSetup
}

/// The hotspot's state machine: pure, driven by events and a clock, tested without a radio.
///
/// - At start in setup mode (with `setup.hotspot.auto`): `searching` until a network is up
///   (`off`) or the wait ends (`hotspot`, step `up`).
/// - `hotspot`: when setup mode ends (the apps' `/config`) or on `stop`: `joining` (steps
///   `down`, `join`) with the join deadline.
/// - `joining`: connected → `off`; deadline passed on an existing interface (a failed Wi-Fi
///   join) → `hotspot` again (setup mode reopened, step `up`, which also stops the join's
///   daemons); deadline passed without the interface → `off` (nothing was joined, so nothing
///   failed: setup mode stays as it is). Nothing else turns setup mode on.
/// - `start` opens the hotspot from any phase.
///
/// The deadline is wall-clock seconds so it survives a restart; a resumed `joining` or
/// `searching` gets a fresh deadline, since the time before the restart told us nothing.
public struct HotspotMachine: Sendable, Equatable {
    /// The phase.
    public private(set) var phase: HotspotPhase
    /// When `searching` or `joining` gives up.
    public private(set) var deadline: Date?

    /// A machine in `phase` (from the state file) with `deadline`.
    public init(phase: HotspotPhase = .off, deadline: Date? = nil) {
        self.phase = phase
        self.deadline = deadline
    }

    /// The process started (or restarted): resume the recorded phase, or begin searching when
    /// setup mode is on and `auto` allows it.
    public mutating func resume(
        setupMode: Bool, auto: Bool, now: Date, waitSeconds: Int, joinTimeoutSeconds: Int
    ) -> [HotspotEffect] {
        switch phase {
        case .hotspot:
            return [.perform(.up)]
        case .joining:
            deadline = now.addingTimeInterval(Double(joinTimeoutSeconds))
            return [.perform(.join)]
        case .searching, .off:
            guard setupMode, auto else {
                (phase, deadline) = (.off, nil)
                return []
            }
            (phase, deadline) = (.searching, now.addingTimeInterval(Double(waitSeconds)))
            return []
        }
    }

    /// A periodic check with what the controller observed.
    public mutating func check(_ seen: HotspotObservation, now: Date, joinTimeoutSeconds: Int) -> [HotspotEffect] {
        switch phase {
        case .off:
            return []
        case .searching:
            if seen.connected || !seen.setupMode {
                (phase, deadline) = (.off, nil)
                return []
            }
            guard let deadline, now >= deadline else { return [] }
            (phase, self.deadline) = (.hotspot, nil)
            return [.perform(.up)]
        case .hotspot:
            guard !seen.setupMode else { return [] }
            return leave(now: now, joinTimeoutSeconds: joinTimeoutSeconds)
        case .joining:
            if seen.connected {
                (phase, deadline) = (.off, nil)
                return []
            }
            guard let deadline, now >= deadline else { return [] }
            guard seen.interfaceExists else {
                (phase, self.deadline) = (.off, nil)
                return []
            }
            (phase, self.deadline) = (.hotspot, nil)
            // Setup mode first: should the access point fail to come up, the routes are open
            // on whatever network the speaker can still reach.
            return (seen.setupMode ? [] : [.reopenSetup]) + [.perform(.up)]
        }
    }

    /// `susi setup hotspot start`: open the hotspot whatever the phase (again when it is up,
    /// which repairs a hotspot whose daemons died).
    public mutating func start() -> [HotspotEffect] {
        (phase, deadline) = (.hotspot, nil)
        return [.perform(.up)]
    }

    /// `susi setup hotspot stop`: leave the hotspot for the home network (with the deadline
    /// that brings it back on failure); stop searching; nothing otherwise.
    public mutating func stop(now: Date, joinTimeoutSeconds: Int) -> [HotspotEffect] {
        switch phase {
        case .hotspot: return leave(now: now, joinTimeoutSeconds: joinTimeoutSeconds)
        case .searching:
            (phase, deadline) = (.off, nil)
            return []
        case .joining, .off: return []
        }
    }

    private mutating func leave(now: Date, joinTimeoutSeconds: Int) -> [HotspotEffect] {
        (phase, deadline) = (.joining, now.addingTimeInterval(Double(joinTimeoutSeconds)))
        return [.perform(.down), .perform(.join)]
    }
}
