import Foundation
import Synchronization
import XCTest

@testable import SusiModel

/// The event sinks behind the web page: the interaction log, the wake counters and the
/// broadcaster for the live view.
final class DashboardSinksTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-dashboard-\(UUID().uuidString)"
    private var path: String { directory + "/history.json" }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func event(_ kind: PipelineEvent.Kind) -> PipelineEvent {
        PipelineEvent(kind, wallMs: 0, audioMs: 0)
    }

    private func interaction(_ heard: String, _ answer: String, actions: String = #"[{"type":"answer"}]"#) -> [PipelineEvent] {
        [
            event(.wake(phrase: "susi")), event(.listening), event(.transcript(text: heard)),
            event(.answer(query: heard, actionsJSON: actions, skill: "chat")), event(.speakStart(text: answer)),
            event(.speakEnd), event(.idle),
        ]
    }

    func testTheLogKeepsTheLastInteractionsNewestFirstAcrossRestarts() throws {
        let log = InteractionLog(path: path, capacity: 3)
        for number in 1...5 { interaction("question \(number)", "answer \(number)").forEach(log.emit) }
        XCTAssertEqual(log.interactions.map(\.heard), ["question 5", "question 4", "question 3"])
        XCTAssertEqual(log.interactions.first?.answers, ["answer 5"])
        XCTAssertEqual(log.interactions.first?.skill, "chat")
        XCTAssertEqual(
            InteractionLog(path: path, capacity: 3).interactions.map(\.heard), ["question 5", "question 4", "question 3"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testTheLogNotesActionsProblemsAndIgnoresSpeechWithoutAWake() {
        let log = InteractionLog(path: nil)
        // A timer going off is not an interaction.
        [event(.speakStart(text: "Your tea is ready.")), event(.speakEnd), event(.idle)].forEach(log.emit)
        XCTAssertTrue(log.interactions.isEmpty)
        interaction("play jazz", "Playing jazz.", actions: #"[{"type":"answer"},{"type":"audio_play"}]"#).dropLast()
            .forEach(log.emit)
        log.emit(event(.play(type: "audio_play", identifier: "abc", identifierType: "youtube")))
        log.emit(event(.idle))
        [
            event(.wake(phrase: "susi")), event(.error(stage: .stt, code: "stt-no-speech", message: "nothing was said")),
            event(.idle),
        ]
        .forEach(log.emit)
        XCTAssertEqual(log.interactions.count, 2)
        XCTAssertEqual(log.interactions[1].actions, ["audio_play", "audio_play youtube:abc"])
        XCTAssertEqual(log.interactions[0].heard, "")
        XCTAssertEqual(log.interactions[0].problem, "stt-no-speech: nothing was said")
    }

    func testPrivacyModeStoresNothingAndForgetsWhatWasKept() throws {
        let privacy = Mutex(false)
        let log = InteractionLog(path: path) { privacy.withLock { $0 } }
        interaction("hello", "Hi.").forEach(log.emit)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        privacy.withLock { $0 = true }
        XCTAssertTrue(log.interactions.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the file is removed")
        interaction("secret", "Shh.").forEach(log.emit)
        privacy.withLock { $0 = false }
        XCTAssertTrue(log.interactions.isEmpty, "nothing was recorded while private")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        interaction("after", "Yes.").forEach(log.emit)
        XCTAssertEqual(log.interactions.map(\.heard), ["after"])
        try log.clear()
        XCTAssertTrue(log.interactions.isEmpty)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testWakesWithoutWordsCountAsLikelyFalseAndTheCountsStartAgainAtMidnight() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? .current
        // 23:59:00 in Berlin on 2026-12-01.
        let now = Mutex(Date(timeIntervalSince1970: 1_796_165_940))
        let day: @Sendable (Date) -> String = { [calendar] date in
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        let counters = HearingCounters(clock: { now.withLock { $0 } }, day: day)
        interaction("what time is it", "Noon.").forEach(counters.emit)
        [event(.wake(phrase: "susi")), event(.listening), event(.idle)].forEach(counters.emit)
        [event(.wake(phrase: "susi")), event(.transcript(text: " ")), event(.idle)].forEach(counters.emit)
        // Speech with no wake (a timer) counts for nothing.
        [event(.speakStart(text: "Tea.")), event(.idle)].forEach(counters.emit)
        XCTAssertEqual(
            counters.today, HearingCounters.Figures(day: "2026-12-01", wakes: 3, likelyFalseWakes: 2, commandsHeard: 1))
        now.withLock { $0 = $0.addingTimeInterval(120) }
        XCTAssertEqual(
            counters.today, HearingCounters.Figures(day: "2026-12-02", wakes: 0, likelyFalseWakes: 0, commandsHeard: 0))
    }

    func testTheBroadcasterReachesEachSubscriberUntilItCancels() {
        let broadcaster = EventBroadcaster()
        let first = Mutex<[String]>([]), second = Mutex<[String]>([])
        let one = broadcaster.subscribe { event in first.withLock { $0.append(event.name) } }
        broadcaster.emit(event(.wake(phrase: "susi")))
        let two = broadcaster.subscribe { event in second.withLock { $0.append(event.name) } }
        XCTAssertEqual(broadcaster.subscriberCount, 2)
        broadcaster.emit(event(.listening))
        one.cancel()
        one.cancel()
        broadcaster.emit(event(.idle))
        two.cancel()
        broadcaster.emit(event(.ready))
        XCTAssertEqual(first.withLock { $0 }, ["wake", "listening"])
        XCTAssertEqual(second.withLock { $0 }, ["listening", "idle"])
        XCTAssertEqual(broadcaster.subscriberCount, 0)
    }

    func testAHistoryWrittenWithFoundationsISO8601DatesStillLoads() throws {
        let directory = NSTemporaryDirectory() + "susi-timestamp-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let started = Date(timeIntervalSince1970: 1_796_204_514)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let old = [InteractionLog.Interaction(started: started, heard: "what time is it", answers: ["Noon."])]
        try encoder.encode(old).write(to: URL(fileURLWithPath: directory + "/history.json"))
        XCTAssertEqual(InteractionLog(path: directory + "/history.json").interactions, old)
    }
}
