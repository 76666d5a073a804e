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

    /// The recogniser also holds a search of the home's commands alone, which hears the
    /// command just finished again; none without a home.
    func testTheHomesCommandsAloneHearTheCommandAgain() throws {
        var config = Config()
        config.brain.mode = "local"
        let audio = try TestAudio.spoken("switch off the greenhouse sprinkler")
        let plain = try recognizer(config)
        _ = try plain.transcribe(audio)
        XCTAssertNil(try plain.decodeAgain(withSideSearch: Hearing.homeCommandsSearch), "no home, no search")

        try HomeDirectory(
            entities: [
                HomeEntity(id: "switch.greenhouse_sprinkler", name: "Greenhouse Sprinkler"),
                HomeEntity(id: "light.porch", name: "Porch Light"),
            ], areas: [], server: "http://homeassistant.local:8123"
        ).write(to: directory + "/cache")
        config.homeAssistant.url = "http://homeassistant.local:8123"
        let home = try recognizer(config)
        XCTAssertEqual(try home.decodeAgain(withSideSearch: Hearing.homeCommandsSearch)?.text, "", "nothing heard yet")
        _ = try home.transcribe(audio)
        XCTAssertEqual(
            try home.decodeAgain(withSideSearch: Hearing.homeCommandsSearch)?.text, "switch off the greenhouse sprinkler")
        // The main search is as it was: the next command is heard with the skills' model.
        XCTAssertEqual(try home.transcribe(try TestAudio.spoken("turn on the porch light")).text, "turn on the porch light")
    }

    func testTheGrammarHoldsEachCommandOnceInTheRecognisersWords() throws {
        let grammar = try XCTUnwrap(CommandGrammar.jsgf(["Set the lamp to 40 percent", "set the lamp to 40%", "open it!"]))
        XCTAssertTrue(grammar.hasPrefix("#JSGF V1.0;"))
        XCTAssertTrue(grammar.contains("public <command> = open it\n    | set the lamp to forty percent ;"), grammar)
        XCTAssertNil(CommandGrammar.jsgf(["", "!?"]))
    }
}
