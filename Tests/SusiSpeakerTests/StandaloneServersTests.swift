import Foundation
import SusiBrain
import SusiModel
import SusiNet
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The servers `susi setup serve` and `susi brain serve` run. (The signal watch that ends
/// `susi run` is tested end to end: RunCommandTests' SIGTERM tests.)
final class StandaloneServersTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    private func get(_ url: String) throws -> HTTPResponse {
        try CurlHTTPClient(stage: .brain).send(HTTPRequest(url: url, connectTimeout: 2, totalTimeout: 5))
    }

    func testTheSetupServerListensAtItsURLUntilStopped() throws {
        let setup = try StandaloneSetup(store: scratch.store, port: 0, host: "127.0.0.1", hotspot: false, logger: .silent)
        try setup.start()
        let url = setup.url
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/") && !url.hasSuffix(":0/"), url)
        XCTAssertTrue(setup.setup.service.setupState.isInSetupMode, "a fresh config is in setup mode")
        XCTAssertEqual(try get(url + "status").status, 200)
        setup.stop()
        XCTAssertThrowsError(try get(url + "status"), "nothing listens after stop()")
    }

    func testTheSetupServerShowsLoopbackForEveryAddress() throws {
        let setup = try StandaloneSetup(store: scratch.store, port: 0, host: "0.0.0.0", hotspot: false, logger: .silent)
        try setup.start()
        defer { setup.stop() }
        XCTAssertTrue(setup.url.hasPrefix("http://127.0.0.1:"), setup.url)
    }

    func testTheLocalBrainServerAnswersChatJSON() throws {
        let brain = try Brain(directory: bundledSkillsDirectory)
        let server = ChatServerHandler.localServer(brain: brain, store: scratch.store, port: 0, logger: .silent)
        try server.start()
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let reply = try get("http://127.0.0.1:\(port)\(ChatServerHandler.path)?q=what+is+2+plus+3")
        XCTAssertEqual(reply.status, 200)
        XCTAssertTrue(try ChatResponse.decode(reply.body).spokenText.contains("5"), String(decoding: reply.body, as: UTF8.self))
    }
}
