import Foundation
@_exported import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiBrain

/// A fetcher serving fixed bodies by URL, counting calls; anything else fails.
final class InMemoryFetcher: SkillDataFetcher, Sendable {
    private let bodies: [String: String]
    /// The URLs asked for, in order; tests read it after the brain returns.
    private let log = Mutex<[String]>([])

    init(_ bodies: [String: String]) {
        self.bodies = bodies
    }

    var requested: [String] {
        log.withLock { $0 }
    }

    func fetchJSON(url: String) throws(BrainError) -> Data {
        log.withLock { $0.append(url) }
        guard let body = bodies[url] else {
            throw BrainError(.fetchFailed, "no body for \(url)")
        }
        return Data(body.utf8)
    }
}

/// A brain over one in-memory skill text, always picking the first alternative.
func makeBrain(
    _ text: String, id: String = "test", fetcher: any SkillDataFetcher = OfflineSkillDataFetcher()
) -> Brain {
    Brain(texts: [(id, text)], fetcher: fetcher, pick: { _ in 0 })
}
