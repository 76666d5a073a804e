import Foundation
import XCTest

@testable import SusiBrain

/// Device answers follow the speaker's own settings, as the context carries them.
final class DeviceContextTests: XCTestCase {
    private func volume(after query: String, current: Int, step: Int) throws -> Int? {
        let brain = try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 })
        let reply = try brain.answer(query, context: BrainContext(volume: current, volumeStep: step))
        for action in reply.actions {
            if case .audioVolume(let volume) = action { return volume.volume }
        }
        return nil
    }

    func testVolumeUpAndDownUseTheConfiguredStep() throws {
        XCTAssertEqual(try volume(after: "volume up", current: 50, step: 25), 75)
        XCTAssertEqual(try volume(after: "turn it down", current: 50, step: 5), 45)
        XCTAssertEqual(try volume(after: "louder", current: 95, step: 10), 100, "clamped")
        XCTAssertEqual(try volume(after: "turn the volume up by 20", current: 30, step: 5), 50, "an explicit amount wins")
    }
}
