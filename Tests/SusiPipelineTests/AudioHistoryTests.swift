import XCTest

@testable import SusiCore
@testable import SusiPipeline

final class AudioHistoryTests: XCTestCase {
    /// Frame `f` of the test input holds `f` (wrapped into Int16), so a slice names its frames.
    private func frames(_ range: Range<Int>) -> [Int16] {
        range.map { Int16(truncatingIfNeeded: $0) }
    }

    func testBeforeItIsFullEverythingHeardIsKept() {
        var history = AudioHistory(capacity: 100)
        history.append(frames(0..<30))
        history.append(frames(30..<70))
        XCTAssertEqual(history.end, SamplePosition(frames: 70))
        XCTAssertEqual(history.samples(from: .start), frames(0..<70))
        XCTAssertEqual(history.samples(from: SamplePosition(frames: 25), to: SamplePosition(frames: 40)), frames(25..<40))
    }

    func testOnlyTheLastCapacityFramesAreKeptAcrossTheWrap() {
        var history = AudioHistory(capacity: 100)
        history.append(frames(0..<70))
        history.append(frames(70..<160))
        XCTAssertEqual(history.end, SamplePosition(frames: 160))
        XCTAssertEqual(history.samples(from: .start), frames(60..<160), "older frames are clamped away")
        let acrossTheStorageEnd = history.samples(from: SamplePosition(frames: 90), to: SamplePosition(frames: 110))
        XCTAssertEqual(acrossTheStorageEnd, frames(90..<110))
        XCTAssertEqual(history.samples(from: SamplePosition(frames: 150), to: SamplePosition(frames: 500)), frames(150..<160))
        XCTAssertEqual(history.samples(from: SamplePosition(frames: 200)), [], "nothing after the end")
        XCTAssertEqual(history.samples(from: SamplePosition(frames: 120), to: SamplePosition(frames: 110)), [])
    }

    func testAChunkLongerThanTheHistoryKeepsItsEnd() {
        var history = AudioHistory(capacity: 100)
        history.append(frames(0..<10))
        history.append(frames(10..<260))
        XCTAssertEqual(history.end, SamplePosition(frames: 260))
        XCTAssertEqual(history.samples(from: .start), frames(160..<260))
        history.append(frames(260..<300))
        XCTAssertEqual(history.samples(from: .start), frames(200..<300), "the circle goes on after it")
    }

    /// Any chunking gives what a plain array of the whole input, cut to the last `capacity`
    /// frames, gives.
    func testAnyChunkingMatchesTheWholeInput() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let capacity = Int.random(in: 1...50, using: &generator)
            var history = AudioHistory(capacity: capacity)
            var total = 0
            for _ in 0..<Int.random(in: 1...20, using: &generator) {
                let count = Int.random(in: 0...(capacity * 2), using: &generator)
                history.append(frames(total..<total + count))
                total += count
                let from = Int.random(in: 0...total + 5, using: &generator)
                let to = Int.random(in: 0...total + 5, using: &generator)
                let kept = max(0, total - capacity)
                let lower = min(max(from, kept), total)
                let upper = min(max(to, lower), total)
                XCTAssertEqual(
                    history.samples(from: SamplePosition(frames: from), to: SamplePosition(frames: to)),
                    frames(lower..<upper), "capacity \(capacity), \(total) frames, \(from)..<\(to)")
            }
            XCTAssertEqual(history.end, SamplePosition(frames: total))
        }
    }
}
