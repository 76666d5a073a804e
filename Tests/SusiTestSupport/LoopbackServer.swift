import Foundation
import SusiServer
import XCTest

/// Starts a server on 127.0.0.1 with a free port; the caller stops it (or lets deinit do it).
public func startServer(
    limits: ServerLimits = ServerLimits(), file: StaticString = #filePath, line: UInt = #line,
    _ configure: (inout Router) -> Void
) throws -> (server: HTTPServer, base: String) {
    var router = Router()
    configure(&router)
    let server = HTTPServer(port: 0, limits: limits, router: router)
    try server.start()
    let port = try XCTUnwrap(server.port, "a running server knows its port", file: file, line: line)
    XCTAssertNotEqual(port, 0, file: file, line: line)
    return (server, "http://127.0.0.1:\(port)")
}

/// Parses a JSON object body.
public func jsonObject(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: data)
    return try XCTUnwrap(value as? [String: Any], "body is a JSON object", file: file, line: line)
}

/// A loopback port nothing listens on: bound, read and closed, so a connection is refused for
/// the test's short life.
public func closedPort() -> UInt16? {
    let server = HTTPServer(port: 0, handler: { _ in .text("") })
    guard (try? server.start()) != nil, let port = server.port else { return nil }
    server.stop()
    return port
}
