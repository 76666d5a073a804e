import Foundation
import SusiModel
import XCTest

@testable import SusiSpeech

/// The open-domain recogniser: query-domain templates filled from entity classes and
/// maintained sources, SUSI.AI's skill examples, and generic English mixed in.
final class OpenDomainTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = try TestAudio.directoryWithSomeSkills("susi-open")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testTemplatesExpandChoicesAndFillEveryEntityOfAClass() throws {
        let language = directory + "/language"
        try write(
            "# comment\nwhat is the weather (|like) in {city} (|today)\nplay {song}\nhello there\n",
            to: language + "/templates/a.txt")
        try write("zorptown\nquux city\n", to: language + "/classes/city.txt")
        try write((1...30).map { "song number \($0)" }.joined(separator: "\n"), to: language + "/classes/song.txt")
        let sources = QuerySentences.Sources(
            isoCodesDirectory: directory + "/none", zoneTable: directory + "/none.tab",
            zoneData: directory + "/none.zi")
        let queries = QuerySentences(directory: language, sources: sources)
        XCTAssertEqual(queries.templates.count, 3, "comments are not templates")
        let sentences = queries.sentences().map { $0.words.joined(separator: " ") }
        XCTAssertTrue(sentences.contains("hello there"))
        XCTAssertTrue(sentences.contains { $0.hasPrefix("what is the weather like in ") }, "(|like) gives both readings")
        XCTAssertTrue(sentences.contains { $0.hasPrefix("what is the weather in ") })
        XCTAssertTrue(sentences.contains { $0.hasPrefix("what is the weather in quux city") })
        for number in 1...30 {
            XCTAssertTrue(
                sentences.contains("play song number \(SpokenNumbers.words(number).joined(separator: " "))"), "song \(number)")
        }
        XCTAssertFalse(sentences.contains { $0.contains("{") }, "no slot is left unfilled")
        XCTAssertEqual(queries.sentences().map(\.words), queries.sentences().map(\.words), "deterministic")
        XCTAssertEqual(QuerySentences.expand("a (b|c d|) e").map { $0.joined(separator: " ") }, ["a b e", "a c d e", "a e"])
    }

    func testEveryEntityOfAClassWhoseLengthIsAMultipleOfSevenIsHeard() throws {
        let language = directory + "/language"
        try write("how many {unit} in a {unit}\nconvert {unit} to {unit}\n", to: language + "/templates/a.txt")
        let units = (1...42).map { "unit \(SpokenNumbers.words($0).joined(separator: " "))" }
        try write(units.joined(separator: "\n"), to: language + "/classes/unit.txt")
        let sources = QuerySentences.Sources(
            isoCodesDirectory: directory + "/none", zoneTable: directory + "/none.tab",
            zoneData: directory + "/none.zi")
        let sentences = QuerySentences(directory: language, sources: sources).sentences().map { $0.words.joined(separator: " ") }
        for unit in units {
            XCTAssertTrue(sentences.contains { ($0 + " ").contains(unit + " ") }, "\(unit) is in no sentence")
        }
        XCTAssertEqual(QuerySentences.stride(through: 42), 11)
        XCTAssertEqual(QuerySentences.stride(through: 30), 7)
    }

    func testZoneDataGivesTheCitiesOfZonesAndLinks() {
        let lines = [
            "Z Europe/Oslo 0:43 - LMT 1895", "L Europe/London Europe/Belfast", "L Etc/GMT GMT", "L America/New_York US/Eastern",
            "L Australia/Sydney Australia/NSW", "L Australia/Darwin Australia/North", "R NZ 1974 o - N Su>=1 2s 1 D",
        ]
        XCTAssertEqual(QuerySentences.zoneDataCities(lines), [["oslo"], ["belfast"]])
    }

    func testEntityClassesComeFromIsoCodesAndTzdata() throws {
        let queries = QuerySentences(directory: TestAudio.modelsDirectory + "/language")
        func has(_ name: String, _ entity: String) -> Bool {
            queries.classes[name]?.contains(entity.split(separator: " ").map(String.init)) ?? false
        }
        guard FileManager.default.fileExists(atPath: "/usr/share/iso-codes/json/iso_3166-1.json") else {
            throw XCTSkip("install iso-codes")
        }
        XCTAssertTrue(has("country", "germany"))
        XCTAssertTrue(has("country", "south korea"), "common names, not 'Korea, Republic of'")
        XCTAssertTrue(has("language", "spanish"), "the name before the semicolon")
        XCTAssertFalse(has("language", "spanish castilian"))
        XCTAssertTrue(has("currency", "euro"))
        XCTAssertTrue(has("city", "sao paulo"), "tzdata's America/Sao_Paulo, accents folded")
        XCTAssertTrue(has("city", "munich"), "and the class file's cities")
        if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/tzdata.zi") {
            XCTAssertTrue(has("city", "oslo"), "tzdata.zi's zones merged away from zone1970.tab")
            XCTAssertTrue(has("city", "kuala lumpur"))
        }
        XCTAssertGreaterThan(queries.classes["country"]?.count ?? 0, 200)
    }

    func testTheTrieModelsUnigramsReadDirectlyAreSphinxbasesOwn() throws {
        let generic = Hearing.genericModelPath
        guard FileManager.default.fileExists(atPath: generic) else { throw XCTSkip("no en-us.lm.bin") }
        let direct = try GenericUnigrams(contentsOf: generic)
        XCTAssertTrue(direct.readDirectly)
        let whole = try SphinxDecoder.unigrams(ofLanguageModel: generic).filter { !$0.key.hasPrefix("<") }
        XCTAssertGreaterThan(whole.count, 50_000)
        XCTAssertEqual(Set(direct.log10Probabilities.keys), Set(whole.keys), "the same words")
        var largest = 0.0
        for (word, probability) in whole {
            largest = max(largest, abs((direct.log10Probabilities[word] ?? 0) - probability))
        }
        // sphinxbase rounds to whole log units (base 1.0001): 4.3e-5 in log10.
        XCTAssertLessThan(largest, 1e-4, "the same probabilities")
        let frequent = direct.frequentWords(limit: 200)
        XCTAssertEqual(frequent.count, 200)
        XCTAssertEqual(frequent.first, whole.max { $0.value < $1.value }?.key)
        let lowest = frequent.compactMap { direct.log10Probabilities[$0] }.min() ?? 0
        XCTAssertLessThanOrEqual(whole.values.filter { $0 > lowest + 1e-4 }.count, 200, "no likelier word left out")

        // Another format (an ARPA text model) is read by sphinxbase.
        let arpa = FileManager.default.temporaryDirectory.appendingPathComponent("susi-unigrams-\(UUID().uuidString).arpa")
        try """
        \\data\\
        ngram 1=4

        \\1-grams:
        -1.0 <s> 0
        -1.0 </s> 0
        -0.5 hello 0
        -0.7 world 0

        \\end\\

        """.write(to: arpa, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: arpa) }
        let text = try GenericUnigrams(contentsOf: arpa.path)
        XCTAssertFalse(text.readDirectly)
        XCTAssertEqual(text.log10Probabilities["hello"] ?? 0, -0.5, accuracy: 1e-3)
        XCTAssertEqual(text.frequentWords(limit: 1), ["hello"])
        XCTAssertNil(text.log10Probabilities["<s>"])
    }

    func testGenericUnigramsSitUnderTheSentencesAndLetOtherWordsBeHeard() throws {
        let generic = Hearing.genericModelPath
        guard FileManager.default.fileExists(atPath: generic) else { throw XCTSkip("no en-us.lm.bin") }
        let all = try GenericUnigrams(contentsOf: generic)
        XCTAssertTrue(all.readDirectly, "en-us.lm.bin is in the trie format")
        let unigrams = ["the", "weather", "house", "zzzqx"].reduce(into: [String: Double]()) {
            $0[$1] = all.log10Probabilities[$1]
        }
        XCTAssertNil(unigrams["zzzqx"], "a word the generic model lacks is left out")
        XCTAssertNotNil(unigrams["weather"])
        let frequent = all.frequentWords(limit: 5)
        XCTAssertTrue(frequent.contains("the"), "\(frequent)")

        let sentences = [(words: ["what", "is", "the", "weather"], weight: 1.0)]
        let background = unigrams.mapValues { pow(10, $0) }
        let model = NGramModel(sentences: sentences, order: 3, background: background)
        XCTAssertTrue(model.vocabulary.contains("house"), "a background word joins the vocabulary")
        let house = try XCTUnwrap(model.logProbability(of: "house", after: ["the"]))
        let weather = try XCTUnwrap(model.logProbability(of: "weather", after: ["is", "the"]))
        XCTAssertLessThan(house, weather, "the sentences' own continuation stays likelier")
        var total = 0.0
        for word in model.vocabulary where word != "<s>" { total += pow(10, model.logProbability(of: word, after: []) ?? -99) }
        XCTAssertEqual(total, 1, accuracy: 1e-3, "unigrams still sum to one")
        let plain = NGramModel(sentences: sentences, order: 3)
        XCTAssertNil(plain.logProbability(of: "house", after: []))
    }

    /// What only the query domain, or only SUSI.AI's examples, know is heard by the second
    /// search in hybrid mode; the first stays the skills'; local mode has no second search.
    func testOpenQuestionsAreHeardByTheSecondSearchInHybridModeOnly() throws {
        let cache = directory + "/cache"
        try SkillExampleCache(fetchedAt: Date(), server: "http://127.0.0.1", examples: ["open the garden gate"])
            .write(to: cache)
        var hybrid = Config()
        hybrid.brain.mode = "hybrid"
        let open = try Hearing.makeRecognizer(
            config: hybrid, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
            cacheDirectory: cache)
        XCTAssertTrue(open.hasSecondSearch)
        for question in ["what is the capital of australia", "open the garden gate"] {
            let first = try open.transcribe(try TestAudio.spoken(question)).text
            XCTAssertNotEqual(first, question, "the skills' search does not know it")
            XCTAssertEqual(try open.decodeAgain().text, question)
        }
        XCTAssertEqual(try open.transcribe(try TestAudio.spoken("what time is it")).text, "what time is it")
        XCTAssertEqual(try open.transcribe(try TestAudio.spoken("what time is it")).text, "what time is it", "back on the skills")

        var local = Config()
        local.brain.mode = "local"
        let skillsOnly = try Hearing.makeRecognizer(
            config: local, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
            cacheDirectory: cache)
        XCTAssertFalse(skillsOnly.hasSecondSearch)
        XCTAssertEqual(skillsOnly.unknownWords(in: "australia"), ["australia"], "local mode hears the skills only")
        XCTAssertThrowsError(try skillsOnly.decodeAgain())
        // Both models stay cached side by side.
        let files = try FileManager.default.contentsOfDirectory(atPath: cache)
        XCTAssertTrue(files.contains { $0.hasPrefix("skills-") } && files.contains { $0.hasPrefix("open-") }, "\(files)")

        // The open decoder has options of its own.
        var settings = Hearing.Settings(config: hybrid)
        settings.openRecognizerOptions["-no_such_option"] = "1"
        XCTAssertThrowsError(
            try Hearing.makeRecognizer(
                config: hybrid, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
                cacheDirectory: cache, settings: settings)
        ) { error in
            XCTAssertEqual((error as? SpeechError)?.code, "stt-init-failed")
        }
        settings.openRecognizerOptions = [:]
        settings.recognizerOptions["-lw"] = "9"
        XCTAssertTrue(
            try Hearing.makeRecognizer(
                config: hybrid, modelsDirectory: TestAudio.modelsDirectory, skillsDirectory: directory + "/skills",
                cacheDirectory: cache, settings: settings
            ).hasSecondSearch, "the skills' options are not the open decoder's")
    }
}
