import Foundation
import SusiPlayer

/// Collects a player's events from its event queue and lets a test wait for one.
final class EventRecorder: @unchecked Sendable {
    // `condition` guards `events`; that is what makes the unchecked Sendable safe.
    private let condition = NSCondition()
    private var events: [PlayerEvent] = []

    /// Attaches to `player`, replacing its handler.
    func attach(to player: any MediaPlayer) {
        player.setEventHandler { [weak self] event in self?.record(event) }
    }

    private func record(_ event: PlayerEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    /// Everything received so far.
    var all: [PlayerEvent] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    /// Forgets what was received so far.
    func clear() {
        condition.lock()
        events.removeAll()
        condition.unlock()
    }

    /// The first event matching `predicate`, waiting up to `timeout` seconds for it.
    func wait(timeout: TimeInterval = 5, for predicate: (PlayerEvent) -> Bool) -> PlayerEvent? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = events.first(where: predicate) { return found }
            guard condition.wait(until: deadline) else { return events.first(where: predicate) }
        }
    }

    /// Waits for `event` itself.
    func wait(for event: PlayerEvent, timeout: TimeInterval = 5) -> Bool {
        wait(timeout: timeout) { $0 == event } != nil
    }
}
