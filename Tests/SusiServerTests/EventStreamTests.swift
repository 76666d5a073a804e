import Foundation
import Synchronization
import XCTest

@testable import SusiServer

/// The Server-Sent Events framing and bounds of `EventStream`, without a server.
final class EventStreamTests: XCTestCase {
    private func drain(_ stream: EventStream, limit: Int = 4096) -> String {
        var text = ""
        while let data = stream.read(limit: limit, heartbeat: 0.01) {
            let chunk = String(decoding: data, as: UTF8.self)
            if chunk == ":\n\n" { break }
            text += chunk
        }
        return text
    }

    func testEventsAreFramedAsSSEAndMultiLineDataIsSplit() {
        let stream = EventStream(retryMilliseconds: 2000)
        stream.send(event: "transcript", data: #"{"text": "hi"}"#)
        stream.send(data: "one\ntwo\r")
        stream.send(event: "bad\nname", data: "x")
        XCTAssertEqual(
            drain(stream),
            "retry: 2000\n\nevent: transcript\ndata: {\"text\": \"hi\"}\n\ndata: one\ndata: two\n\nevent: badname\ndata: x\n\n")
    }

    func testReadsRespectTheLimitAndAnIdleStreamSendsAHeartbeat() {
        let stream = EventStream()
        _ = drain(stream)
        stream.send(data: "abcdefgh")
        XCTAssertEqual(stream.read(limit: 4, heartbeat: 1).map { String(decoding: $0, as: UTF8.self) }, "data")
        XCTAssertEqual(stream.read(limit: 100, heartbeat: 1).map { String(decoding: $0, as: UTF8.self) }, ": abcdefgh\n\n")
        XCTAssertEqual(stream.read(limit: 100, heartbeat: 0.05).map { String(decoding: $0, as: UTF8.self) }, ":\n\n")
    }

    func testASlowClientLosesTheOldestEventsNotTheServersMemory() {
        let stream = EventStream(capacity: 3)
        for number in 1...10 { stream.send(data: String(number)) }
        XCTAssertEqual(drain(stream), "data: 8\n\ndata: 9\n\ndata: 10\n\n")
    }

    func testClosingEndsTheReadAndRunsTheCloseActionsOnce() {
        let stream = EventStream()
        let closed = Mutex(0)
        stream.whenClosed { closed.withLock { $0 += 1 } }
        _ = drain(stream)
        let reader = Thread {
            while stream.read(limit: 100, heartbeat: 30) != nil {}
        }
        reader.start()
        stream.close()
        stream.close()
        XCTAssertTrue(eventually(timeout: 5) { reader.isFinished }, "a blocked read returns when the stream closes")
        XCTAssertEqual(closed.withLock { $0 }, 1)
        stream.whenClosed { closed.withLock { $0 += 10 } }
        XCTAssertEqual(closed.withLock { $0 }, 11, "an action added after closing runs at once")
        stream.send(data: "late")
        XCTAssertNil(stream.read(limit: 100, heartbeat: 0.01))
    }
}
