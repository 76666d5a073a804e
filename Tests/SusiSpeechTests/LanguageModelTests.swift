import Foundation
import XCTest

@testable import SusiSpeech

/// The n-gram estimator, the sentence expansion and the pronunciations, without audio.
final class LanguageModelTests: XCTestCase {
    func testEveryHistoryDistributionSumsToOne() {
        let sentences: [(words: [String], weight: Double)] = [
            (["what", "time", "is", "it"], 3), (["what", "is", "the", "date"], 1), (["tell", "me", "a", "joke"], 1),
            (["what", "is", "five", "plus", "three"], 2), (["is", "it", "late"], 1),
        ]
        let model = NGramModel(sentences: sentences, order: 3)
        let predictable = model.vocabulary.filter { $0 != "<s>" }
        for history in [["<s>"], ["what"], ["what", "is"], ["is", "it"], ["joke"], ["plus", "three"], ["three", "what"]] {
            let total = predictable.reduce(0.0) { sum, word in
                sum + pow(10, model.logProbability(of: word, after: history) ?? -99)
            }
            XCTAssertEqual(total, 1, accuracy: 1e-4, "P(. | \(history))")
        }
        XCTAssertGreaterThan(
            model.logProbability(of: "time", after: ["<s>", "what"]) ?? -99,
            model.logProbability(of: "joke", after: ["<s>", "what"]) ?? 0, "seen trigram beats back-off")
        XCTAssertNil(model.logProbability(of: "banana", after: []))
    }

    func testABackgroundMixedIntoEveryHistoryKeepsEachDistributionWhole() {
        let sentences: [(words: [String], weight: Double)] = [
            (["what", "is", "the", "weather"], 4), (["what", "is", "the", "time"], 2), (["play", "some", "jazz"], 1),
        ]
        let background = ["the": 0.5, "house": 0.3, "river": 0.2]
        let unmixed = NGramModel(sentences: sentences, order: 3, background: background)
        let mixed = NGramModel(sentences: sentences, order: 3, background: background, backgroundWeight: 0.25)
        let predictable = mixed.vocabulary.filter { $0 != "<s>" }
        for history in [["<s>"], ["what"], ["what", "is"], ["is", "the"], ["some", "jazz"], ["river", "house"]] {
            let total = predictable.reduce(0.0) { sum, word in
                sum + pow(10, mixed.logProbability(of: word, after: history) ?? -99)
            }
            XCTAssertEqual(total, 1, accuracy: 1e-4, "P(. | \(history))")
        }
        // After "is the" the sentences know only "weather" and "time"; "river" reaches it by
        // back-off, now with the mixed-in share of every order below.
        let river = pow(10, mixed.logProbability(of: "river", after: ["is", "the"]) ?? -99)
        let riverBefore = pow(10, unmixed.logProbability(of: "river", after: ["is", "the"]) ?? -99)
        XCTAssertGreaterThan(river, 0.02)
        XCTAssertGreaterThan(river, 4 * riverBefore)
        XCTAssertEqual(
            pow(10, mixed.logProbability(of: "the", after: ["what", "is"]) ?? -99),
            0.75 * pow(10, unmixed.logProbability(of: "the", after: ["what", "is"]) ?? -99) + 0.25 * 0.5, accuracy: 1e-4,
            "a listed n-gram takes the mix exactly")
        XCTAssertGreaterThan(
            mixed.logProbability(of: "weather", after: ["is", "the"]) ?? -99,
            mixed.logProbability(of: "river", after: ["is", "the"]) ?? 0, "what the sentences say still leads")
        XCTAssertEqual(unmixed.arpa, NGramModel(sentences: sentences, order: 3, background: background, backgroundWeight: 0).arpa)
    }

    func testARPATextListsEveryOrderWithBackoffs() {
        let model = NGramModel(sentences: [(["play", "some", "jazz"], 1), (["play", "rock"], 1)], order: 3)
        let arpa = model.arpa
        XCTAssertTrue(arpa.hasPrefix("\\data\\\nngram 1=6\n"), arpa)
        XCTAssertTrue(arpa.contains("\\3-grams:"))
        XCTAssertTrue(arpa.hasSuffix("\\end\\\n"))
        let playLine = arpa.split(separator: "\n").first { $0.hasSuffix("\tplay") || $0.contains("\tplay\t") }
        XCTAssertEqual(playLine?.split(separator: "\t").count, 3, "a history carries a back-off weight")
        XCTAssertEqual(model.counts, [6, 6, 5])
    }

    func testWildcardsAreFilledFromExamplesAndTheirKind() {
        let skill = """
            ::name Test
            tell me about *|* what is *
            Sure.
            !example:tell me about the moon

            set a timer for *
            !console:Okay.
            {"actions":[]}
            eol
            !example:set a timer for 90 seconds
            """
        let phrasings = SkillPhrasings(intents: SkillPhrasings.parse(skill, skill: "test"), contentHash: "")
        XCTAssertEqual(phrasings.intents.count, 2)
        XCTAssertEqual(phrasings.intents[1].patterns, ["set a timer for *"])
        let sentences = SkillSentences.sentences(from: phrasings).map { $0.words.joined(separator: " ") }
        XCTAssertTrue(sentences.contains("tell me about the moon"))
        XCTAssertTrue(sentences.contains("set a timer for ninety seconds"), "digits are spelled out")
        XCTAssertTrue(sentences.contains("set a timer for five minutes"), "durations fill a timer's wildcard")
        XCTAssertTrue(sentences.contains { $0.hasPrefix("can you what is") }, "a leading wildcard gets carriers")
        XCTAssertFalse(sentences.contains { $0.contains("*") || $0.contains("{") })
    }

    /// Issue 53: the alarm, reminder and list skills teach clock times, errands and list names,
    /// and durations only where one goes ("wake me up in *").
    func testAlarmsRemindersAndListsAreFilledWithTheirKinds() throws {
        var intents: [SkillPhrasings.Intent] = []
        for name in ["alarms", "reminders", "lists"] {
            let text = try String(contentsOfFile: TestAudio.modelsDirectory + "/skills/\(name).txt", encoding: .utf8)
            intents += SkillPhrasings.parse(text, skill: name)
        }
        let sentences = Set(
            SkillSentences.sentences(from: SkillPhrasings(intents: intents, contentHash: "")).map {
                $0.words.joined(separator: " ")
            })
        XCTAssertTrue(sentences.contains("set an alarm for half past six"), "clock times after an alarm")
        XCTAssertTrue(sentences.contains("wake me up in two minutes"), "durations after in")
        XCTAssertFalse(sentences.contains("set an alarm for two minutes"), "no duration where a clock time goes")
        XCTAssertTrue(sentences.contains { $0.hasPrefix("add bread to my ") && $0.hasSuffix(" list") }, "errands")
        XCTAssertTrue(sentences.contains("what's on my grocery list"), "list names before list")
        XCTAssertTrue(sentences.contains { $0.hasPrefix("remind me to walk the dog in ") }, "errands in reminders")
    }

    /// Issue 49: skill files with CRLF line endings (120 of susi_skill_data's 328 English
    /// ones) give their phrasings as LF files do, so "roll a die" can be said.
    func testCRLFSkillFilesGiveTheirPhrasings() {
        let skill = "::name Dice\n\nroll a die|throw a dice\nYou rolled a $1$.\n!example:roll a die\n\nflip a coin\nHeads.\n"
        let lf = SkillPhrasings.parse(skill, skill: "dice")
        let crlf = SkillPhrasings.parse(skill.replacingOccurrences(of: "\n", with: "\r\n"), skill: "dice")
        XCTAssertEqual(lf.map(\.patterns), [["roll a die", "throw a dice"], ["flip a coin"]])
        XCTAssertEqual(crlf.map(\.patterns), lf.map(\.patterns))
        XCTAssertEqual(crlf.map(\.examples), lf.map(\.examples))
        let sentences = SkillSentences.sentences(from: SkillPhrasings(intents: crlf, contentHash: "")).map(\.words)
        XCTAssertTrue(sentences.contains(["roll", "a", "die"]), "\(sentences)")
    }

    func testSpokenNumbers() {
        XCTAssertEqual(SpokenNumbers.words(105), ["one", "hundred", "and", "five"])
        XCTAssertEqual(SpokenNumbers.words(1020), ["one", "thousand", "and", "twenty"])
        XCTAssertEqual(SpokenNumbers.words(digits: "1.5"), ["one", "point", "five"])
        XCTAssertEqual(SkillSentences.words(of: "What's 7+5, 20%?"), ["what's", "seven", "plus", "five", "twenty", "percent"])
    }

    func testESpeakPhonemesMapToTheCMUPhoneSet() throws {
        let engine = try ESpeakEngine.shared()
        XCTAssertEqual(PhoneMapping.cmuPhones(fromESpeak: try engine.phonemes(of: "susi")), ["S", "UW", "Z", "IY"])
        let made = try XCTUnwrap(PhoneMapping.cmuPhones(fromESpeak: try engine.phonemes(of: "blorvik")))
        XCTAssertEqual(made.first, "B")
        let cmu: Set<String> = [
            "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH", "IH", "IY",
            "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH", "UH", "UW", "V", "W", "Y",
            "Z", "ZH",
        ]
        for value in PhoneMapping.table.values.joined() { XCTAssertTrue(cmu.contains(value), value) }
    }

    func testAWordListIsPhonemizedAsEachWordAlone() throws {
        let engine = try ESpeakEngine.shared()
        let words = ["resume", "blorvik", "new", "whats"]
        for voice in ["en-us", "en-gb"] {
            let alone = try words.map { try engine.phonemes(of: $0, voice: voice) }
            XCTAssertEqual(try engine.phonemes(of: words, voice: voice), alone)
        }
        XCTAssertNotEqual(try engine.phonemes(of: ["new"], voice: "en-us"), try engine.phonemes(of: ["new"], voice: "en-gb"))
        XCTAssertEqual(try engine.phonemes(of: [], voice: "en-gb"), [])
    }

    func testBritishYodIsAddedWhereBritishEnglishSaysIt() throws {
        let engine = try ESpeakEngine.shared()
        func british(_ word: String) throws -> [String] {
            try XCTUnwrap(PhoneMapping.cmuPhones(fromESpeak: try engine.phonemes(of: word, voice: "en-gb")))
        }
        XCTAssertEqual(
            Lexicon.withBritishYod(["R IH Z UW M", "R EH Z AH M EY"], british: try british("resume")),
            ["R IH Z UW M", "R EH Z AH M EY", "R IH Z Y UW M"])
        XCTAssertEqual(Lexicon.withBritishYod(["N UW"], british: try british("new")), ["N UW", "N Y UW"])
        // Not where British English has no "y" either.
        XCTAssertEqual(Lexicon.withBritishYod(["T UW"], british: try british("too")), ["T UW"])
        XCTAssertEqual(Lexicon.withBritishYod(["S UW N"], british: try british("soon")), ["S UW N"])
    }

    func testLexiconKeepsOnlyTheEntriesItsWordsNeed() throws {
        let lexicon = try Lexicon(cmudictPath: SphinxConfiguration().dictionaryPath, words: ["didnt", "resume"])
        XCTAssertEqual(lexicon.canonical("didnt"), "didn't", "its apostrophe spelling is kept")
        XCTAssertEqual(lexicon.known("resume").first, "R IH Z UW M")
        XCTAssertEqual(lexicon.known("zebra"), [], "cmudict has it, but no word asked for it")
    }
}
