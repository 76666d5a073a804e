import SusiModel
import SusiPlayer
import XCTest

final class MediaLocatorTests: XCTestCase {
    private func location(_ identifier: String, _ type: String) throws -> String {
        try MediaLocator.location(identifier: identifier, type: type)
    }

    private func assertInvalid(_ identifier: String, _ type: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try location(identifier, type), file: file, line: line) { error in
            XCTAssertEqual((error as? PlayerError)?.code, "player-invalid-identifier", file: file, line: line)
        }
    }

    func testYouTubeIDBecomesWatchURL() throws {
        XCTAssertEqual(try location("dQw4w9WgXcQ", "youtube"), "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
        XCTAssertEqual(try location("a-b_c1234XY", ""), "https://www.youtube.com/watch?v=a-b_c1234XY")
        XCTAssertEqual(try location("  dQw4w9WgXcQ\n", "YouTube"), "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    }

    func testYouTubeTypeWithWordsIsSearched() throws {
        XCTAssertEqual(try location("some jazz", "youtube"), "ytdl://ytsearch1:some jazz")
        // Ten characters: not an id.
        XCTAssertEqual(try location("beethoven5", "youtube"), "ytdl://ytsearch1:beethoven5")
    }

    func testSearchTypeAndPlainPhrases() throws {
        XCTAssertEqual(try location("some   jazz  music", "search"), "ytdl://ytsearch1:some jazz music")
        XCTAssertEqual(try location("miles davis", "url"), "ytdl://ytsearch1:miles davis")
        XCTAssertEqual(try location("miles davis", "spotify"), "ytdl://ytsearch1:miles davis")
    }

    func testURLsAndPathsArePlayedAsTheyAre() throws {
        XCTAssertEqual(try location("https://example.org/a.mp3?x=1", "url"), "https://example.org/a.mp3?x=1")
        XCTAssertEqual(try location("http://radio.example/stream", "youtube"), "http://radio.example/stream")
        XCTAssertEqual(try location("file:///music/a.ogg", "url"), "file:///music/a.ogg")
        XCTAssertEqual(try location("/music/a b.ogg", "url"), "/music/a b.ogg")
        XCTAssertEqual(try location("https://youtu.be/dQw4w9WgXcQ", "youtube"), "https://youtu.be/dQw4w9WgXcQ")
        XCTAssertEqual(try location("HTTPS://example.org/x", "search"), "HTTPS://example.org/x")
    }

    func testSoundCloud() throws {
        XCTAssertEqual(try location("artist/track-name", "soundcloud"), "https://soundcloud.com/artist/track-name")
        XCTAssertEqual(try location("/artist/track", "soundcloud"), "https://soundcloud.com/artist/track")
        XCTAssertEqual(try location("soundcloud.com/artist/track", "soundcloud"), "https://soundcloud.com/artist/track")
        XCTAssertEqual(
            try location("https://soundcloud.com/artist/track", "soundcloud"), "https://soundcloud.com/artist/track")
        XCTAssertEqual(try location("café/track", "soundcloud"), "https://soundcloud.com/caf%C3%A9/track")
        XCTAssertEqual(try location("some artist", "soundcloud"), "ytdl://scsearch1:some artist")
    }

    func testRejectedIdentifiers() {
        assertInvalid("", "youtube")
        assertInvalid("   \n", "search")
        assertInvalid("jazz\u{0}music", "search")
        assertInvalid("a\nloadfile /etc/passwd", "search")
        assertInvalid("jazz\u{7F}", "search")
        assertInvalid("jazz\tmusic", "search")
        assertInvalid(String(repeating: "a", count: MediaLocator.maximumLength + 1), "search")
        assertInvalid("lavfi://sine", "url")
        assertInvalid("edl://a.mp3,0,10", "url")
        assertInvalid("memory://abc", "url")
    }

    func testLongestAcceptedIdentifier() throws {
        let words = String(repeating: "a", count: MediaLocator.maximumLength)
        XCTAssertEqual(try location(words, "search"), "ytdl://ytsearch1:" + words)
    }

    func testYouTubeIDShape() {
        XCTAssertTrue(MediaLocator.isYouTubeID("dQw4w9WgXcQ"))
        XCTAssertFalse(MediaLocator.isYouTubeID("dQw4w9WgXc"))
        XCTAssertFalse(MediaLocator.isYouTubeID("dQw4w9WgXcQQ"))
        XCTAssertFalse(MediaLocator.isYouTubeID("dQw4w9 gXcQ"))
        XCTAssertFalse(MediaLocator.isYouTubeID("dQw4w9WgXc!"))
    }

    func testMediaActionUsesItsType() throws {
        let action = MediaPlayAction(identifier: "dQw4w9WgXcQ")
        XCTAssertEqual(
            try MediaLocator.location(identifier: action.identifier, type: action.identifierType),
            "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    }
}
