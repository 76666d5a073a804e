import Foundation
import XCTest

@testable import SusiBrain

/// The skills shipped in models/skills: they load cleanly and every example passes.
final class BundledSkillsTests: XCTestCase {
    private func loadBundled() throws -> Brain {
        try Brain(
            directory: bundledSkillsDirectory, fetcher: OfflineSkillDataFetcher(), pick: { _ in 0 })
    }

    func testBundledSkillsLoadWithoutDiagnostics() throws {
        let brain = try loadBundled()
        XCTAssertEqual(
            brain.diagnostics, [], brain.diagnostics.map(\.description).joined(separator: "\n"))
        XCTAssertGreaterThanOrEqual(brain.skills.count, 10)
        for skill in brain.skills {
            XCTAssertFalse(skill.description.isEmpty, "\(skill.id) has no ::description")
            for intent in skill.intents {
                XCTAssertFalse(intent.examples.isEmpty, "\(skill.id):\(intent.line) has no !example")
                for example in intent.examples {
                    XCTAssertNotNil(example.expect, "\(skill.id):\(example.line) has no !expect")
                }
            }
        }
    }

    func testEveryBundledExamplePasses() throws {
        let brain = try loadBundled()
        let results = brain.runExamples()
        XCTAssertGreaterThanOrEqual(results.count, 60)
        let failures = results.filter { !$0.passed }
        XCTAssertEqual(
            failures.count, 0,
            failures.map {
                "\($0.skill):\($0.line) \"\($0.query)\": \($0.problem ?? "") -> \($0.answer)"
            }.joined(separator: "\n"))
    }
}
