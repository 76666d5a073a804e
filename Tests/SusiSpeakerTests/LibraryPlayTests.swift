import Foundation
import SusiBrain
import SusiModel
import SusiPlayer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// Issue 53: "play my music", "play something by ARTIST", "play the album TITLE" and shuffle,
/// from the owner's files, through the dispatcher and the real mpv (`--ao=null`).
final class LibraryPlayTests: XCTestCase {
    private var scratch: ScratchConfig!
    private var music: String { scratch.directory + "/Music" }

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
        try taggedSong(
            music + "/b1.flac", tags: ["artist": "The Beatles", "album": "Abbey Road", "title": "Something", "track": "2"])
        try taggedSong(
            music + "/b2.flac", tags: ["artist": "The Beatles", "album": "Abbey Road", "title": "Come Together", "track": "1"])
        try taggedSong(music + "/Miles Davis/Kind of Blue/So What.flac")
        try scratch.store.set("player.media_dirs", to: "[\"\(music)\"]")
    }

    override func tearDown() {
        scratch.remove()
    }

    private func library() -> MusicLibrary {
        MusicLibrary(indexPath: scratch.directory + "/music-library.json", mountTable: "/nonexistent")
    }

    private func action(_ type: String, _ words: String = "everything") -> ChatAction {
        .audioPlay(MediaPlayAction(identifier: words, identifierType: type))
    }

    func testTheOwnersMusicPlaysInTheRealPlayer() throws {
        let configuration = MPVPlayer.Configuration(
            command: "mpv", arguments: ["--ao=null", "--no-config"], volume: 50, replyTimeout: 5, startTimeout: 10,
            runtimeDirectory: scratch.directory)
        let player = MPVPlayer(configuration: configuration, stateFile: nil)
        let slot = SpeakerPlayer { player }
        defer { slot.shutdown() }
        let (dispatcher, _, _) = try scratch.dispatcher(player: slot, library: library())
        func perform(_ action: ChatAction) {
            XCTAssertNil(dispatcher.perform(action, from: .builtIn).failure)
        }
        func playlist() -> [String] {
            let count = (try? player.property("playlist-count"))??.intValue ?? 0
            return (0..<count).compactMap { (try? player.property("playlist/\($0)/filename"))??.stringValue }
        }

        perform(action(MediaPlayAction.libraryArtist, "the beatles"))
        XCTAssertTrue(eventually { playlist() == [music + "/b2.flac", music + "/b1.flac"] }, "\(playlist())")
        XCTAssertTrue(eventually { (try? player.property("path"))??.stringValue == music + "/b2.flac" }, "track 1 first")

        perform(action(MediaPlayAction.libraryAlbum, "kind of blue"))
        XCTAssertTrue(eventually { playlist() == [music + "/Miles Davis/Kind of Blue/So What.flac"] }, "\(playlist())")

        perform(action(MediaPlayAction.library))
        XCTAssertTrue(eventually { playlist().count == 3 }, "\(playlist())")
        perform(action(MediaPlayAction.libraryShuffle))
        XCTAssertTrue(eventually { Set(playlist()).count == 3 && playlist().count == 3 }, "\(playlist())")
    }

    func testAnArtistNotInTheLibraryIsSearchedForAndAnEmptyLibraryIsSaidSo() throws {
        let fake = FakePlayer()
        let (dispatcher, live, _) = try scratch.dispatcher(player: SpeakerPlayer { fake }, library: library())
        XCTAssertNil(dispatcher.perform(action(MediaPlayAction.libraryArtist, "elvis"), from: .builtIn).failure)
        XCTAssertEqual(fake.calls, ["play search:elvis"])

        try live.set("player.media_dirs", to: "[\"\(scratch.directory)/empty\"]")
        let outcome = dispatcher.perform(action(MediaPlayAction.library), from: .builtIn)
        XCTAssertEqual((outcome.failure as? PlayerError)?.code, "player-library-empty")
        XCTAssertTrue(outcome.say?.contains("no music of yours") ?? false, outcome.say ?? "")
        XCTAssertEqual(fake.calls, ["play search:elvis"], "nothing more played")
    }

    /// The built-in skills turn the phrasings into library actions.
    func testTheBuiltInSkillsHearThePhrasings() throws {
        let brain = try Brain(directory: bundledSkillsDirectory, pick: { _ in 0 })
        for (query, expected) in [
            ("play my music", "[audio_play library: everything]"),
            ("shuffle my music", "[audio_play library_shuffle: everything]"),
            ("play something by the beatles", "[audio_play library_artist: the beatles]"),
            ("could you play something by miles davis", "[audio_play library_artist: miles davis]"),
            ("play the album kind of blue", "[audio_play library_album: kind of blue]"),
            ("play some jazz", "[audio_play search: jazz]"),
        ] {
            let answer = ExampleResult.describe(try brain.answer(query, context: .examples))
            XCTAssertTrue(answer.contains(expected), "\(query): \(answer)")
        }
    }
}
