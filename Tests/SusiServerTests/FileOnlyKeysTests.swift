import Foundation
import SusiModel
import SusiServer
import XCTest

/// Keys that name programs to run or folders to read change only in the config file, never
/// through the web page's `POST /settings` (issue 50).
final class FileOnlyKeysTests: XCTestCase {
    private var fixture: SetupFixture!

    override func setUpWithError() throws {
        fixture = try SetupFixture()
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testTheWebPageCannotChooseTheMediaFolders() throws {
        let before = fixture.configBytes
        for value in [#"["/"]"#, #"["/srv/music"]"#, "/home"] {
            let body = String(
                decoding: try JSONSerialization.data(withJSONObject: ["key": "player.media_dirs", "value": value]), as: UTF8.self)
            let reply = try fixture.postJSON("/settings", body)
            XCTAssertEqual(reply.status, 400, "\(value): \(reply.body)")
            XCTAssertEqual(reply.json["parameter"] as? String, "key", reply.body)
        }
        XCTAssertEqual(fixture.configBytes, before, "nothing saved")
        XCTAssertEqual(try fixture.config.player.mediaDirectories, [])

        let keys = try fixture.get("/settings/keys")
        let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(keys.body.utf8)) as? [[String: Any]])
        let row = try XCTUnwrap(list.first { $0["key"] as? String == "player.media_dirs" })
        XCTAssertEqual(row["editable"] as? Bool, false, "shown, but not offered for change")
    }

    func testEveryFileOnlyKeyIsRefused() throws {
        for key in ConfigSchema.fileOnlyKeys.sorted() {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["key": key, "value": "x"]), as: UTF8.self)
            let reply = try fixture.postJSON("/settings", body)
            XCTAssertEqual(reply.status, 400, "\(key): \(reply.body)")
            XCTAssertEqual(reply.json["parameter"] as? String, "key", "\(key): \(reply.body)")
        }
    }
}
