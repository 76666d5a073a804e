import SusiCore
import SusiServer
import XCTest

final class RouterTests: XCTestCase {
    private func makeRouter() -> Router {
        var router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/volume/:level") { request in
            .text("level \(request.pathParameters["level"] ?? "?")")
        }
        router.get("/volume/up") { _ in .text("up") }
        router.add(["GET", "POST"], "/both") { request in .text(request.method) }
        router.post("/fail") { _ in throw TestFailure() }
        return router
    }

    private struct TestFailure: SusiError {
        var stage: Stage { .server }
        var code: String { "test-failure" }
        var message: String { "it broke" }
    }

    private func body(_ response: ServerResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    func testExactAndParameterRoutes() {
        let router = makeRouter()
        XCTAssertEqual(body(router.handle(ServerRequest(method: "GET", path: "/hello"))), "hello")
        XCTAssertEqual(body(router.handle(ServerRequest(method: "GET", path: "/hello/"))), "hello")
        XCTAssertEqual(
            body(router.handle(ServerRequest(method: "GET", path: "/volume/42"))), "level 42")
        // The literal route wins although the parameter route was registered first.
        XCTAssertEqual(body(router.handle(ServerRequest(method: "GET", path: "/volume/up"))), "up")
        XCTAssertEqual(body(router.handle(ServerRequest(method: "POST", path: "/both"))), "POST")
    }

    func testUnknownPathIs404AndWrongMethodIs405WithAllow() {
        let router = makeRouter()
        XCTAssertEqual(router.handle(ServerRequest(method: "GET", path: "/nope")).status, 404)
        XCTAssertEqual(router.handle(ServerRequest(method: "GET", path: "/volume/1/2")).status, 404)
        let wrong = router.handle(ServerRequest(method: "DELETE", path: "/hello"))
        XCTAssertEqual(wrong.status, 405)
        XCTAssertEqual(wrong.header("allow"), "GET, HEAD")
    }

    func testHeadIsServedByGetRoutes() {
        XCTAssertEqual(makeRouter().handle(ServerRequest(method: "HEAD", path: "/hello")).status, 200)
    }

    func testThrownSusiErrorBecomesJSON500WithItsCode() throws {
        let response = makeRouter().handle(ServerRequest(method: "POST", path: "/fail"))
        XCTAssertEqual(response.status, 500)
        XCTAssertEqual(response.contentType, ServerResponse.jsonContentType)
        let object = try jsonObject(response.body)
        XCTAssertEqual(object["code"] as? String, "test-failure")
        XCTAssertEqual(object["error"] as? String, "it broke")
    }

    func testJSONConstructors() throws {
        struct Reply: Encodable {
            let roomName: String
            enum CodingKeys: String, CodingKey { case roomName = "room_name" }
        }
        let encoded = ServerResponse.json(Reply(roomName: "kitchen/left"))
        XCTAssertEqual(String(decoding: encoded.body, as: UTF8.self), #"{"room_name":"kitchen/left"}"#)
        let raw = ServerResponse.json(
            object: ["a": 1, "b": [true, "x"]] as [String: Any], status: 201)
        XCTAssertEqual(raw.status, 201)
        XCTAssertEqual(try jsonObject(raw.body)["a"] as? Int, 1)
        // Something JSONSerialization cannot encode becomes an error reply, not a crash.
        let invalid = ServerResponse.json(object: ["date": Date()])
        XCTAssertEqual(invalid.status, 500)
        XCTAssertEqual(try jsonObject(invalid.body)["code"] as? String, "server-encoding-failed")
    }
}
