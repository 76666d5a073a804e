import SusiModel
import XCTest

@testable import SusiPlayer

/// The player's state machine on mpv's lines alone, without mpv: which events reach the handler.
final class MPVPlaybackTests: XCTestCase {
    private func event(_ name: String, _ fields: [String: JSONValue] = [:]) -> MPVConnection.Event {
        var all = fields
        all["event"] = .string(name)
        return MPVConnection.Event(name: name, fields: all)
    }

    private func property(_ name: String, _ value: Bool) -> MPVConnection.Event {
        event("property-change", ["name": .string(name), "data": .bool(value)])
    }

    func testPauseIsReportedOncePerChange() {
        var playback = MPVPlayback()
        XCTAssertEqual(playback.apply(property("pause", true)), [.paused])
        XCTAssertEqual(playback.apply(property("pause", true)), [], "a repeated report is no new event")
        XCTAssertTrue(playback.paused)
        XCTAssertEqual(playback.apply(property("pause", false)), [.resumed])
        XCTAssertFalse(playback.paused)
    }

    func testIdleIsReportedOnceAfterPlaying() {
        var playback = MPVPlayback()
        XCTAssertEqual(playback.apply(property("idle-active", true)), [], "it starts idle")
        XCTAssertEqual(playback.apply(event("start-file")), [])
        XCTAssertFalse(playback.idle)
        XCTAssertEqual(playback.apply(event("file-loaded")), [.fileLoaded])
        XCTAssertEqual(playback.apply(event("end-file", ["reason": "eof"])), [.endOfFile(reason: .eof)])
        XCTAssertEqual(playback.apply(property("idle-active", true)), [.idle])
        // mpv's own idle event after the property change says nothing new.
        XCTAssertEqual(playback.apply(event("idle")), [])
        XCTAssertTrue(playback.idle)
    }

    func testALoadFailureNamesWhatWasAskedFor() {
        var playback = MPVPlayback()
        playback.entries[3] = "https://example.org/gone.mp3"
        let events = playback.apply(
            event("end-file", ["reason": "error", "playlist_entry_id": 3, "file_error": "loading failed"]))
        XCTAssertEqual(events.first, .endOfFile(reason: .error))
        guard case .failed(let error)? = events.last, events.count == 2 else {
            return XCTFail("expected end-of-file and a failure, got \(events)")
        }
        XCTAssertEqual(error.code, "player-load-failed")
        XCTAssertTrue(error.message.contains("https://example.org/gone.mp3"), error.message)
        XCTAssertTrue(error.message.contains("loading failed"), error.message)
    }

    func testUnknownLinesChangeNothing() {
        var playback = MPVPlayback()
        XCTAssertEqual(playback.apply(event("audio-reconfig")), [])
        XCTAssertEqual(playback.apply(property("volume", true)), [])
        XCTAssertEqual(playback.apply(event("property-change", ["name": "pause", "data": .null])), [])
        XCTAssertFalse(playback.paused)
        XCTAssertTrue(playback.idle)
    }
}
