import Foundation
import SusiCore
import SusiModel
import SusiPipeline
import SusiServer
import Synchronization
import XCTest

/// The web page's data routes over a real server: the live event stream, history with
/// privacy, timers, examples, level, hearing figures and the full settings list.
final class DashboardRoutesTests: XCTestCase {
    private var fixture: SetupFixture!
    private let broadcaster = EventBroadcaster()
    private let pipeline = PipelineStatus()
    private let hearing = HearingCounters()
    private var history: InteractionLog!
    private var timers: PlannedAnswers!
    private var lists: NamedLists!

    override func setUpWithError() throws {
        try start()
    }

    private func start(limits: ServerLimits = SetupService.limits) throws {
        fixture = try SetupFixture(limits: limits) { [self] directory, store in
            history = InteractionLog(path: directory + "/history.json") { (try? store.load())?.privacy.mode ?? false }
            timers = PlannedAnswers(path: directory + "/timers.json")
            lists = NamedLists(path: directory + "/lists.json")
            var dashboard = SpeakerDashboard(
                events: broadcaster, history: history, hearing: hearing, pipeline: pipeline, timers: timers,
                examples: { [ExampleRequest(skill: "Timer", query: "set a timer for 5 minutes")] })
            dashboard.lists = lists
            return dashboard
        }
    }

    override func tearDown() {
        fixture.tearDown()
    }

    /// One spoken interaction, as the pipeline emits it.
    private func interaction(heard: String, answer: String) -> [PipelineEvent] {
        [
            .init(.wake(phrase: "susi"), wallMs: 1, audioMs: 1), .init(.listening, wallMs: 2, audioMs: 2),
            .init(.transcript(text: heard), wallMs: 3, audioMs: 3),
            .init(
                .answer(
                    query: heard, actionsJSON: #"[{"type":"answer","expression":"x"},{"type":"audio_play"}]"#, skill: "music"),
                wallMs: 4, audioMs: 4),
            .init(.speakStart(text: answer), wallMs: 5, audioMs: 5), .init(.speakEnd, wallMs: 6, audioMs: 6),
            .init(.idle, wallMs: 7, audioMs: 7),
        ]
    }

    private func emit(_ events: [PipelineEvent]) {
        let sink = FanOutEventSink([history, hearing, broadcaster])
        for event in events { sink.emit(event) }
    }

    /// A `curl -N` reading `/events` in the background; `output` is what arrived so far.
    private final class StreamReader: Sendable {
        let process = Process()
        private let received = Mutex(Data())

        init(url: String, headers: [String: String] = [:]) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments =
                ["-s", "-N", "-i", "--max-time", "20"] + headers.flatMap { ["-H", "\($0.key): \($0.value)"] } + [url]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                self?.received.withLock { $0.append(data) }
            }
            try process.run()
        }

        var output: String { received.withLock { String(decoding: $0, as: UTF8.self) } }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

    func testEventStreamSendsThePipelinesEventsAndEndsWhenTheServerStops() throws {
        let reader = try StreamReader(url: fixture.base + "/events")
        XCTAssertTrue(eventually(timeout: 10) { self.broadcaster.subscriberCount == 1 }, "the stream subscribed")
        emit(interaction(heard: "play some jazz", answer: "Playing jazz."))
        XCTAssertTrue(eventually(timeout: 10) { reader.output.contains("event: idle") }, reader.output)
        let output = reader.output
        XCTAssertTrue(output.contains("text/event-stream"), output)
        XCTAssertTrue(output.contains("event: transcript\ndata: {\"event\": \"transcript\""), output)
        XCTAssertTrue(output.contains("\"text\": \"play some jazz\""), output)
        XCTAssertTrue(output.contains("event: speak_start\ndata: "), output)

        fixture.server.stop()
        XCTAssertTrue(eventually(timeout: 5) { !reader.process.isRunning }, "the stream ended with the server")
        XCTAssertEqual(broadcaster.subscriberCount, 0, "the subscription was cancelled")
    }

    func testEventStreamsAreCappedAndHeartbeatsNoticeAClientThatLeft() throws {
        fixture.tearDown()
        try start(
            limits: ServerLimits(
                maxConnections: 8, maxConnectionsPerIP: 8, connectionTimeoutSeconds: 15, maxBodyBytes: 4096,
                maxEventStreams: 1, eventStreamHeartbeatSeconds: 0.2))
        let first = try StreamReader(url: fixture.base + "/events")
        XCTAssertTrue(eventually(timeout: 10) { self.broadcaster.subscriberCount == 1 })
        let second = try fixture.get("/events")
        XCTAssertEqual(second.status, 503, second.body)
        XCTAssertEqual(second.json["code"] as? String, "server-busy")
        XCTAssertTrue(eventually(timeout: 5) { first.output.contains(":\n\n") }, "a heartbeat comment: \(first.output)")

        first.process.terminate()
        first.process.waitUntilExit()
        XCTAssertTrue(eventually(timeout: 5) { self.broadcaster.subscriberCount == 0 }, "the stream closed after the client left")
        let again = try StreamReader(url: fixture.base + "/events")
        XCTAssertTrue(eventually(timeout: 10) { self.broadcaster.subscriberCount == 1 }, "a new stream is admitted")
        again.process.terminate()
    }

    func testHistoryKeepsInteractionsUntilClearedAndNothingInPrivacyMode() throws {
        emit(interaction(heard: "play some jazz", answer: "Playing jazz."))
        emit(interaction(heard: "what time is it", answer: "It is noon."))
        var reply = try fixture.get("/history")
        let interactions = try XCTUnwrap(reply.json["interactions"] as? [[String: Any]])
        XCTAssertEqual(interactions.map { $0["heard"] as? String }, ["what time is it", "play some jazz"])
        XCTAssertEqual(interactions.first?["answers"] as? [String], ["It is noon."])
        XCTAssertEqual(interactions.first?["actions"] as? [String], ["audio_play"])
        XCTAssertEqual(reply.json["privacy"] as? Bool, false)
        XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.directory + "/history.json"))
        XCTAssertEqual(try fixture.mode(fixture.directory + "/history.json") & 0o777, 0o600)

        XCTAssertEqual(try fixture.postJSON("/history/clear", "{}").status, 200)
        reply = try fixture.get("/history")
        XCTAssertEqual((reply.json["interactions"] as? [Any])?.count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory + "/history.json"))

        emit(interaction(heard: "tell me a joke", answer: "Knock knock."))
        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"privacy.mode","value":"true"}"#).status, 200)
        reply = try fixture.get("/history")
        XCTAssertEqual(reply.json["privacy"] as? Bool, true)
        XCTAssertEqual((reply.json["interactions"] as? [Any])?.count, 0, "privacy mode forgets what was kept")
        emit(interaction(heard: "what is the weather", answer: "Sunny."))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory + "/history.json"), "nothing stored")
        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"privacy.mode","value":"false"}"#).status, 200)
        XCTAssertEqual((try fixture.get("/history").json["interactions"] as? [Any])?.count, 0)
    }

    func testTimersAreListedAndCancelledById() throws {
        try timers.add("Your tea is ready.", inMilliseconds: 300_000)
        try timers.add("Stretch!", inMilliseconds: 600_000)
        let listed = try XCTUnwrap(try fixture.get("/timers").json["timers"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["text"] as? String }, ["Your tea is ready.", "Stretch!"])
        XCTAssertEqual(listed.first?["seconds_left"] as? Int, 300)
        let id = try XCTUnwrap(listed.last?["id"] as? String)

        let cancelled = try fixture.postJSON("/timers/cancel", #"{"id":"\#(id)"}"#)
        XCTAssertEqual(cancelled.status, 200, cancelled.body)
        XCTAssertEqual((cancelled.json["timers"] as? [[String: Any]])?.map { $0["text"] as? String }, ["Your tea is ready."])
        XCTAssertEqual(timers.pending.map(\.text), ["Your tea is ready."])
        XCTAssertEqual(try fixture.postJSON("/timers/cancel", #"{"id":"\#(id)"}"#).status, 404)
        XCTAssertEqual(try fixture.postJSON("/timers/cancel", #"{"nope":1}"#).status, 400)
        XCTAssertEqual(try fixture.get("/timers/cancel").status, 405, "state changes are POST only")
    }

    /// Issue 53: alarms and reminders are listed with their kind, time and repetition, and
    /// cancelled like timers.
    func testAlarmsAndRemindersAreListedWithTheirKindAndCancelled() throws {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        try timers.add("Your tea is ready.", inMilliseconds: 300_000)
        let alarm = try XCTUnwrap(
            try timers.add(
                "Wake up!", atNext: DateComponents(hour: 6, minute: 30, second: 0), in: utc, kind: .alarm, repeats: .weekdays))
        try timers.add("Reminder: call your mom.", inMilliseconds: 60_000, kind: .reminder)
        let listed = try XCTUnwrap(try fixture.get("/timers").json["timers"] as? [[String: Any]])
        let byText = Dictionary(uniqueKeysWithValues: listed.map { ($0["text"] as? String ?? "", $0) })
        XCTAssertEqual(byText["Your tea is ready."]?["kind"] as? String, "timer")
        XCTAssertTrue(byText["Your tea is ready."]?["time"] is NSNull, "a countdown has no clock time")
        XCTAssertEqual(byText["Reminder: call your mom."]?["kind"] as? String, "reminder")
        XCTAssertEqual(byText["Wake up!"]?["kind"] as? String, "alarm")
        XCTAssertEqual(byText["Wake up!"]?["time"] as? String, "6:30 AM")
        XCTAssertEqual(byText["Wake up!"]?["repeats"] as? String, "weekdays")
        XCTAssertEqual(byText["Wake up!"]?["id"] as? String, alarm.id)

        let cancelled = try fixture.postJSON("/timers/cancel", #"{"id":"\#(alarm.id)"}"#)
        XCTAssertEqual(cancelled.status, 200, cancelled.body)
        XCTAssertEqual(timers.pending.map(\.kind), [.reminder, .timer])
        XCTAssertEqual(
            PlannedAnswers(path: fixture.directory + "/timers.json").pending(.alarm), [], "the cancel was saved")
    }

    /// Issue 53: the named lists, read, added to, removed from and cleared over HTTP.
    func testListsAreReadChangedAndCleared() throws {
        try lists.add("milk", to: "shopping")
        try lists.add("call the bank", to: "to-do")
        var reply = try fixture.get("/lists")
        XCTAssertEqual(reply.status, 200, reply.body)
        let read = try XCTUnwrap(reply.json["lists"] as? [[String: Any]])
        XCTAssertEqual(read.map { $0["name"] as? String }, ["shopping", "to-do"])
        XCTAssertEqual(read.map { $0["items"] as? [String] }, [["milk"], ["call the bank"]])

        reply = try fixture.postJSON("/lists/add", #"{"list":"my shopping list","item":"eggs"}"#)
        XCTAssertEqual(reply.status, 200, reply.body)
        XCTAssertEqual(lists.items("shopping"), ["milk", "eggs"])
        reply = try fixture.postJSON("/lists/remove", #"{"list":"shopping","item":"milk"}"#)
        XCTAssertEqual(reply.status, 200, reply.body)
        XCTAssertEqual((reply.json["lists"] as? [[String: Any]])?.first?["items"] as? [String], ["eggs"])
        XCTAssertEqual(try fixture.postJSON("/lists/remove", #"{"list":"shopping","item":"milk"}"#).status, 404)
        XCTAssertEqual(try fixture.postJSON("/lists/clear", #"{"list":"todo"}"#).status, 200)
        XCTAssertEqual(lists.names, ["shopping"])
        XCTAssertEqual(try fixture.postJSON("/lists/clear", #"{"list":"to-do"}"#).status, 404, "empty already")
        XCTAssertEqual(try fixture.postJSON("/lists/add", #"{"list":"shopping"}"#).status, 400, "no item")
        XCTAssertEqual(try fixture.postJSON("/lists/add", #"{"item":"tea"}"#).status, 400, "no list")
        XCTAssertEqual(try fixture.get("/lists/clear").status, 405, "state changes are POST only")
        XCTAssertEqual(NamedLists(path: fixture.directory + "/lists.json").items("shopping"), ["eggs"], "saved")
    }

    func testExamplesLevelAndHearingFigures() throws {
        let examples = try runCurl([fixture.base + "/examples"])
        XCTAssertTrue(examples.body.contains(#""query":"set a timer for 5 minutes""#), examples.body)

        let level = try fixture.get("/level")
        XCTAssertEqual(level.json["phase"] as? String, "idle")
        XCTAssertEqual(level.json["level"] as? Double, 0)

        emit(interaction(heard: "hello", answer: "Hi."))
        emit([.init(.wake(phrase: "susi"), wallMs: 8, audioMs: 8), .init(.idle, wallMs: 9, audioMs: 9)])
        let figures = try fixture.get("/hearing")
        let today = try XCTUnwrap(figures.json["today"] as? [String: Any])
        XCTAssertEqual(today["wakes"] as? Int, 2)
        XCTAssertEqual(today["likely_false_wakes"] as? Int, 1)
        XCTAssertEqual((figures.json["wake"] as? [String: Any])?["phrase"] as? String, "susi")
    }

    func testEveryKeyIsListedAndTheSafeOnesCanBeChanged() throws {
        let reply = try runCurl([fixture.base + "/settings/keys"])
        let keys = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
        XCTAssertEqual(keys.count, ConfigSchema.keys.count + ConfigSchema.secrets.count)
        let editable = Dictionary(uniqueKeysWithValues: keys.map { ($0["key"] as? String ?? "", $0["editable"] as? Bool) })
        XCTAssertEqual(editable["stt.end_silence_ms"], true)
        XCTAssertEqual(editable["setup.on_wifi"], false, "a shell command is never set from the network")
        XCTAssertEqual(editable["player.command"], false)

        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"stt.end_silence_ms","value":"800"}"#).status, 200)
        XCTAssertEqual(try fixture.config.stt.endSilenceMs, 800)
        let refused = try fixture.postJSON("/settings", #"{"key":"stt.end_silence_ms","value":"5"}"#)
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue((refused.json["error"] as? String)?.contains("100") == true, refused.body)
        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"player.command","value":"/bin/sh"}"#).status, 400)
        XCTAssertEqual(try fixture.config.player.command, "mpv")
    }

    /// The Home Assistant token is set from the page like any key, kept in its own 0600 file,
    /// and never sent back: the page learns only whether one is set.
    func testASecretIsSetButNeverShownBack() throws {
        let token = "eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu.c2ln"
        let saved = try fixture.postJSON("/settings", #"{"key":"home_assistant.token","value":"\#(token)"}"#)
        XCTAssertEqual(saved.status, 200, saved.body)
        XCTAssertEqual(saved.json["value"] as? String, "(set)")
        XCTAssertFalse(saved.body.contains(token))
        let path = fixture.directory + "/home-assistant-token"
        XCTAssertEqual(try fixture.mode(path) & 0o777, 0o600)
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), token + "\n")

        let reply = try runCurl([fixture.base + "/settings/keys"])
        XCTAssertFalse(reply.body.contains(token), "the key list holds no secret")
        let keys = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
        let entry = try XCTUnwrap(keys.first { $0["key"] as? String == "home_assistant.token" })
        XCTAssertEqual(entry["kind"] as? String, "secret")
        XCTAssertEqual(entry["value"] as? String, "")
        XCTAssertEqual(entry["set"] as? Bool, true)
        XCTAssertFalse(try runCurl([fixture.base + "/settings"]).body.contains(token))
        XCTAssertFalse(
            try String(contentsOfFile: fixture.directory + "/config.json", encoding: .utf8).contains(token),
            "the config file never holds it")
        let refused = try fixture.postJSON("/settings", #"{"key":"home_assistant.token","value":"a b"}"#)
        XCTAssertEqual(refused.status, 400)
        XCTAssertFalse(refused.body.contains("a b"))
    }

    /// After setup every dashboard route is the owner's: 401 without the token, served with it;
    /// the live view streams with it too.
    func testAfterSetupOnlyTheOwnerSeesTheDashboard() throws {
        emit(interaction(heard: "what time is it", answer: "Noon."))
        try timers.add("tea", inMilliseconds: 60_000)
        let token = try fixture.finishSetup()
        let owner = ["Authorization": "Bearer \(token)"]
        try lists.add("milk", to: "shopping")
        for path in ["/events", "/history", "/timers", "/lists", "/examples", "/level", "/hearing", "/settings/keys"] {
            XCTAssertEqual(try fixture.send("GET", path).status, 401, path)
        }
        for path in ["/history/clear", "/timers/cancel", "/lists/add", "/lists/remove", "/lists/clear"] {
            XCTAssertEqual(
                try fixture.send("POST", path, headers: ["Content-Type": "application/json"], body: "{}").status, 401, path)
        }
        XCTAssertEqual(timers.pending.count, 1, "nothing changed")
        XCTAssertEqual(lists.items("shopping"), ["milk"], "nothing changed")
        XCTAssertEqual(history.interactions.count, 1, "nothing changed")
        let seen = try fixture.send("GET", "/history", headers: owner)
        XCTAssertEqual(seen.status, 200)
        XCTAssertEqual((seen.json["interactions"] as? [Any])?.count, 1)
        XCTAssertEqual(try fixture.send("GET", "/timers", headers: owner).status, 200)
        XCTAssertEqual(try fixture.send("GET", "/lists", headers: owner).status, 200)

        let reader = try StreamReader(url: fixture.base + "/events", headers: owner)
        XCTAssertTrue(eventually(timeout: 10) { self.broadcaster.subscriberCount == 1 }, reader.output)
        emit([.init(.wake(phrase: "susi"), wallMs: 1, audioMs: 1)])
        XCTAssertTrue(eventually(timeout: 10) { reader.output.contains("event: wake") }, reader.output)
        XCTAssertTrue(reader.output.contains("frame-ancestors 'none'"), "the stream carries the security headers too")
        reader.process.terminate()
    }

    func testAServerWithoutAPipelineSaysSo() throws {
        fixture.tearDown()
        fixture = try SetupFixture()
        for path in ["/events", "/level", "/history", "/timers", "/lists"] {
            let reply = try fixture.get(path)
            XCTAssertEqual(reply.status, 503, path)
            XCTAssertEqual(reply.json["code"] as? String, "setup-unavailable", path)
        }
        XCTAssertEqual(try fixture.get("/hearing").json["today"] is NSNull, true)
    }
}
