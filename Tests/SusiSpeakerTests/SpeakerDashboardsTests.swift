import Foundation
import SusiBrain
import SusiModel
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// What the web page lists as "what can I say", from the bundled skills.
final class SpeakerDashboardsTests: XCTestCase {
    func testExamplesAreEveryBundledExampleOnceWithItsSkill() throws {
        let brain = try Assembly.brain(environment: ["SUSI_MODELS": repositoryRoot + "/models"], logger: .silent)
        let examples = SpeakerDashboards.examples(of: brain)
        let distinct = Set(
            brain.skills.flatMap { skill in skill.intents.flatMap { $0.examples.map { $0.query.lowercased() } } })
        XCTAssertEqual(examples.count, distinct.count)
        XCTAssertGreaterThan(examples.count, 50)
        let timerText = try String(contentsOfFile: repositoryRoot + "/models/skills/timer.txt", encoding: .utf8)
        let firstTimerExample = try XCTUnwrap(
            timerText.split(separator: "\n").first { $0.hasPrefix("!example:") }?.dropFirst("!example:".count))
        XCTAssertTrue(
            examples.contains(
                ExampleRequest(skill: "Timer", query: String(firstTimerExample).trimmingCharacters(in: .whitespaces))),
            "\(firstTimerExample)")
    }

    func testTheStandaloneDashboardReadsTheFilesBesideTheConfig() throws {
        let directory = NSTemporaryDirectory() + "susi-dashboards-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ConfigStore(path: directory + "/config.json")
        try store.save(Config())
        try PlannedAnswers(path: directory + "/timers.json").add("stretch", inMilliseconds: 600_000)
        let dashboard = SpeakerDashboards.standalone(
            store: store, environment: ["SUSI_MODELS": repositoryRoot + "/models"], logger: .silent)
        XCTAssertEqual(dashboard.timers?.pending.map(\.text), ["stretch"])
        XCTAssertEqual(store.state.history, directory + "/history.json")
        XCTAssertFalse(dashboard.examples().isEmpty)
        XCTAssertNil(dashboard.events, "no pipeline, no live view")
    }
}
