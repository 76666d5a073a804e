import Foundation
import XCTest

@testable import SusiCore
@testable import SusiModel
@testable import SusiPipeline

/// The Wyoming event codec: what `encoded()` writes reads back the same, in pieces of any
/// size; malformed and oversized input is an error with a stable code, never a crash or an
/// unbounded buffer.
final class WyomingDecoderTests: XCTestCase {
    private func decode(_ bytes: [UInt8], limits: WyomingDecoder.Limits = .satellite, pieceSize: Int? = nil) throws
        -> [WyomingEvent]
    {
        var decoder = WyomingDecoder(limits: limits)
        var events: [WyomingEvent] = []
        let size = max(1, pieceSize ?? bytes.count)
        for start in stride(from: 0, to: bytes.count, by: size) {
            decoder.append(bytes[start..<min(start + size, bytes.count)])
            while let event = try decoder.next() { events.append(event) }
        }
        return events
    }

    private func code(of bytes: [UInt8], limits: WyomingDecoder.Limits = .satellite) -> String? {
        do {
            _ = try decode(bytes, limits: limits)
            return nil
        } catch {
            return (error as? WyomingError)?.code ?? "\(error)"
        }
    }

    func testEventsRoundTripWhateverPiecesTheyArriveIn() throws {
        let chunk = AudioChunk(format: .speech, samples: [0, 1, -1, 32767, -32768, 1234])
        let events = [
            WyomingEvent(type: "describe"),
            WyomingEvent(type: "run-pipeline", data: ["start_stage": "asr", "end_stage": "tts", "restart_on_end": false]),
            WyomingEvent.audioChunk(chunk, timestamp: 80),
            WyomingEvent(type: "transcript", data: ["text": "wie spät ist es \"jetzt\"\n"]),
        ]
        let bytes = events.flatMap { $0.encoded() }
        for size in [1, 2, 7, 64, bytes.count] {
            XCTAssertEqual(try decode(bytes, pieceSize: size), events, "pieces of \(size) bytes")
        }
        let decoded = try XCTUnwrap(try decode(WyomingEvent.audioChunk(chunk, timestamp: 0).encoded()).first)
        XCTAssertEqual(try decoded.audio(), chunk, "16-bit little-endian samples come back as they were")
    }

    func testTheHeaderNamesItsVersionAndLengthsAsTheReferenceImplementationDoes() throws {
        let event = WyomingEvent(type: "audio-stop", data: ["timestamp": 1200], payload: [1, 2, 3])
        let bytes = event.encoded()
        let newline = try XCTUnwrap(bytes.firstIndex(of: UInt8(ascii: "\n")))
        let header = try JSONValue.parse(Data(bytes[..<newline]))
        XCTAssertEqual(header["type"], "audio-stop")
        XCTAssertEqual(header["version"], .string(WyomingEvent.protocolVersion))
        XCTAssertEqual(header["data_length"]?.intValue, #"{"timestamp":1200}"#.utf8.count)
        XCTAssertEqual(header["payload_length"]?.intValue, 3)
        XCTAssertEqual(Array(bytes.suffix(3)), [1, 2, 3])
    }

    func testHeaderDataAndExtraDataAreMergedExtraWinning() throws {
        let extra = #"{"rate": 22050, "text": "extra"}"#
        let line =
            #"{"type": "audio-start", "data": {"rate": 16000, "width": 2, "channels": 1}, "data_length": \#(extra.utf8.count)}"#
        let event = try XCTUnwrap(try decode(Array((line + "\n" + extra).utf8)).first)
        XCTAssertEqual(event.data, ["rate": 22050, "width": 2, "channels": 1, "text": "extra"])
        XCTAssertEqual(event.audioShape, WyomingEvent.AudioShape(rate: 22050, width: 2, channels: 1))
    }

    func testAnEventWaitsForItsWholePayload() throws {
        var decoder = WyomingDecoder()
        decoder.append(Array(#"{"type": "audio-chunk", "payload_length": 4}"#.utf8) + [UInt8(ascii: "\n"), 1, 2])
        XCTAssertNil(try decoder.next(), "two of four payload bytes")
        decoder.append([3, 4] + Array("{\"type\": \"ping\"}\n".utf8))
        XCTAssertEqual(try decoder.next()?.payload, [1, 2, 3, 4])
        XCTAssertEqual(try decoder.next()?.type, "ping")
        XCTAssertNil(try decoder.next())
        XCTAssertEqual(decoder.pendingBytes, 0)
    }

    func testUnknownTypesAreReturnedForTheCallerToIgnore() throws {
        let events = try decode(Array("{\"type\": \"no-such-event\", \"data\": {\"x\": [1, {}]}}\n".utf8))
        XCTAssertEqual(events.map(\.type), ["no-such-event"])
    }

    func testMalformedHeadersAreBadEvents() {
        let bad = [
            "{not json", "[1, 2]", "\"describe\"", "{}", #"{"type": 3}"#, #"{"type": ""}"#, #"{"type": "x", "data": [1]}"#,
            #"{"type": "x", "data_length": -1}"#, #"{"type": "x", "payload_length": 2.5}"#,
            #"{"type": "x", "payload_length": "12"}"#, #"{"type": "x", "payload_length": 1e300}"#, "\u{FF}\u{FE}",
        ]
        for line in bad {
            XCTAssertEqual(code(of: Array((line + "\n").utf8)), "satellite-bad-event", line)
        }
        XCTAssertEqual(
            code(of: Array("{\"type\": \"x\", \"data_length\": 3}\n[1]".utf8)), "satellite-bad-event", "extra data not an object")
        XCTAssertEqual(code(of: [0xFF, 0xFE, 0x0A]), "satellite-bad-event", "not UTF-8")
    }

    func testHugeLengthsAreRefusedBeforeAnythingIsBuffered() {
        XCTAssertEqual(
            code(of: Array("{\"type\": \"audio-chunk\", \"payload_length\": 1000000000000}\n".utf8)), "satellite-event-too-large")
        XCTAssertEqual(code(of: Array("{\"type\": \"info\", \"data_length\": 2000000}\n".utf8)), "satellite-event-too-large")
        let small = WyomingDecoder.Limits(headerBytes: 100, dataBytes: 10, payloadBytes: 10)
        XCTAssertEqual(
            code(of: Array("{\"type\": \"x\", \"payload_length\": 11}\n".utf8), limits: small), "satellite-event-too-large")
        XCTAssertNil(
            code(of: Array("{\"type\": \"x\", \"payload_length\": 10}\n".utf8) + [UInt8](repeating: 0, count: 10), limits: small))
    }

    func testAHeaderLineWithoutEndIsRefusedAtItsLimit() {
        let small = WyomingDecoder.Limits(headerBytes: 100, dataBytes: 10, payloadBytes: 10)
        var decoder = WyomingDecoder(limits: small)
        decoder.append([UInt8](repeating: UInt8(ascii: " "), count: 100))
        XCTAssertNoThrow(try decoder.next(), "100 bytes may still become a header")
        decoder.append([UInt8(ascii: " ")])
        XCTAssertThrowsError(try decoder.next()) { XCTAssertEqual(($0 as? WyomingError)?.code, "satellite-event-too-large") }
        XCTAssertEqual(
            code(of: Array((String(repeating: " ", count: 101) + "{\"type\": \"x\"}\n").utf8), limits: small),
            "satellite-event-too-large", "a whole line over the limit")
    }

    func testRandomBytesNeverCrashAndNeverPileUpBeyondTheLimits() {
        let limits = WyomingDecoder.Limits(headerBytes: 256, dataBytes: 128, payloadBytes: 512)
        let pieces: [[UInt8]] = [
            Array(#"{"type": "audio-chunk", "data": {"rate": 16000}, "payload_length": 8}"#.utf8), [0x0A],
            Array(#"{"type": "x", "data_length": 2}"#.utf8), Array("{}".utf8), Array(#"{"type""#.utf8),
            Array(#", "payload_length": 100000}"#.utf8), [0, 255, 0x22, 0x5B, 0x7B, 0x7D], Array("[1e999]".utf8),
        ]
        var seed: UInt64 = 53
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        var events = 0
        var errors = 0
        for _ in 0..<2_000 {
            var decoder = WyomingDecoder(limits: limits)
            for _ in 0..<random(12) {
                let piece = random(3) == 0 ? (0..<random(40)).map { _ in UInt8(random(256)) } : pieces[random(pieces.count)]
                decoder.append(piece)
                do {
                    while try decoder.next() != nil { events += 1 }
                } catch {
                    errors += 1
                    break
                }
                XCTAssertLessThanOrEqual(decoder.pendingBytes, 256 + 128 + 512 + 100, "held input is bounded")
            }
        }
        XCTAssertGreaterThan(events, 0, "some fragments make whole events")
        XCTAssertGreaterThan(errors, 0, "and many are refused")
    }

    func testAudioInFormatsTheSpeakerCannotPlayIsRefused() {
        func audio(_ data: [String: JSONValue], payload: [UInt8] = [0, 0]) -> String? {
            do {
                _ = try WyomingEvent(type: "audio-chunk", data: data, payload: payload).audio()
                return nil
            } catch {
                return error.code
            }
        }
        XCTAssertNil(audio(["rate": 22050, "width": 2, "channels": 2], payload: [1, 0, 2, 0]))
        XCTAssertEqual(audio(["rate": 22050, "width": 4, "channels": 1]), "satellite-bad-audio", "32-bit")
        XCTAssertEqual(audio(["rate": 0, "width": 2, "channels": 1]), "satellite-bad-audio")
        XCTAssertEqual(audio(["rate": 1e12, "width": 2, "channels": 1]), "satellite-bad-audio")
        XCTAssertEqual(audio(["rate": 16000, "width": 2, "channels": 0]), "satellite-bad-audio")
        XCTAssertEqual(audio(["rate": "16000", "width": 2, "channels": 1]), "satellite-bad-audio", "a string")
        XCTAssertEqual(audio(["width": 2, "channels": 1]), "satellite-bad-audio", "no rate")
        let odd = WyomingEvent(type: "audio-chunk", data: ["rate": 16000, "width": 2, "channels": 2], payload: [1, 0, 2, 0, 3])
        XCTAssertEqual(try odd.audio().samples, [1, 2], "a partial frame at the end is dropped")
    }
}
