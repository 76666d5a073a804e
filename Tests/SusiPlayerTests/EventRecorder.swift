import Foundation
import SusiPlayer
import Synchronization

/// Collects a player's events from its event queue and lets a test wait for one.
final class EventRecorder: Sendable {
    private let events = Mutex<[PlayerEvent]>([])

    /// Attaches to `player`, replacing its handler.
    func attach(to player: any MediaPlayer) {
        player.setEventHandler { [weak self] event in self?.record(event) }
    }

    private func record(_ event: PlayerEvent) {
        events.withLock { $0.append(event) }
    }

    /// Everything received so far.
    var all: [PlayerEvent] {
        events.withLock { $0 }
    }

    /// Forgets what was received so far.
    func clear() {
        events.withLock { $0.removeAll() }
    }

    /// The first event matching `predicate`, waiting up to `timeout` seconds for it (checked
    /// every 10 ms).
    func wait(timeout: TimeInterval = 5, for predicate: (PlayerEvent) -> Bool) -> PlayerEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let found = all.first(where: predicate) { return found }
            guard Date() < deadline else { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits for `event` itself.
    func wait(for event: PlayerEvent, timeout: TimeInterval = 5) -> Bool {
        wait(timeout: timeout) { $0 == event } != nil
    }
}
