import Foundation
import SusiServer
import XCTest

/// Malformed requests in bulk: the server keeps answering and nothing is saved. (The long run,
/// with more requests and a load test, is `reliability/run.sh`.)
final class SetupFuzzTests: XCTestCase {
    /// xorshift64*: a fixed seed makes a failure reproducible.
    private struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
        mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
    }

    /// One request that must not change anything: each carries at least one invalid value.
    /// Random paths may land on a read-only page (`/%00...` is `/` to libmicrohttpd), so only
    /// the other kinds must never succeed.
    private static func malformedRequest(_ random: inout Random) -> (bytes: [UInt8], mayRead: Bool) {
        let kind = random.below(8)
        return (malformedRequest(&random, kind: kind), kind == 0)
    }

    private static func malformedRequest(_ random: inout Random, kind: Int) -> [UInt8] {
        let invalid = [
            "room_name=%FF%FE", "room_name=" + String(repeating: "r", count: 65), "room_name=", "room_name=a%0Ab",
            "room_name=%C3%28", "wifissid=" + String(repeating: "s", count: 33) + "&wifipassd=", "wifissid=&wifipassd=12345678",
            "wifissid=ok&wifipassd=short", "wifissid=ok&wifipassd=%80%80%80%80%80%80%80%80",
            "auth=maybe", "auth=y&email=no-at-sign&password=x", "auth=y&email=a@b.c", "auth=y&password=x",
            "stt=google&tts=google&hotword=yes&wake=n", "stt=&tts=google&hotword=y&wake=n", "stt=google&tts=google&hotword=y",
            "hotword=y&wake=n", "stt=%00&tts=x&hotword=y&wake=y", "%%%", "a=%G1", "room_name",
        ]
        let route = random.pick(["/speaker_config", "/wifi_credentials", "/auth", "/config", "/reboot"])
        let method = random.pick(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "BREW", "G\u{1}T"])
        switch kind {
        case 0:
            // Random path bytes, percent escapes and raw high bytes.
            let path =
                "/"
                + random.bytes(1 + random.below(40)).map { byte in
                    byte < 0x21 || byte == 0x7f ? String(format: "%%%02X", byte) : String(Character(Unicode.Scalar(byte)))
                }.joined()
            return Array("\(method) ".utf8) + Array(path.utf8)
                + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        case 1:
            // A huge value: over the request line limit or the body limit.
            let size = random.pick([9000, 70_000, 200_000])
            if random.below(2) == 0 {
                return Array(
                    "GET \(route)?hotword=maybe&room_name=\(String(repeating: "x", count: size)) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                        .utf8)
            }
            return Array(
                "POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(size + 14)\r\nConnection: close\r\n\r\nhotword=maybe&\(String(repeating: "y", count: size))"
                    .utf8)
        case 2:
            // Not HTTP at all.
            return random.bytes(1 + random.below(300)) + Array("\r\n\r\n".utf8)
        case 3:
            // A form body that is not valid url-encoded UTF-8.
            let body = random.pick(["room_name=%FF", "room_name=%E2%82", "%zz=1", "room_name=Kitchen&wifissid=%"]) + "&auth=q"
            return Array(
                "POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                    .utf8)
        case 4:
            // A body shorter than announced: the server must time out or cope, not hang forever.
            return Array("POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\nConnection: close\r\n\r\nroom".utf8)
        default:
            // `/config` and `/reboot` keep what is missing, so each request also carries a value
            // they refuse (and the other routes ignore); the first of repeated names wins.
            let query = "hotword=maybe&" + random.pick(invalid)
            if route == "/reboot" || random.below(3) == 0 {
                return Array(
                    "POST \(route) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(query.utf8.count)\r\nConnection: close\r\n\r\n\(query)"
                        .utf8)
            }
            return Array("GET \(route)?\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        }
    }

    /// Sends raw bytes and reads until the server closes; nil when nothing came back in time.
    static func exchange(port: UInt16, _ bytes: [UInt8], timeoutSeconds: Int = 3) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Nothing more is coming: a request shorter than it announced ends now, not at a timeout.
        shutdown(descriptor, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    func testThousandsOfMalformedRequestsChangeNothing() throws {
        let fixture = try SetupFixture()
        defer { fixture.tearDown() }
        let port = try XCTUnwrap(fixture.server.port)
        let config = fixture.configBytes
        var random = Random(state: 0x5EED_5EED_1234_5678)
        var statuses: [Int: Int] = [:]
        // reliability/run.sh raises the count; the quick run keeps to 2000.
        let count = Int(ProcessInfo.processInfo.environment["SUSI_FUZZ_REQUESTS"] ?? "") ?? 2000
        for _ in 0..<count {
            let (request, mayRead) = Self.malformedRequest(&random)
            let reply = Self.exchange(port: port, request) ?? ""
            let status = reply.hasPrefix("HTTP/1.1 ") ? Int(reply.dropFirst(9).prefix(3)) ?? -1 : 0
            statuses[status, default: 0] += 1
            XCTAssertFalse(
                !mayRead && (200..<300).contains(status),
                "a malformed request succeeded: \(String(decoding: request.prefix(200), as: UTF8.self)) -> \(reply.prefix(300))")
            XCTAssertNotEqual(status, 500, "\(String(decoding: request.prefix(200), as: UTF8.self)) -> \(reply.prefix(300))")
        }
        XCTAssertEqual(fixture.configBytes, config, "nothing saved")
        XCTAssertNil(fixture.wifiText)
        XCTAssertEqual(fixture.account.links, [])
        XCTAssertTrue(fixture.service.setupState.isInSetupMode)
        XCTAssertEqual(try fixture.get("/status").status, 200, "still answering; replies seen: \(statuses)")
        XCTAssertGreaterThan(statuses[400, default: 0], count / 4, "most requests were refused as bad: \(statuses)")
        print("fuzz: \(count) malformed requests, replies by status: \(statuses.sorted { $0.key < $1.key })")
    }
}
