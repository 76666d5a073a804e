import Foundation
import SusiCore
import XCTest

final class RingBufferTests: XCTestCase {
    func testReadsBackInOrderAcrossManyWrapArounds() {
        let ring = RingBuffer(capacity: 37)
        var next: Int16 = 0
        var expected: Int16 = 0
        for round in 0..<500 {
            let size = round % 23 + 1
            let batch = (0..<size).map { offset in next &+ Int16(truncatingIfNeeded: offset) }
            next &+= Int16(truncatingIfNeeded: size)
            XCTAssertTrue(ring.write(batch))
            XCTAssertEqual(ring.available, size)
            let read = ring.read(maxCount: 100)
            XCTAssertEqual(read.count, size)
            for value in read {
                XCTAssertEqual(value, expected)
                expected &+= 1
            }
        }
        XCTAssertEqual(ring.overflowCount, 0)
        XCTAssertEqual(ring.readPosition, (0..<500).reduce(0) { $0 + $1 % 23 + 1 })
    }

    func testOverflowDropsTheWholeWriteAndCountsIt() {
        let ring = RingBuffer(capacity: 10)
        XCTAssertTrue(ring.write([1, 2, 3, 4, 5, 6, 7, 8]))
        XCTAssertFalse(ring.write([9, 10, 11]))
        XCTAssertEqual(ring.overflowCount, 3)
        XCTAssertTrue(ring.write([9, 10]))
        XCTAssertFalse(ring.write([11]))
        XCTAssertEqual(ring.overflowCount, 4)
        XCTAssertEqual(ring.read(maxCount: 3), [1, 2, 3])
        XCTAssertTrue(ring.write([11, 12, 13]))
        XCTAssertEqual(ring.read(maxCount: 100), [4, 5, 6, 7, 8, 9, 10, 11, 12, 13])
        XCTAssertEqual(ring.available, 0)
        XCTAssertEqual(ring.read(maxCount: 5), [])
    }

    func testReadRoundsDownToWholeFrames() {
        let ring = RingBuffer(capacity: 16)
        ring.write([1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(ring.read(maxCount: 5, multiple: 2), [1, 2, 3, 4])
        XCTAssertEqual(ring.read(maxCount: 100, multiple: 2), [5, 6])
        XCTAssertEqual(ring.available, 1)
    }

    func testTheWriterUsesAllRoomThatHasBeenRead() {
        let ring = RingBuffer(capacity: 4)
        ring.write([1, 2, 3, 4])
        XCTAssertEqual(ring.read(maxCount: 2), [1, 2])
        XCTAssertEqual(ring.read(maxCount: 2), [3, 4])
        XCTAssertTrue(ring.write([5, 6, 7, 8]))
        XCTAssertFalse(ring.write([9]))
        XCTAssertEqual(ring.read(maxCount: 4), [5, 6, 7, 8])
        XCTAssertTrue(ring.write([9, 10, 11]))
        XCTAssertEqual(ring.discardAll(), 3)
        XCTAssertEqual(ring.available, 0)
        XCTAssertEqual(ring.readPosition, 11)
    }

    func testZeroCapacityDropsEverything() {
        let ring = RingBuffer(capacity: 0)
        XCTAssertFalse(ring.write([1]))
        XCTAssertTrue(ring.write([]))
        XCTAssertEqual(ring.overflowCount, 1)
        XCTAssertEqual(ring.read(maxCount: 1), [])
    }

    func testConcurrentProducerAndConsumerSeeEverySampleInOrder() {
        let ring = RingBuffer(capacity: 1_000)
        let total = 2_000_000
        let producerDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var next = 0
            var batch = [Int16](repeating: 0, count: 257)
            var size = 1
            while next < total {
                size = size % 257 + 1
                let count = min(size, total - next)
                for i in 0..<count { batch[i] = Int16(truncatingIfNeeded: next + i) }
                // A full buffer drops the write, so retry until the consumer makes room.
                while !batch.withUnsafeBufferPointer({ ring.write(UnsafeBufferPointer(rebasing: $0[0..<count])) }) {
                    sched_yield()
                }
                next += count
            }
            producerDone.signal()
        }
        var received = 0
        var mismatches = 0
        var buffer = [Int16](repeating: 0, count: 333)
        while received < total {
            let count = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0) }
            for i in 0..<count where buffer[i] != Int16(truncatingIfNeeded: received + i) {
                mismatches += 1
            }
            received += count
            if count == 0 { sched_yield() }
        }
        producerDone.wait()
        XCTAssertEqual(received, total)
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(ring.available, 0)
        XCTAssertGreaterThan(ring.overflowCount, -1)
    }
}
