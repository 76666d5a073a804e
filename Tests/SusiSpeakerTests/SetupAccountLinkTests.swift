import Foundation
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// The `/auth` account link and its background retry, over a fake HTTP client.
final class SetupAccountLinkTests: XCTestCase {
    private var scratch: ScratchConfig!

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
    }

    override func tearDown() {
        scratch.remove()
    }

    private static let accepted =
        #"{"accepted": true, "message": "You are logged in", "access_token": "tok-abc", "valid_seconds": 604800}"#

    private func link(_ http: FakeHTTPClient) -> SetupAccountLink {
        var link = SetupAccountLink(store: scratch.store, logger: .silent)
        link.http = { http }
        return link
    }

    private var token: AccountToken? {
        AccountStore(configStore: scratch.store).token(for: (try? scratch.store.load())?.brain.server ?? "")
    }

    func testOnlineLoginStoresTheToken() throws {
        let http = FakeHTTPClient.json(Self.accepted)
        XCTAssertEqual(try link(http).link(email: "mario@example.com", password: "secret"), .loggedIn)
        XCTAssertEqual(token?.accessToken, "tok-abc")
        XCTAssertNil(link(http).pending.load())
        XCTAssertEqual(http.urls.count, 1)
    }

    func testRefusedLoginKeepsNothing() throws {
        let http = FakeHTTPClient.json(#"{"accepted": false, "message": "wrong password"}"#, status: 401)
        XCTAssertThrowsError(try link(http).link(email: "mario@example.com", password: "wrong")) { error in
            XCTAssertEqual((error as? SetupError)?.code, SetupError(.loginRefused, "").code)
        }
        XCTAssertNil(token)
        XCTAssertNil(link(http).pending.load())
    }

    func testOfflineLoginWaitsAndIsRetriedLater() throws {
        XCTAssertEqual(try link(.offline()).link(email: "mario@example.com", password: "secret"), .pending)
        XCTAssertNil(token)
        XCTAssertEqual(link(.offline()).pending.load()?.email, "mario@example.com")
        XCTAssertFalse(link(.offline()).retryPending(), "still offline: kept")
        XCTAssertNotNil(link(.offline()).pending.load())
        XCTAssertTrue(link(.json(Self.accepted)).retryPending())
        XCTAssertEqual(token?.accessToken, "tok-abc")
        XCTAssertNil(link(.offline()).pending.load())
        XCTAssertFalse(link(.json(Self.accepted)).retryPending(), "nothing left to retry")
    }

    /// The apps send a new login (another process's `/auth`) while the old one is being
    /// tried: the new one is kept for the next retry, not dropped with the old one.
    func testNewCredentialsSentDuringARetryAreKept() throws {
        _ = try link(.offline()).link(email: "old@example.com", password: "old-secret")
        let pending = link(.offline()).pending
        let http = FakeHTTPClient { _ in
            try? pending.save(PendingLoginFile.Credentials(email: "new@example.com", password: "new-secret"))
            let body = Data(#"{"accepted": false, "message": "wrong password"}"#.utf8)
            return .success(HTTPResponse(status: 401, headers: ["content-type": "application/json"], body: body))
        }
        XCTAssertTrue(link(http).retryPending(), "the old login was refused and dropped")
        XCTAssertEqual(pending.load()?.email, "new@example.com", "the new one waits for the next retry")
    }

    func testSignOutDropsPendingCredentialsAndTheLogin() throws {
        _ = try link(.offline()).link(email: "mario@example.com", password: "secret")
        try link(.offline()).signOut()
        XCTAssertNil(link(.offline()).pending.load())

        XCTAssertEqual(try link(.json(Self.accepted)).link(email: "mario@example.com", password: "secret"), .loggedIn)
        XCTAssertNotNil(token)
        try link(.offline()).signOut()
        XCTAssertNil(token, "no token for chat requests")
        XCTAssertNoThrow(try link(.offline()).signOut(), "signed out twice is fine")
    }

    func testPendingLoginRetryRunsInTheBackgroundAndStops() throws {
        _ = try link(.offline()).link(email: "mario@example.com", password: "secret")
        let http = FakeHTTPClient.json(Self.accepted)
        let retry = PendingLoginRetry(account: link(http))
        retry.start()
        defer { retry.stop() }
        XCTAssertTrue(eventually(timeout: 5) { self.token != nil }, "the first try is at once")
        XCTAssertNil(link(http).pending.load())
        retry.stop()
        let tries = http.urls.count
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(http.urls.count, tries, "nothing is tried after stop")
    }
}
