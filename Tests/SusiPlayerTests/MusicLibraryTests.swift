import Foundation
import SusiTestSupport
import Synchronization
import XCTest

@testable import SusiPlayer

/// Issue 53: the owner's music, indexed from real files with their tags read by ffprobe.
final class MusicLibraryTests: XCTestCase {
    private var scratch: ScratchDirectory!
    private var directory: String { scratch.path }

    override func setUpWithError() throws {
        scratch = try ScratchDirectory("susi-music")
    }

    override func tearDown() {
        scratch.remove()
    }

    /// The files a tag reader was asked about.
    private final class Reads: Sendable {
        let paths = Mutex<[String]>([])
        var count: Int { paths.withLock { $0.count } }
        var last: String? { paths.withLock { $0.last } }
    }

    /// A tag reader counting the files it reads, reading them with ffprobe.
    private func countingReader() -> (MusicLibrary.TagReader, Reads) {
        let read = Reads()
        let reader: MusicLibrary.TagReader = { path in
            read.paths.withLock { $0.append(path) }
            return MusicLibrary.ffprobeTags(path)
        }
        return (reader, read)
    }

    func testTagsFoldersAndMatchingAsSpoken() throws {
        let music = directory + "/Music"
        try taggedSong(
            music + "/a.flac", tags: ["artist": "The Beatles", "album": "Abbey Road", "title": "Something", "track": "2/17"])
        try taggedSong(
            music + "/b.flac", tags: ["artist": "The Beatles", "album": "Abbey Road", "title": "Come Together", "track": "1"])
        try taggedSong(music + "/c.flac", tags: ["ARTIST": "Miles Davis", "album": "Kind of Blue", "title": "So What"])
        // No tags: known by its folders and file name.
        try taggedSong(music + "/Nina Simone/Pastel Blues/Sinnerman.flac")
        try "not audio".write(toFile: music + "/notes.txt", atomically: true, encoding: .utf8)

        let library = MusicLibrary(indexPath: directory + "/index.json")
        XCTAssertEqual(library.refresh(roots: [music]), 4)
        XCTAssertEqual(
            library.tracks(for: .artist("the beatles")).map(\.title), ["Come Together", "Something"], "in track order")
        XCTAssertEqual(library.tracks(for: .artist("beatles")).count, 2)
        XCTAssertEqual(library.tracks(for: .album("abbey road")).first?.number, 1)
        XCTAssertEqual(library.tracks(for: .artist("miles davis")).map(\.album), ["Kind of Blue"])
        XCTAssertEqual(library.tracks(for: .album("kind of blue")).map(\.title), ["So What"])
        let nina = try XCTUnwrap(library.tracks(for: .artist("nina simone")).first)
        XCTAssertEqual([nina.album, nina.title], ["Pastel Blues", "Sinnerman"])
        XCTAssertEqual(library.tracks(for: .artist("davis")).count, 1, "every spoken word in the name")
        XCTAssertEqual(library.tracks(for: .artist("elvis")), [])
        XCTAssertEqual(library.tracks(for: .artist("")), [])
        XCTAssertEqual(library.tracks(for: .everything).count, 4)
    }

    func testOnlyNewAndChangedFilesAreReadAgainAndTheIndexOutlivesTheProcess() throws {
        let music = directory + "/Music"
        try taggedSong(music + "/one.flac", tags: ["artist": "Abba", "title": "One"])
        try taggedSong(music + "/two.flac", tags: ["artist": "Abba", "title": "Two"])
        let (reader, read) = countingReader()
        let library = MusicLibrary(indexPath: directory + "/index.json", readTags: reader)
        XCTAssertEqual(library.refresh(roots: [music]), 2)
        XCTAssertEqual(read.count, 2)
        XCTAssertEqual(library.refresh(roots: [music]), 2)
        XCTAssertEqual(read.count, 2, "nothing changed, nothing read")

        try FileManager.default.removeItem(atPath: music + "/one.flac")
        try taggedSong(music + "/three.flac", tags: ["artist": "Abba", "title": "Three"])
        XCTAssertEqual(library.refresh(roots: [music]), 2)
        XCTAssertEqual(read.last, music + "/three.flac")
        XCTAssertEqual(read.count, 3)

        // A new process reads the index file and no tags.
        let (again, readAgain) = countingReader()
        let restarted = MusicLibrary(indexPath: directory + "/index.json", readTags: again)
        XCTAssertEqual(restarted.tracks(for: .artist("abba")).map(\.title).sorted(), ["Three", "Two"])
        XCTAssertEqual(restarted.refresh(roots: [music]), 2)
        XCTAssertEqual(readAgain.count, 0)
    }

    /// A stick mounted after start (a mount table line under the removable root) is searched
    /// on the next refresh, and forgotten when it is gone.
    func testAUSBStickMountedLaterIsPickedUp() throws {
        let table = directory + "/mounts"
        try "/dev/sda1 / ext4 rw 0 0\n".write(toFile: table, atomically: true, encoding: .utf8)
        let media = directory + "/media/"
        let stick = media + "USB STICK"
        try taggedSong(stick + "/Queen/Greatest Hits/Bohemian Rhapsody.flac")
        let library = MusicLibrary(indexPath: directory + "/index.json", mountTable: table, removableRoots: [media])
        XCTAssertEqual(library.roots(folders: [], removable: true), [])
        XCTAssertEqual(library.refresh(roots: library.roots(folders: [], removable: true)), 0)

        try "/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 \(media)USB\\040STICK vfat rw 0 0\n"
            .write(toFile: table, atomically: true, encoding: .utf8)
        XCTAssertEqual(library.roots(folders: ["~/Music"], removable: true, home: "/home/x"), ["/home/x/Music", stick])
        XCTAssertEqual(library.roots(folders: [], removable: false), [], "player.removable_media off")
        XCTAssertEqual(library.refresh(roots: library.roots(folders: [], removable: true)), 1)
        XCTAssertEqual(library.tracks(for: .artist("queen")).first?.title, "Bohemian Rhapsody")

        try "/dev/sda1 / ext4 rw 0 0\n".write(toFile: table, atomically: true, encoding: .utf8)
        XCTAssertEqual(library.refresh(roots: library.roots(folders: [], removable: true)), 0)
    }

    func testFilesThatAreNotAudioAreLeftOut() throws {
        let music = directory + "/Music"
        try FileManager.default.createDirectory(atPath: music, withIntermediateDirectories: true)
        try Data("garbage, not a song".utf8).write(to: URL(fileURLWithPath: music + "/fake.mp3"))
        XCTAssertNil(MusicLibrary.ffprobeTags(music + "/fake.mp3"))
        // Unreadable tags: known by the file name still (mpv says whether it plays).
        let library = MusicLibrary(indexPath: directory + "/index.json")
        XCTAssertEqual(library.refresh(roots: [music, directory + "/missing"]), 1)
        XCTAssertEqual(library.tracks(for: .everything).first?.title, "fake")
    }
}
