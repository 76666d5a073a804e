import Foundation
import XCTest

/// `susi update` names what is missing; the upgrade itself is tested in `YTDLPRefreshTests`.
final class UpdateCommandTests: XCTestCase {
    private var cli: CLIRunner!

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() { cli.cleanUp() }

    func testAMissingVirtualenvIsNamed() throws {
        let result = try cli.run(["update", "--virtualenv", cli.directory + "/none"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("no yt-dlp virtualenv in \(cli.directory)/none"), result.stderr)
        XCTAssertTrue(try cli.run(["update", "--help"]).stdout.contains("--index-url"))
    }
}
