import Foundation
import SusiCore
import SusiModel
import XCTest

@testable import SusiSpeech

final class ESpeakEngineTests: XCTestCase {
    private func engine() throws -> ESpeakEngine { try ESpeakEngine.shared() }

    func testFormatIsTheEngineRateMono() throws {
        XCTAssertEqual(try engine().format, AudioFormat(sampleRate: 22_050, channels: 1))
    }

    func testAccentsGiveDifferentNonSilentAudio() throws {
        let american = try engine().synthesizeAll("hello there", voice: VoiceSettings(name: "en-us"))
        let scottish = try engine().synthesizeAll("hello there", voice: VoiceSettings(name: "en-gb-scotland"))
        XCTAssertEqual(american.format.sampleRate, 22_050)
        XCTAssertGreaterThan(american.milliseconds, 300)
        XCTAssertGreaterThan(scottish.milliseconds, 300)
        XCTAssertGreaterThan(TestAudio.rms(american.samples), 300, "speech, not silence")
        XCTAssertGreaterThan(TestAudio.rms(scottish.samples), 300)
        XCTAssertNotEqual(american.samples, scottish.samples)
    }

    func testVariantPitchAndRateChangeTheOutput() throws {
        let plain = try engine().synthesizeAll("hello there", voice: VoiceSettings())
        let female = try engine().synthesizeAll("hello there", voice: VoiceSettings(variant: "f3"))
        XCTAssertNotEqual(plain.samples, female.samples)
        XCTAssertEqual(
            try engine().espeakVoiceName(for: VoiceSettings(name: "en-us+f3")),
            try engine().espeakVoiceName(for: VoiceSettings(variant: "f3")), "en-us+f3 is the same as variant f3")

        let low = try engine().synthesizeAll("hello there", voice: VoiceSettings(pitch: 10))
        let high = try engine().synthesizeAll("hello there", voice: VoiceSettings(pitch: 90))
        XCTAssertNotEqual(low.samples, high.samples)

        let sentence = "the quick brown fox jumps over the lazy dog"
        let slow = try engine().synthesizeAll(sentence, voice: VoiceSettings(rate: 120))
        let fast = try engine().synthesizeAll(sentence, voice: VoiceSettings(rate: 300))
        XCTAssertGreaterThan(Double(slow.milliseconds), 1.6 * Double(fast.milliseconds))
    }

    func testVolumeScalesTheAmplitude() throws {
        let quiet = try engine().synthesizeAll("hello there", voice: VoiceSettings(volume: 30))
        let loud = try engine().synthesizeAll("hello there", voice: VoiceSettings(volume: 150))
        XCTAssertGreaterThan(TestAudio.rms(loud.samples), 2 * TestAudio.rms(quiet.samples))
    }

    func testUnknownVoiceAndVariantFailWithTheirName() throws {
        // eSpeak NG itself accepts any name and falls back to a default voice, and it ships a
        // real Klingon voice, so "klingon" is valid here: the unknown names are made up.
        XCTAssertNoThrow(try engine().espeakVoiceName(for: VoiceSettings(name: "klingon")))
        do {
            _ = try engine().synthesizeAll("hello", voice: VoiceSettings(name: "vulcan-standard"))
            XCTFail("an unknown voice must fail")
        } catch let error as SynthesisError {
            XCTAssertEqual(error.code, "tts-unknown-voice")
            XCTAssertEqual(error.stage, .tts)
            XCTAssertTrue(error.message.contains("vulcan-standard"), error.message)
        }
        do {
            _ = try engine().synthesizeAll("hello", voice: VoiceSettings(variant: "nosuchvariant"))
            XCTFail("an unknown variant must fail")
        } catch let error as SynthesisError {
            XCTAssertEqual(error.code, "tts-unknown-voice")
            XCTAssertTrue(error.message.contains("nosuchvariant"), error.message)
        }
    }

    func testOutOfRangeSettingsAreRejected() throws {
        for settings in [VoiceSettings(rate: 20), VoiceSettings(pitch: 120), VoiceSettings(volume: -1)] {
            XCTAssertThrowsError(try engine().synthesizeAll("hello", voice: settings)) { error in
                XCTAssertEqual((error as? SynthesisError)?.code, "tts-invalid-setting")
            }
        }
    }

    func testListingHasTheEnglishAccentsAndVariants() throws {
        let catalog = try engine().catalog
        let ids = Set(catalog.voices.map(\.identifier))
        for id in ["en-us", "en-gb", "en-gb-scotland", "en-029", "en-gb-x-rp", "en-us-nyc", "en-gb-x-gbcwmd", "en-gb-x-gbclan"] {
            XCTAssertTrue(ids.contains(id), "\(id) listed")
        }
        let scottish = try XCTUnwrap(catalog.voices.first { $0.identifier == "en-gb-scotland" })
        XCTAssertEqual(scottish.name, "English (Scotland)")
        XCTAssertEqual(scottish.file, "gmw/en-GB-scotland")
        XCTAssertEqual(scottish.gender, .male)
        XCTAssertTrue(scottish.languages.contains { $0.code == "en" })
        let variants = Set(catalog.variants.map(\.identifier))
        XCTAssertTrue(variants.isSuperset(of: ["f3", "m2", "klatt"]), "variants: \(variants.sorted())")
        XCTAssertFalse(catalog.voices.contains { $0.file.hasPrefix("!v/") }, "variants are not voices")
    }

    func testFriendlyAndListedNamesResolve() throws {
        let catalog = try engine().catalog
        let expected = [
            "american": "en-us", "British": "en-gb", "scottish": "en-gb-scotland", "Caribbean": "en-029",
            "received pronunciation": "en-gb-x-rp", "New York": "en-us-nyc", "west midlands": "en-gb-x-gbcwmd",
            "lancastrian": "en-gb-x-gbclan", "Lancaster": "en-gb-x-gbclan", "EN-US": "en-us",
            "English_(Scotland)": "en-gb-scotland", "English (America)": "en-us", "gmw/en-GB-x-rp": "en-gb-x-rp",
            "en-029": "en-029",
        ]
        for (name, id) in expected {
            XCTAssertEqual(catalog.resolve(name)?.identifier, id, name)
        }
        XCTAssertEqual(catalog.resolve("en-us")?.file, "gmw/en-US", "the eSpeak voice, not an MBROLA one")
        XCTAssertNil(catalog.resolve("martian"))
        XCTAssertNil(catalog.resolve(""))
        XCTAssertEqual(catalog.resolveVariant("ANDY")?.identifier, "Andy", "the file's own spelling")
        XCTAssertEqual(
            try engine().espeakVoiceName(for: VoiceSettings(name: "scottish", variant: "F3")), "gmw/en-GB-scotland+f3")
    }

    func testChunksArriveWhileSynthesisRuns() throws {
        let text = "This sentence is long enough that eSpeak has to deliver it in many separate pieces of audio."
        var log: [String] = []
        var delivered = 0
        let end = try engine().synthesize(text, voice: VoiceSettings()) { chunk in
            log.append("chunk")
            delivered += chunk.samples.count
            XCTAssertEqual(chunk.format, AudioFormat(sampleRate: 22_050, channels: 1))
            return true
        }
        log.append("returned")
        XCTAssertEqual(end, .finished)
        XCTAssertGreaterThan(log.count, 10, "many chunks, not one buffer at the end")
        XCTAssertEqual(log.first, "chunk")
        XCTAssertEqual(log.last, "returned")

        // Stopping in the first callback ends synthesis: the first chunk was produced before
        // the rest of the sentence had been synthesized.
        var stoppedLog: [Int] = []
        let stopped = try engine().synthesize(text, voice: VoiceSettings()) { chunk in
            stoppedLog.append(chunk.samples.count)
            return false
        }
        XCTAssertEqual(stopped, .stopped)
        XCTAssertEqual(stoppedLog.count, 1)
        XCTAssertLessThan(stoppedLog.reduce(0, +) * 10, delivered)

        // The engine is usable again after a stop.
        let again = try engine().synthesizeAll("hello", voice: VoiceSettings())
        XCTAssertGreaterThan(again.milliseconds, 200)
    }

    func testStreamYieldsChunksAndStopsWhenCancelled() async throws {
        let engine = try engine()
        var count = 0
        var samples = 0
        for try await chunk in engine.stream("hello there, how are you today", voice: VoiceSettings()) {
            count += 1
            samples += chunk.samples.count
        }
        XCTAssertGreaterThan(count, 3)
        let full = try engine.synthesizeAll("hello there, how are you today", voice: VoiceSettings())
        // eSpeak NG's output length varies by a few samples between runs.
        XCTAssertEqual(Double(samples), Double(full.samples.count), accuracy: 0.05 * Double(full.samples.count))

        var early = 0
        for try await _ in engine.stream("a long sentence that will be interrupted very early on", voice: VoiceSettings()) {
            early += 1
            break
        }
        XCTAssertEqual(early, 1)
        // The stopped synthesis releases the engine.
        XCTAssertGreaterThan(try engine.synthesizeAll("hi", voice: VoiceSettings()).milliseconds, 100)
    }

    func testStreamReportsUnknownVoice() async throws {
        do {
            for try await _ in try engine().stream("hello", voice: VoiceSettings(name: "vulcan")) {}
            XCTFail("expected an error")
        } catch let error as SynthesisError {
            XCTAssertEqual(error.code, "tts-unknown-voice")
        }
    }
}
