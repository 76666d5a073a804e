import Foundation
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

/// `/aaa/addNewDevice.json` against a loopback server that checks what SUSI's servlet checks.
final class SusiAccountDeviceTests: XCTestCase {
    private let token = AccountToken(
        accessToken: "tok-abc", expiresAt: Date().addingTimeInterval(3600), email: "mario@example.com", server: "")

    /// A server like SUSI's: `macid`, `name` and `room` required, the MAC checked, a token needed.
    private func deviceServer(seen: QueryLog) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/aaa/addNewDevice.json") { request in
                seen.append(request.query)
                guard request.query["access_token"] == "tok-abc" else {
                    return .html("<title>Specified user data not found, ensure you are logged in</title>", status: 401)
                }
                guard let mac = request.query["macid"], request.query["name"] != nil, request.query["room"] != nil else {
                    return .html("<title>Bad service call, missing arguments</title>", status: 400)
                }
                guard DeviceEntry.isMAC(mac) else { return .html("<title>Invalid Mac Address.</title>", status: 400) }
                return jsonReply(#"{"accepted": true, "message": "You have successfully added the device!"}"#)
            }
            router.get("/aaa/removeUserDevices.json") { request in
                seen.append(request.query)
                guard request.query["access_token"] == "tok-abc" else {
                    return .html("<title>Specified user data not found, ensure you are logged in</title>", status: 401)
                }
                return jsonReply(#"{"accepted": true, "message": "Device removed"}"#)
            }
        }
    }

    func testAddSendsTheServletsParametersWithTheToken() throws {
        let seen = QueryLog()
        let (server, base) = try deviceServer(seen: seen)
        defer { server.stop() }
        let client = SusiAccountClient(server: base + "/", http: CurlHTTPClient())
        try client.add(
            DeviceEntry(
                macid: "b8:27:eb:12:34:56", name: "SUSI.AI Speaker", room: "Living room & kitchen", latitude: 52.52,
                longitude: 13.405),
            token: token)
        XCTAssertEqual(
            seen.all.first,
            [
                "macid": "b8:27:eb:12:34:56", "name": "SUSI.AI Speaker", "room": "Living room & kitchen", "latitude": "52.52",
                "longitude": "13.405", "access_token": "tok-abc",
            ])

        // Without a location, none is sent (the server then says "not available").
        try client.add(DeviceEntry(macid: "b8:27:eb:12:34:56", name: "n", room: ""), token: token)
        XCTAssertNil(seen.all.last?["latitude"])
        XCTAssertEqual(seen.all.last?["room"], "")
    }

    func testRefusalsAndOfflineAreTypedAndNeverShowTheToken() throws {
        let seen = QueryLog()
        let (server, base) = try deviceServer(seen: seen)
        let client = SusiAccountClient(server: base, http: CurlHTTPClient(), timeout: 3)
        var stale = token
        stale.accessToken = "expired"
        XCTAssertThrowsError(try client.add(DeviceEntry(macid: "b8:27:eb:12:34:56", name: "n", room: "r"), token: stale)) {
            let error = $0 as? SusiAPIError
            XCTAssertEqual(error?.code, "account-unauthorized")
            XCTAssertFalse(error?.message.contains("expired") ?? true)
        }
        XCTAssertThrowsError(try client.add(DeviceEntry(macid: "not-a-mac", name: "n", room: "r"), token: token)) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-bad-input")
        }
        XCTAssertEqual(seen.all.count, 1, "a MAC the server would refuse is never sent")
        server.stop()
        XCTAssertThrowsError(try client.add(DeviceEntry(macid: "b8:27:eb:12:34:56", name: "n", room: "r"), token: token)) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-connection-refused")
        }
    }

    /// `/aaa/removeUserDevices.json`, as SUSI's web client calls it: the MAC and the token.
    func testRemoveSendsTheMACWithTheToken() throws {
        let seen = QueryLog()
        let (server, base) = try deviceServer(seen: seen)
        defer { server.stop() }
        let client = SusiAccountClient(server: base, http: CurlHTTPClient(), timeout: 3)
        try client.remove(macid: "b8:27:eb:12:34:56", token: token)
        XCTAssertEqual(seen.all, [["macid": "b8:27:eb:12:34:56", "access_token": "tok-abc"]])
        var stale = token
        stale.accessToken = "expired"
        XCTAssertThrowsError(try client.remove(macid: "b8:27:eb:12:34:56", token: stale)) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-unauthorized")
        }
        XCTAssertThrowsError(try client.remove(macid: "nope", token: token)) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "account-bad-input")
        }
        XCTAssertEqual(seen.all.count, 2, "a MAC the server would refuse is never sent")
    }
}
