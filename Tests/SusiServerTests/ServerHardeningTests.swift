import Foundation
import SusiCore
import Synchronization
import XCTest

@testable import SusiServer

/// The server's own defences: slowloris clients cut off and kept to a share of the slots,
/// NUL bytes refused, ambiguous framing refused, strict parsing, rate-limited warnings.
final class ServerHardeningTests: XCTestCase {
    /// A TCP client from a chosen loopback address (127.0.0.2, ...): one machine plays several.
    final class Client {
        let descriptor: Int32

        init?(port: UInt16, from source: String, timeoutSeconds: Int = 5) {
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            var remote = sockaddr_in()
            remote.sin_family = sa_family_t(AF_INET)
            remote.sin_port = port.bigEndian
            remote.sin_addr.s_addr = inet_addr("127.0.0.1")
            let size = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
            }
            let connected = withUnsafePointer(to: &remote) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) }
            }
            guard bound == 0, connected == 0 else {
                close(descriptor)
                return nil
            }
        }

        deinit { close(descriptor) }

        /// Sends bytes; false once the server has closed the connection.
        @discardableResult
        func send(_ text: String) -> Bool {
            text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) } > 0
        }

        /// Reads until the server closes (or the receive timeout).
        func readAll() -> String {
            var reply: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { break }
                reply += buffer[0..<count]
            }
            return String(decoding: reply, as: UTF8.self)
        }

        /// Whether the server has closed its side: a read returns end of file at once.
        var isClosedByServer: Bool {
            var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 0) > 0 else { return false }
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
        }
    }

    /// 96 half-sent requests from two addresses, each dripping a byte every 300 ms: the
    /// per-address cap keeps them to 32 of the setup server's 128 slots, a normal client is
    /// served at once, and after the deadline (2 s here) the server has closed every dripping
    /// connection although none was ever idle.
    func testSlowlorisClientsNeitherLockOthersOutNorHoldOn() throws {
        var limits = SetupService.limits
        limits.requestDeadlineSeconds = 2
        let (server, base) = try startServer(limits: limits) { $0.get("/ping") { _ in .text("pong") } }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let started = Date()
        var attackers: [Client] = []
        for index in 0..<96 {
            if let client = Client(port: port, from: index % 2 == 0 ? "127.0.0.2" : "127.0.0.3") {
                client.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                attackers.append(client)
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        let turnedAway = attackers.filter(\.isClosedByServer).count
        XCTAssertEqual(turnedAway, 96 - 2 * limits.maxConnectionsPerIP, "each address holds at most its share")

        // While they drip, a normal client is served.
        for client in attackers { client.send("X") }
        let asked = Date()
        let reply = try runCurl(["--max-time", "3", base + "/ping"])
        let latency = Date().timeIntervalSince(asked)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.body, "pong")
        XCTAssertLessThan(latency, 2.0, "served while 32 slow clients hold on")

        // They keep dripping; the deadline, not idleness, ends them.
        var open = attackers.filter { !$0.isClosedByServer }
        while !open.isEmpty, Date().timeIntervalSince(started) < 6 {
            for client in open { client.send("-") }
            Thread.sleep(forTimeInterval: 0.3)
            open = open.filter { !$0.isClosedByServer }
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertTrue(open.isEmpty, "\(open.count) slow clients still connected after \(elapsed) s")
        XCTAssertGreaterThan(elapsed, 1.5, "not before the deadline")
        XCTAssertEqual(try runCurl([base + "/ping"]).status, 200)
    }

    /// As many slow clients as there are slots, from eight addresses (each within its cap): the
    /// slowest are shed to keep slots free, so a normal client is still served at once.
    func testSlowClientsFromManyAddressesLeaveRoomForNewOnes() throws {
        let (server, base) = try startServer(limits: SetupService.limits) { $0.get("/ping") { _ in .text("pong") } }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        var attackers: [Client] = []
        for index in 0..<SetupService.limits.maxConnections {
            if let client = Client(port: port, from: "127.0.0.\(2 + index % 8)") {
                client.send("GET /ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                attackers.append(client)
            }
        }
        Thread.sleep(forTimeInterval: 0.3)
        let held = attackers.filter { !$0.isClosedByServer }.count
        XCTAssertLessThanOrEqual(held, SetupService.limits.maxConnections - SetupService.limits.reservedConnections)
        XCTAssertGreaterThan(held, SetupService.limits.maxConnections / 2, "the rest are held until the deadline")
        for _ in 0..<3 {
            for client in attackers { client.send("X") }
            let asked = Date()
            let reply = try runCurl(["--max-time", "3", base + "/ping"])
            XCTAssertEqual(reply.status, 200)
            XCTAssertLessThan(Date().timeIntervalSince(asked), 2.0)
        }
        withExtendedLifetime(attackers) {}
    }

    /// The deadline counts from the end of the last reply, and a handler's own time is free.
    func testTheDeadlineCoversReceivingOnly() throws {
        let limits = ServerLimits(
            maxConnections: 8, maxConnectionsPerIP: 4, connectionTimeoutSeconds: 10, requestDeadlineSeconds: 1)
        let (server, _) = try startServer(limits: limits) {
            $0.get("/slow") { _ in
                Thread.sleep(forTimeInterval: 1.6)
                return .text("done")
            }
        }
        defer { server.stop() }
        let client = try XCTUnwrap(Client(port: try XCTUnwrap(server.port), from: "127.0.0.1"))
        client.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let reply = client.readAll()
        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 200"), reply)
        XCTAssertTrue(reply.hasSuffix("done"), reply)
    }

    func testNULIsRefusedNotCut() throws {
        let fixture = try SetupFixture()
        defer { fixture.tearDown() }
        let query = try fixture.get("/wifi_credentials?wifissid=Home&wifipassd=password1%00tail")
        XCTAssertEqual(query.status, 400, query.body)
        XCTAssertEqual(query.json["code"] as? String, "server-nul-in-request")
        XCTAssertNil(fixture.wifiText, "nothing stored, not even the part before the NUL")
        let form = try fixture.send(
            "POST", "/speaker_config", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "room_name=Bed%00room")
        XCTAssertEqual(form.status, 400, form.body)
        XCTAssertEqual(form.json["code"] as? String, "server-nul-in-request")
        let path = try fixture.get("/speaker_config%00.html?room_name=Garage")
        XCTAssertEqual(path.status, 400, path.body)
        let name = try fixture.get("/speaker_config?room%00_name=Garage")
        XCTAssertEqual(name.status, 400, name.body)
        XCTAssertEqual(try fixture.config.room, "")
    }

    /// Request smuggling and sloppy framing: Content-Length with Transfer-Encoding, two lengths,
    /// HTTP/1.1 without Host. Refused, and the request hidden behind the first never runs.
    func testAmbiguousFramingIsRefused() throws {
        let ran = Mutex<[String]>([])
        let (server, _) = try startServer {
            $0.post("/a") { _ in
                ran.withLock { $0.append("a") }
                return .text("a")
            }
            $0.get("/smuggled") { _ in
                ran.withLock { $0.append("smuggled") }
                return .text("smuggled")
            }
        }
        defer { server.stop() }
        let port = try XCTUnwrap(server.port)
        let smuggling =
            "POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
            + "0\r\n\r\nGET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let twoLengths =
            "POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\nContent-Length: 40\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\n\r\nx=1"
        for request in [smuggling, twoLengths] {
            let reply = SetupFuzzTests.exchange(port: port, Array(request.utf8)) ?? ""
            XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400"), reply)
            XCTAssertTrue(reply.contains("server-ambiguous-length"), reply)
            XCTAssertFalse(reply.contains("smuggled"), reply)
        }
        let noHost = SetupFuzzTests.exchange(port: port, Array("GET /smuggled HTTP/1.1\r\n\r\n".utf8)) ?? ""
        XCTAssertTrue(noHost.hasPrefix("HTTP/1.1 400"), noHost)
        XCTAssertEqual(ran.withLock { $0 }, [], "nothing ran")
        let fine =
            SetupFuzzTests.exchange(
                port: port, Array("GET /smuggled HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)) ?? ""
        XCTAssertTrue(fine.hasPrefix("HTTP/1.1 200"), fine)
    }

    func testWarningsAreRateLimitedPerKind() {
        let lines = CapturedLines()
        let clock = TestClock()
        let limiter = WarningLimiter(
            logger: Logger(label: "t", level: .info, handler: lines), interval: 10, now: { clock.now })
        XCTAssertTrue(limiter.warn("deadline", "one"))
        for _ in 0..<500 { XCTAssertFalse(limiter.warn("deadline", "again")) }
        XCTAssertTrue(limiter.warn("other", "different kind"))
        clock.advance(10)
        XCTAssertTrue(limiter.warn("deadline", "later"))
        XCTAssertEqual(
            lines.all,
            ["one", "different kind", "later (and 500 more like it since the last such warning)"])
    }
}

/// A log handler that keeps the messages.
final class CapturedLines: LogHandler {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    func write(level: LogLevel, label: String, message: String) { lines.withLock { $0.append(message) } }
}

/// `/mac`'s choice of interface, on a scratch copy of `/sys/class/net` and `/proc/net/route`.
final class NetworkInterfacesTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "susi-net-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func interface(_ name: String, mac: String, physical: Bool) throws {
        let directory = root + "/class/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data((mac + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/address"))
        if physical {
            try FileManager.default.createDirectory(atPath: directory + "/device", withIntermediateDirectories: true)
        }
    }

    private func routes(_ lines: [String]) throws {
        let header = "Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT"
        try Data(([header] + lines).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: root + "/route"))
    }

    private var interfaces: NetworkInterfaces {
        NetworkInterfaces(classDirectory: root + "/class", routeTable: root + "/route")
    }

    func testTheDefaultRoutesInterfaceWins() throws {
        try interface("lo", mac: "00:00:00:00:00:00", physical: false)
        try interface("docker0", mac: "02:42:AC:11:00:01", physical: false)
        try interface("eth0", mac: "b8:27:eb:00:00:01", physical: true)
        try interface("wlan0", mac: "B8:27:EB:12:34:56", physical: true)
        try routes([
            "wlan0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0",
            "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0",
        ])
        XCTAssertEqual(interfaces.primaryMAC(), "b8:27:eb:12:34:56")
    }

    func testWithoutADefaultRouteTheFirstPhysicalInterface() throws {
        try interface("docker0", mac: "02:42:ac:11:00:01", physical: false)
        try interface("wlan0", mac: "b8:27:eb:12:34:56", physical: true)
        try interface("eth0", mac: "00:00:00:00:00:00", physical: true)
        try routes([])
        XCTAssertEqual(interfaces.primaryMAC(), "b8:27:eb:12:34:56", "a zero address is no address")
        try routes(["docker0\t00000000\t0100A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0"])
        XCTAssertEqual(interfaces.primaryMAC(), "02:42:ac:11:00:01")
    }

    func testNothingUsable() throws {
        try interface("lo", mac: "00:00:00:00:00:00", physical: false)
        try interface("eth0", mac: "not-a-mac", physical: true)
        XCTAssertNil(interfaces.primaryMAC())
    }
}
