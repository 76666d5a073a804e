import Foundation
import SusiServer
import XCTest

/// `susi login` / `susi logout` end to end against a loopback `/aaa/login.json`.
final class LoginCommandTests: XCTestCase {
    private var cli: CLIRunner!
    private var server: HTTPServer?

    override func setUpWithError() throws { cli = try CLIRunner() }
    override func tearDown() {
        server?.stop()
        cli.cleanUp()
    }

    /// Starts the fake SUSI server and points the config's brain.server at it.
    private func startFakeServer() throws -> String {
        var router = Router()
        router.get("/aaa/login.json") { request in
            guard request.query["login"] == "mario@example.com", request.query["password"] == "pa ss&word",
                request.query["type"] == "access-token"
            else { return .html("<html><head><title>Authentication failed</title></head></html>", status: 401) }
            return ServerResponse(
                contentType: ServerResponse.jsonContentType,
                body: Data(#"{"accepted": true, "access_token": "SECRET-TOKEN-1", "valid_seconds": 3600}"#.utf8))
        }
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        self.server = server
        let base = "http://127.0.0.1:\(try XCTUnwrap(server.port))"
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", base]).status, 0)
        return base
    }

    private var accountPath: String { cli.directory + "/susi/account.json" }

    func testLoginWithPasswordOnStdinStoresA0600TokenFileAndLogoutRemovesIt() throws {
        _ = try startFakeServer()
        let result = try cli.run(["login", "--email", "mario@example.com", "--password-stdin"], input: "pa ss&word\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("Logged in"), result.stdout)
        for output in [result.stdout, result.stderr] {
            XCTAssertFalse(output.contains("SECRET-TOKEN-1"), "the token is never printed")
            XCTAssertFalse(output.contains("pa ss&word"), "the password is never printed")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: accountPath)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let stored = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: accountPath))) as? [String: Any])
        XCTAssertEqual(stored["access_token"] as? String, "SECRET-TOKEN-1")
        let expires = try XCTUnwrap(stored["expires_at"] as? Double)
        XCTAssertEqual(expires, Date().timeIntervalSince1970 + 3600, accuracy: 120)

        let logout = try cli.run(["logout"])
        XCTAssertEqual(logout.status, 0)
        XCTAssertEqual(logout.stdout, "Logged out.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: accountPath))
        XCTAssertEqual(try cli.run(["logout"]).stdout, "Not logged in.\n")
    }

    func testWrongPasswordFailsWithOneLine() throws {
        _ = try startFakeServer()
        let result = try cli.run(["login", "--email", "mario@example.com", "--password-stdin"], input: "wrong-one\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("wrong email or password"), result.stderr)
        XCTAssertFalse(result.stderr.contains("wrong-one"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: accountPath))
    }

    func testWithoutATerminalThePasswordMustComeFromStdin() throws {
        _ = try startFakeServer()
        let result = try cli.run(["login", "--email", "mario@example.com"], input: "pa ss&word\n")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--password-stdin"), result.stderr)
        let usage = try cli.run(["login", "--password-stdin"], input: "x\n")
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--email"), usage.stderr)
    }

    func testExpiredTokenIsDroppedWithAClearMessage() throws {
        let base = try startFakeServer()
        let expired =
            #"{"access_token": "OLD", "expires_at": 1000, "email": "mario@example.com", "server": "\#(base)"}"#
        try Data(expired.utf8).write(to: URL(fileURLWithPath: accountPath))
        let result = try cli.run(["skill", "rate", "Knowledge/wikipedia", "4"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("expired") && result.stderr.contains("susi login"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: accountPath))
    }
}
