import Foundation
import SusiCore
import SusiPlayer
import SusiServer
import SusiTestSupport
import Synchronization
import XCTest

/// mpv playing through its ytdl hook with the pinned yt-dlp of `make deps` (`.build/yt-dlp`):
/// offline, from a loopback HTTP server that yt-dlp's generic extractor reads.
final class YTDLPTests: XCTestCase {
    private var directory = ""
    private var player: MPVPlayer?

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-ytdlp-test-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        player?.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func virtualenv() throws -> YTDLP {
        guard let ytdl = YTDLP(virtualenv: repositoryRoot + "/.build/yt-dlp") else {
            throw XCTSkip("no yt-dlp virtualenv in .build/yt-dlp: `make deps` (or `make yt-dlp`) makes it")
        }
        return ytdl
    }

    func testBuildTreeAndInstalledLocationsAreSearched() {
        XCTAssertEqual(
            YTDLP.candidates(executablePath: "/usr/local/bin/susi"), ["/usr/local/lib/susi/yt-dlp"])
        XCTAssertEqual(
            YTDLP.candidates(executablePath: "/src/susi/.build/x86_64-unknown-linux-gnu/release/susi"),
            ["/src/susi/.build/x86_64-unknown-linux-gnu/lib/susi/yt-dlp", "/src/susi/.build/yt-dlp"])
        XCTAssertNil(YTDLP(virtualenv: directory), "an empty directory is no virtualenv")
        XCTAssertNil(YTDLP.locate(executablePath: directory + "/bin/susi"))
    }

    func testThePinnedVersionRunsWithDeno() throws {
        let ytdl = try virtualenv()
        let makefile = try String(contentsOfFile: repositoryRoot + "/Makefile", encoding: .utf8)
        let pinned = try XCTUnwrap(
            makefile.split(separator: "\n").first { $0.hasPrefix("export YTDLP_VERSION = ") }?
                .split(separator: "=").last?.trimmingCharacters(in: .whitespaces))
        // `make yt-dlp-update` may have moved it past the pin, never behind it.
        let version = try XCTUnwrap(ytdl.version())
        let numbers = { (text: String) in text.split(separator: ".").map { Int($0) ?? 0 } }
        XCTAssertFalse(numbers(version).lexicographicallyPrecedes(numbers(pinned)), "\(version) is older than the pin \(pinned)")
        let deno = try XCTUnwrap(ytdl.javaScriptRuntime, "the Deno wheel is installed beside yt-dlp")
        XCTAssertTrue(ytdl.mpvArguments.contains("--ytdl-raw-options-append=js-runtimes=deno:\(deno)"))
        XCTAssertTrue(
            ToolVersion.firstLine(of: deno, arguments: ["--version"])?.hasPrefix("deno ") == true,
            "Deno runs")
    }

    func testMPVPlaysALoopbackURLThroughTheHookAndThePinnedYTDLP() throws {
        let ytdl = try virtualenv()
        let rate = 16_000
        let samples = (0..<(rate * 4)).map { Int16(6_000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let wavPath = directory + "/tone.wav"
        try WAVFile.write(AudioChunk(format: AudioFormat(sampleRate: rate, channels: 1), samples: samples), to: wavPath)
        let wav = try Data(contentsOf: URL(fileURLWithPath: wavPath))
        // A page mpv cannot play itself: only yt-dlp's generic extractor finds the audio in it,
        // as it finds the stream behind a YouTube page.
        let page =
            "<!DOCTYPE html><html><head><title>Loopback Tone</title></head>"
            + "<body><audio controls src=\"tone.wav\"></audio></body></html>"
        let requests = Mutex<[String]>([])
        let (server, base) = try startServer { router in
            router.add(["GET", "HEAD"], "/music/page.html") { request in
                requests.withLock { $0.append(request.path) }
                return .html(page)
            }
            router.add(["GET", "HEAD"], "/music/tone.wav") { request in
                requests.withLock { $0.append(request.path) }
                return ServerResponse(status: 200, contentType: "audio/wav", body: wav)
            }
        }
        defer { server.stop() }
        let configuration = MPVPlayer.Configuration(
            arguments: ["--ao=null", "--no-config"], replyTimeout: 10, startTimeout: 10, runtimeDirectory: directory,
            ytdl: ytdl)
        let player = MPVPlayer(configuration: configuration)
        self.player = player
        let events = EventRecorder()
        events.attach(to: player)
        try player.play(identifier: base + "/music/page.html", type: "url")
        XCTAssertTrue(events.wait(for: .fileLoaded, timeout: 30), "mpv loaded the audio yt-dlp found in the page")
        // The hook titles the entry from yt-dlp's reading of the page.
        XCTAssertTrue(
            eventually(timeout: 10) {
                (try? player.property("media-title"))??.stringValue?.hasPrefix("Loopback Tone") == true
            })
        XCTAssertTrue(eventually(timeout: 10) { ((try? player.property("time-pos"))??.doubleValue ?? 0) > 0.2 })
        let seen = requests.withLock { $0 }
        XCTAssertTrue(seen.contains("/music/page.html") && seen.contains("/music/tone.wav"), "\(seen)")
    }
}
