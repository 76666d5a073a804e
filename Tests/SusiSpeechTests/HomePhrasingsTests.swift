import Foundation
import SusiModel
import XCTest

@testable import SusiSpeech

/// A Home Assistant's names, as `susi run` caches them, become commands the recogniser hears.
final class HomePhrasingsTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try TestAudio.directoryWithSomeSkills("susi-home-phrasings")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func recognizer(_ config: Config) throws -> SphinxRecognizer {
        try Hearing.makeRecognizer(
            config: config, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
            cacheDirectory: directory + "/cache")
    }

    func testTheHomesNamesBecomeRecognisableCommands() throws {
        var config = Config()
        config.brain.mode = "local"
        let phrase = "turn on the greenhouse sprinkler"
        let audio = try TestAudio.spoken(phrase)
        XCTAssertEqual(Hearing.homeIntents(config: config, cacheDirectory: directory + "/cache"), [], "no Home Assistant")
        let before = try recognizer(config).transcribe(audio).text
        XCTAssertFalse(before.contains("sprinkler"), before)

        let names = HomeDirectory(
            entities: [HomeEntity(id: "switch.greenhouse_sprinkler", name: "Greenhouse Sprinkler")], areas: [],
            server: "http://homeassistant.local:8123")
        try names.write(to: directory + "/cache")
        XCTAssertEqual(
            Hearing.homeIntents(config: config, cacheDirectory: directory + "/cache"), [],
            "names of a Home Assistant the config does not name are not used")
        config.homeAssistant.url = "http://homeassistant.local:8123/"
        let intents = Hearing.homeIntents(config: config, cacheDirectory: directory + "/cache")
        XCTAssertTrue(intents.first?.examples.contains(phrase) == true)
        let after = try recognizer(config).transcribe(audio).text
        XCTAssertEqual(after, phrase)
    }
}
