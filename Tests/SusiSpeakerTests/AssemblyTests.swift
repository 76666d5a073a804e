import Foundation
import SusiBrain
import SusiModel
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// How the pieces are found and built from the config.
final class AssemblyTests: XCTestCase {
    func testModelsDirectoryFromTheEnvironment() throws {
        let models = repositoryRoot + "/models"
        XCTAssertEqual(try Assembly.modelsDirectory(environment: ["SUSI_MODELS": models]), models)
        XCTAssertThrowsError(try Assembly.modelsDirectory(environment: ["SUSI_MODELS": "/nonexistent/models"])) { error in
            XCTAssertEqual((error as? SetupFailure)?.code, "setup-missing")
        }
    }

    func testCacheDirectoryFollowsXDG() {
        XCTAssertEqual(
            Assembly.cacheDirectory(environment: ["XDG_CACHE_HOME": "/tmp/cache", "HOME": "/home/x"]), "/tmp/cache/susi")
        XCTAssertEqual(
            Assembly.cacheDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/x"]), "/home/x/.cache/susi")
    }

    func testVoiceAndBrainContextFollowTheConfig() {
        var config = Config()
        config.tts.voice = "en-gb"
        config.tts.rate = 160
        config.room = "Kitchen"
        config.player.volume = 35
        let voice = Assembly.voice(config)
        XCTAssertEqual(voice.name, "en-gb")
        XCTAssertEqual(voice.rate, 160)
        let context = Assembly.brainContext(config, lastAnswer: "hi")
        XCTAssertEqual(context.room, "Kitchen")
        XCTAssertEqual(context.volume, 35, "the configured volume when no player runs")
        XCTAssertEqual(Assembly.brainContext(config, volume: 80).volume, 80)
        XCTAssertEqual(context.lastAnswer, "hi")
    }

    func testTheBrainLoadsTheBundledSkills() throws {
        let brain = try Assembly.brain(environment: ["SUSI_MODELS": repositoryRoot + "/models"], logger: .silent)
        XCTAssertFalse(brain.skills.isEmpty)
        XCTAssertEqual(brain.skills.count, try Brain(directory: bundledSkillsDirectory).skills.count)
    }
}
