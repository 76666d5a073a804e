import Foundation
import XCTest

@testable import SusiCore
@testable import SusiModel

/// What answers may make the player open: streams, searches and files in the media folders,
/// never the rest of the file system.
final class MediaSourcePolicyTests: XCTestCase {
    private var directory = ""
    private var music = ""
    private var song = ""

    override func setUpWithError() throws {
        // Resolved, so the expected paths match what the policy resolves to.
        let base = NSTemporaryDirectory() + "susi-media-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: base + "/Music/album", withIntermediateDirectories: true)
        directory = try XCTUnwrap(
            realpath(base, nil).map { pointer in
                defer { free(pointer) }
                return String(cString: pointer)
            })
        music = directory + "/Music"
        song = music + "/album/song one.ogg"
        XCTAssertTrue(FileManager.default.createFile(atPath: song, contents: Data("OggS".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/secret.txt", contents: Data("secret".utf8)))
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func assertRefused(
        _ policy: MediaSourcePolicy, _ location: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        guard case .refused = policy.check(location) else {
            return XCTFail("\(location) was allowed", file: file, line: line)
        }
    }

    func testStreamsAndSearchesAreAllowedAsTheyAre() {
        let policy = MediaSourcePolicy(mediaDirectories: [])
        for location in [
            "https://www.youtube.com/watch?v=7qnd-hdmgfk", "http://radio.example.org:8000/stream.mp3", "HTTPS://EXAMPLE.ORG/a",
            "ytdl://ytsearch1:jazz", "ytdl://ytsearch:the beatles", "ytdl://scsearch1:lofi beats",
        ] {
            XCTAssertEqual(policy.check(location), .allowed(location))
        }
        for location in [
            "ytdl://file:///etc/passwd", "ytdl://https://example.org", "ytdl://ytsearchx", "rtsp://camera.local/live",
            "lavfi://sine", "smb://nas/share/a.mp3", "jazz", "~/Music/a.mp3", "file:/etc/passwd",
        ] {
            assertRefused(policy, location)
        }
    }

    func testLocalFilesNeedAMediaFolder() {
        let none = MediaSourcePolicy(mediaDirectories: [])
        for location in ["/", "/etc/passwd", "file:///etc/passwd", song, "file://" + song] {
            assertRefused(none, location)
        }
        let policy = MediaSourcePolicy(mediaDirectories: [music])
        XCTAssertEqual(policy.check(song), .allowed(song))
        XCTAssertEqual(
            policy.check("file://" + (song.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")), .allowed(song))
        XCTAssertEqual(policy.check("file://localhost" + music + "/album/song%20one.ogg"), .allowed(song))
        XCTAssertEqual(policy.check(music + "/album/../album/./song one.ogg"), .allowed(song), "resolved to the real path")
    }

    func testNothingOutsideTheMediaFoldersNoDirectoriesNoDevices() throws {
        let policy = MediaSourcePolicy(mediaDirectories: [music])
        // `..`, a symlink out, a directory, a missing file, a file URL of another host.
        try FileManager.default.createSymbolicLink(atPath: music + "/passwd.mp3", withDestinationPath: "/etc/passwd")
        try FileManager.default.createSymbolicLink(atPath: music + "/root", withDestinationPath: "/")
        for location in [
            "/", "/etc/passwd", "file:///etc/passwd", music + "/../secret.txt", "file://" + music + "/../secret.txt",
            music + "/passwd.mp3", music + "/root/etc/passwd", music, music + "/", music + "/album", "file://" + music,
            music + "/missing.mp3", "file://nas.local" + song, "/dev/zero", "/proc/self/environ",
        ] {
            assertRefused(policy, location)
        }
        // A symlink that stays inside is fine, and plays as its target.
        try FileManager.default.createSymbolicLink(atPath: music + "/favourite.ogg", withDestinationPath: song)
        XCTAssertEqual(policy.check(music + "/favourite.ogg"), .allowed(song))
    }

    func testTheWholeFileSystemStillExcludesDevicesAndKernelFiles() {
        let everything = MediaSourcePolicy(mediaDirectories: ["/"])
        XCTAssertEqual(everything.check(directory + "/secret.txt"), .allowed(directory + "/secret.txt"))
        for location in ["/dev/zero", "/dev/urandom", "/proc/self/status", "/sys/kernel/mm/transparent_hugepage/enabled", "/"] {
            assertRefused(everything, location)
        }
    }

    func testTheConfigKeyAndTheHomeFolder() throws {
        let policy = MediaSourcePolicy(mediaDirectories: ["~/Music"], home: directory)
        XCTAssertEqual(policy.mediaDirectories, [music])
        XCTAssertEqual(policy.check(song), .allowed(song))

        let store = ConfigStore(path: directory + "/config.json")
        XCTAssertEqual(try store.load().player.mediaDirectories, [], "no local files by default")
        try store.set("player.media_dirs", to: "[\"~/Music\", \"/srv/music\"]")
        XCTAssertEqual(MediaSourcePolicy(config: try store.load(), home: directory).mediaDirectories, [music, "/srv/music"])
        XCTAssertThrowsError(try store.set("player.media_dirs", to: "[\"Music\"]")) { error in
            XCTAssertEqual((error as? ConfigError)?.code, "config-bad-value")
        }
    }
}
