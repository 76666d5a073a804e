import Foundation
import SusiCore
@_exported import SusiTestSupport
import XCTest

@testable import SusiBrain

/// A fetcher serving fixed bodies by URL, counting calls; anything else fails.
final class InMemoryFetcher: SkillDataFetcher, @unchecked Sendable {
    // Only touched under `lock`; tests read `requested` after the brain returns.
    private let lock = NSLock()
    private let bodies: [String: String]
    private var log: [String] = []

    init(_ bodies: [String: String]) {
        self.bodies = bodies
    }

    var requested: [String] {
        lock.withLock { log }
    }

    func fetchJSON(url: String) throws(BrainError) -> Data {
        lock.withLock { log.append(url) }
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
