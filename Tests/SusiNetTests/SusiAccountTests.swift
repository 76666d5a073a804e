import Foundation
import SusiServer
import XCTest

@testable import SusiNet

/// Login against a loopback `/aaa/login.json`, the 0600 account file, expiry.
final class SusiAccountTests: XCTestCase {
    private var directory = ""
    private var store: AccountStore { AccountStore(path: directory + "/account.json") }

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-account-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A login endpoint accepting `mario@example.com` / `s3cret & more`.
    private func loginServer(seen: QueryLog = QueryLog()) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/aaa/login.json") { request in
                seen.append(request.query)
                guard request.query["type"] == "access-token" else {
                    return .html("<title>Bad type</title>", status: 400)
                }
                if request.query["login"] == "soft@example.com" {
                    return jsonReply(#"{"accepted": false, "message": "Account not activated"}"#)
                }
                guard request.query["login"] == "mario@example.com", request.query["password"] == "s3cret & more" else {
                    return .html("<html><head><title>Authentication failed</title></head></html>", status: 401)
                }
                return jsonReply(
                    #"{"accepted": true, "message": "You are logged in as mario@example.com", "access_token": "tok-abc", "valid_seconds": 604800, "uuid": "u1"}"#
                )
            }
        }
    }

    func testLoginStoresTokenAndExpiryInA0600File() throws {
        let seen = QueryLog()
        let (server, base) = try loginServer(seen: seen)
        defer { server.stop() }
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let token = try SusiAccountClient(server: base, http: CurlHTTPClient()).logIn(
            email: " mario@example.com ", password: "s3cret & more", now: now)
        XCTAssertEqual(token.accessToken, "tok-abc")
        XCTAssertEqual(token.expiresAt, now.addingTimeInterval(604_800))
        XCTAssertEqual(token.email, "mario@example.com")
        XCTAssertEqual(seen.all.first?["type"], "access-token")
        XCTAssertFalse(token.description.contains("tok-abc"), "descriptions hide the token")

        try store.save(token)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertEqual(store.state(now: now), .loggedIn(token))
        XCTAssertEqual(try store.requireToken(for: base + "/", now: now), token)
        XCTAssertNil(store.token(for: "https://api.susi.ai", now: now))
    }

    func testWrongPasswordIsUnauthorizedWithoutThePassword() throws {
        let (server, base) = try loginServer()
        defer { server.stop() }
        XCTAssertThrowsError(
            try SusiAccountClient(server: base, http: CurlHTTPClient()).logIn(
                email: "mario@example.com", password: "wrong-pw")
        ) { error in
            let error = error as? SusiAPIError
            XCTAssertEqual(error?.code, "account-unauthorized")
            XCTAssertEqual(error?.status, 401)
            XCTAssertTrue(error?.message.hasSuffix(": wrong email or password") == true, error?.message ?? "")
            XCTAssertFalse(error?.message.contains("wrong-pw") == true)
            XCTAssertFalse(error?.message.contains("mario@example.com") == true, "the address is shortened")
        }
    }

    func testRefusalsNameTheirCause() {
        XCTAssertEqual(SusiAccountClient.cause(status: 422, reason: "Unprocessable Entity"), "wrong email or password")
        XCTAssertEqual(SusiAccountClient.cause(status: 422, reason: "Error 422 Invalid credentials"), "wrong email or password")
        XCTAssertEqual(SusiAccountClient.cause(status: 401, reason: nil), "wrong email or password")
        XCTAssertTrue(
            SusiAccountClient.cause(status: 401, reason: "Your Account is not verified. Please verify it.")
                .hasPrefix("the account is not activated yet"))
        XCTAssertTrue(
            SusiAccountClient.cause(status: 422, reason: "Too many invalid login attempts").hasPrefix("too many failed logins"))
    }

    func testAnUnprocessableEntityPageSaysWrongEmailOrPassword() throws {
        let (server, base) = try startServer { router in
            router.get("/aaa/login.json") { _ in
                .html("<html><head><title>Unprocessable Entity</title></head></html>", status: 422)
            }
        }
        defer { server.stop() }
        XCTAssertThrowsError(
            try SusiAccountClient(server: base, http: CurlHTTPClient()).logIn(email: "mario@example.com", password: "x")
        ) { error in
            let message = (error as? SusiAPIError)?.message ?? ""
            XCTAssertEqual((error as? SusiAPIError)?.code, "account-unauthorized")
            XCTAssertTrue(message.hasSuffix("wrong email or password"), message)
            XCTAssertFalse(message.contains("Unprocessable"), message)
        }
    }

    func testSoftFailureAndMissingTokenAndRefusedServer() throws {
        let (server, base) = try loginServer()
        defer { server.stop() }
        let client = SusiAccountClient(server: base, http: CurlHTTPClient())
        XCTAssertThrowsError(try client.logIn(email: "soft@example.com", password: "x")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-rejected")
            XCTAssertTrue("\($0)".contains("Account not activated"))
        }
        XCTAssertThrowsError(try client.logIn(email: "", password: "x")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-bad-input")
        }
        let (empty, emptyBase) = try startServer {
            $0.get("/aaa/login.json") { _ in jsonReply(#"{"accepted": true}"#) }
        }
        defer { empty.stop() }
        XCTAssertThrowsError(
            try SusiAccountClient(server: emptyBase, http: CurlHTTPClient()).logIn(email: "a@b.c", password: "x")
        ) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-bad-json")
        }
        let closed = try RawSocket()
        XCTAssertThrowsError(
            try SusiAccountClient(server: "http://127.0.0.1:\(closed.port)", http: CurlHTTPClient()).logIn(
                email: "a@b.c", password: "x")
        ) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-connection-refused")
        }
    }

    func testExpiredTokenIsDroppedWithAClearMessage() throws {
        let now = Date()
        try store.save(
            AccountToken(
                accessToken: "tok", expiresAt: now.addingTimeInterval(-5), email: "mario@example.com",
                server: "http://x"))
        XCTAssertThrowsError(try store.requireToken(for: "http://x", now: now)) { error in
            let error = error as? SusiAPIError
            XCTAssertEqual(error?.code, "account-token-expired")
            XCTAssertTrue(error?.message.contains("susi login") == true)
            XCTAssertTrue(error?.message.contains("mario@...") == true, error?.message ?? "")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path))
        XCTAssertEqual(store.state(now: now), .loggedOut)
        XCTAssertThrowsError(try store.requireToken(for: "http://x")) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-not-logged-in")
        }
    }

    func testRemoveIsIdempotentAndBrokenFilesMeanLoggedOut() throws {
        XCTAssertFalse(try store.remove())
        try store.save(
            AccountToken(accessToken: "tok", expiresAt: Date().addingTimeInterval(60), email: "", server: "http://x"))
        XCTAssertTrue(try store.remove())
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: store.path))
        XCTAssertEqual(store.state(), .loggedOut)
    }

    /// `state` found an expired token; meanwhile another process (`susi login`) saved a new
    /// one. The removal looks again under the file's lock, so the new login stays.
    func testRemovingAnExpiredTokenKeepsALoginSavedMeanwhile() throws {
        let now = Date()
        try store.save(AccountToken(accessToken: "new", expiresAt: now.addingTimeInterval(3600), email: "", server: "http://x"))
        store.removeIfExpired(at: now)
        XCTAssertEqual(store.token(for: "http://x", now: now)?.accessToken, "new")
        store.removeIfExpired(at: now.addingTimeInterval(7200))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path), "an expired one still goes")
    }
}
