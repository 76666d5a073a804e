import Foundation
import Synchronization
import XCTest

@testable import SusiCore
@testable import SusiModel
@testable import SusiPipeline
@testable import SusiServer

/// The web page at `/` in a real browser (headless Chromium): the live view fed by
/// Server-Sent Events, the level meter, history, timers, examples and inline validation.
/// A same-origin harness page drives the real page in a window of its own (the page refuses
/// to be framed) and writes what it saw into
/// `#result`, which the test reads from Chromium's `--dump-dom`.
final class DashboardPageTests: XCTestCase {
    private var fixture: SetupFixture!
    private let broadcaster = EventBroadcaster()
    private let pipeline = PipelineStatus()
    private let hearing = HearingCounters()
    private var history: InteractionLog!
    private var timers: PlannedAnswers!
    private var lists: NamedLists!
    /// The places the page set as the location.
    private let located = Places()

    private final class Places: Sendable {
        let list = Mutex<[String]>([])
    }

    /// The harness's shared part: `waitFor` polls a condition, `done` reports.
    ///
    /// Without virtual time (which stands still while the live view's stream is open) Chromium
    /// dumps the DOM at the load event, so the harness holds that back with a script the server
    /// answers only once the harness has posted its result to `/test-result`.
    private static func harness(_ steps: String) -> String {
        #"""
        <!DOCTYPE html><html><body><div id="result">pending</div>
        <script>
        var page = window.open("/", "page");
        var result = document.getElementById("result");
        var seen = [];
        function waitFor(test, then, tries) {
          var passed = false;
          try { passed = test(); } catch (e) {}
          if (passed) { then(); return; }
          if (tries <= 0) { finish("timeout after: " + seen.join(" | ")); return; }
          setTimeout(function () { waitFor(test, then, tries - 1); }, 100);
        }
        function note(text) { seen.push(text); }
        function finish(text) {
          page.susiPage.stopLive();
          result.textContent = text;
          fetch("/test-result", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(text) });
        }
        function done() { finish("done: " + seen.join(" | ")); }
        function text(doc, id) { return doc.getElementById(id).textContent; }
        waitFor(function () { return page.document.body.getAttribute("data-ready") === "yes"; }, function () {
          var doc = page.document;
        """# + steps + #"""
            }, 600);
            </script>
            <script src="/test-hold.js"></script>
            </body></html>
            """#
    }

    override func setUpWithError() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.chromium ?? "") else {
            throw XCTSkip("Chromium is not installed (apt-get install chromium)")
        }
    }

    override func tearDown() {
        fixture?.tearDown()
    }

    private static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(
        where: FileManager.default.isExecutableFile)

    private func startServer(steps: String) throws {
        let reported = DispatchSemaphore(value: 0)
        fixture = try SetupFixture(extraRoutes: { router in
            router.get("/test-harness") { _ in .html(Self.harness(steps)) }
            router.post("/test-result") { _ in
                reported.signal()
                return .text("ok")
            }
            router.get("/test-hold.js") { _ in
                _ = reported.wait(timeout: .now() + 90)
                return ServerResponse(contentType: "text/javascript", body: Data("/* reported */".utf8))
            }
        }) { [self] directory, store in
            history = InteractionLog(path: directory + "/history.json") { (try? store.load())?.privacy.mode ?? false }
            timers = PlannedAnswers(path: directory + "/timers.json")
            lists = NamedLists(path: directory + "/lists.json")
            var dashboard = SpeakerDashboard(
                events: broadcaster, history: history, hearing: hearing, pipeline: pipeline, timers: timers,
                examples: {
                    [
                        ExampleRequest(skill: "Timer", query: "set a timer for 5 minutes"),
                        ExampleRequest(skill: "Clock", query: "what time is it"),
                    ]
                },
                locate: { [located] place throws(ConfigError) in
                    guard place == "Berlin" else { throw ConfigError(.badValue, "'\(place)' is not a city we know") }
                    located.list.withLock { $0.append(place) }
                    return "Berlin: latitude 52.5, longitude 13.36"
                })
            dashboard.lists = lists
            return dashboard
        }
    }

    /// Starts Chromium on the harness; `whileRunning` runs meanwhile; returns the DOM dumped
    /// once the harness reported (at the latest after `timeoutMs`).
    private func runChromium(timeoutMs: Int = 120_000, whileRunning: () throws -> Void = {}) throws -> String {
        let chromium = try XCTUnwrap(Self.chromium)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--disable-popup-blocking", "--user-data-dir=\(fixture.directory)/chromium-profile", "--timeout=\(timeoutMs)",
            "--dump-dom",
            fixture.base + "/test-harness",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = fixture.directory
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let dom = Mutex(Data())
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            dom.withLock { $0.append(data) }
        }
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        try whileRunning()
        XCTAssertTrue(eventually(timeout: Double(timeoutMs) / 1000 + 30) { !process.isRunning }, "Chromium finished")
        // What is left in the pipe arrives through the handler; the browser's helpers may keep
        // the pipe open a moment longer, so the end of the dump is waited for, not EOF.
        _ = eventually(timeout: 5) { dom.withLock { String(decoding: $0, as: UTF8.self).contains("</html>") } }
        output.fileHandleForReading.readabilityHandler = nil
        return dom.withLock { String(decoding: $0, as: UTF8.self) }
    }

    private func events(heard: String, answer: String) -> [PipelineEvent] {
        [
            .init(.wake(phrase: "susi"), wallMs: 1, audioMs: 1), .init(.listening, wallMs: 2, audioMs: 2),
            .init(.transcript(text: heard), wallMs: 3, audioMs: 3),
            .init(
                .answer(query: heard, actionsJSON: #"[{"type":"answer"},{"type":"audio_play"}]"#, skill: "music"), wallMs: 4,
                audioMs: 4),
            .init(.speakStart(text: answer), wallMs: 5, audioMs: 5), .init(.idle, wallMs: 6, audioMs: 6),
        ]
    }

    /// What the pipeline emits reaches the open page through `/events` as it happens; the
    /// level meter shows the pipeline's input level while it listens; after the interaction
    /// the history and today's wake figures show it; the test-voice button speaks a sample.
    func testTheLiveViewShowsWhatTheSpeakerHearsAndSays() throws {
        try startServer(
            steps: #"""
                waitFor(function () { return /play some jazz/.test(text(doc, "live")) && /Playing jazz/.test(text(doc, "live")); }, function () {
                  note("live=" + Array.prototype.map.call(doc.getElementById("live").children, function (li) { return li.textContent; }).join(" / "));
                  waitFor(function () { return /listening/.test(text(doc, "phase")); }, function () {
                    note("meter=" + doc.getElementById("level").value + " phase=" + text(doc, "phase"));
                    waitFor(function () { return doc.getElementById("history").children.length === 1; }, function () {
                      note("history=" + text(doc, "history"));
                      waitFor(function () { return /Wakes today1/.test(text(doc, "hearing")); }, function () {
                        note("hearing=" + text(doc, "hearing"));
                        doc.getElementById("test-voice").click();
                        waitFor(function () { return /Speaking/.test(text(doc, "message")); }, done, 300);
                      }, 300);
                    }, 300);
                  }, 300);
                }, 600);
                """#)
        pipeline.enter(.listening)
        pipeline.advance(to: .start, level: 0.5)
        let dom = try runChromium {
            XCTAssertTrue(eventually(timeout: 90) { self.broadcaster.subscriberCount >= 1 }, "the page opened /events")
            for event in events(heard: "play some jazz", answer: "Playing jazz.") {
                FanOutEventSink([history, hearing, broadcaster]).emit(event)
            }
        }
        XCTAssertTrue(dom.contains("done: "), dom)
        XCTAssertTrue(dom.contains("live=Playing jazz. / actions: audio_play / play some jazz / Woke up (“susi”)"), dom)
        XCTAssertTrue(dom.contains("meter=0.5 phase=(listening)"), dom)
        XCTAssertTrue(dom.contains("history=") && dom.contains("play some jazz→ Playing jazz."), dom)
        XCTAssertTrue(
            dom.contains("hearing=Wake word“susi”Engineneural, verifiedThresholdas trainedWakes today1Likely false wakes today0"),
            dom)
        XCTAssertTrue(
            eventually(timeout: 5) { self.fixture.control.commands.contains { $0.hasPrefix("say Hello, this is how I sound") } },
            "the test-voice button spoke a sample: \(fixture.control.commands)")
    }

    /// History, timers, examples and the full settings list, as a person uses them: an
    /// invalid value shows the validation's message beside its field, a timer is cancelled,
    /// the history is cleared, and privacy mode keeps it empty.
    func testHistoryTimersExamplesAndInlineValidation() throws {
        try startServer(
            steps: #"""
                note("examples=" + text(doc, "examples"));
                note("history=" + doc.getElementById("history").children.length + ":" + text(doc, "history"));
                var field = doc.getElementById("setting-stt.end_silence_ms");
                field.value = "5";
                field.dispatchEvent(new Event("change"));
                waitFor(function () { return /invalid/.test(doc.getElementById("msg-stt.end_silence_ms").className); }, function () {
                  note("inline=" + text(doc, "msg-stt.end_silence_ms") + " field=" + field.className);
                  var stretch = Array.prototype.filter.call(doc.getElementById("timers").children, function (li) { return /Stretch/.test(li.textContent); })[0];
                  stretch.querySelector("button").click();
                  waitFor(function () { return !/Stretch/.test(text(doc, "timers")); }, function () {
                    note("timers=" + text(doc, "timers"));
                    doc.getElementById("clear-history").click();
                    waitFor(function () { return doc.getElementById("history").children.length === 0; }, function () {
                      note("cleared=" + text(doc, "history-note"));
                      var privacy = doc.getElementById("privacy");
                      privacy.checked = true;
                      privacy.dispatchEvent(new Event("change"));
                      waitFor(function () { return /Privacy mode is on/.test(text(doc, "history-note")); }, function () {
                        note("privacy=" + text(doc, "history-note") + " items=" + doc.getElementById("history").children.length);
                        done();
                      }, 300);
                    }, 300);
                  }, 300);
                }, 300);
                """#)
        let sink = FanOutEventSink([history, hearing, broadcaster])
        for event in events(heard: "what time is it", answer: "It is noon.")
            + events(heard: "tell me a joke", answer: "Knock knock.")
        {
            sink.emit(event)
        }
        try timers.add("Your tea is ready.", inMilliseconds: 300_000)
        try timers.add("Stretch!", inMilliseconds: 600_000)

        let dom = try runChromium()
        XCTAssertTrue(dom.contains("done: "), dom)
        XCTAssertTrue(dom.contains("examples=“set a timer for 5 minutes” Timer“what time is it” Clock"), dom)
        XCTAssertTrue(dom.contains("history=2:"), dom)
        XCTAssertTrue(dom.contains("tell me a joke→ Knock knock."), dom)
        XCTAssertTrue(dom.contains("inline=stt.end_silence_ms"), dom)
        XCTAssertTrue(dom.contains("100...5000") || dom.contains("100-5000") || dom.contains("100 to 5000"), dom)
        XCTAssertTrue(dom.contains("field=invalid"), dom)
        XCTAssertTrue(dom.contains("timers=Timer: Your tea is ready."), dom)
        XCTAssertTrue(dom.contains("cleared=Nothing yet."), dom)
        XCTAssertTrue(dom.contains("privacy=Privacy mode is on: nothing is kept. items=0"), dom)

        XCTAssertEqual(timers.pending.map(\.text), ["Your tea is ready."], "the timer was cancelled")
        XCTAssertEqual(try fixture.config.stt.endSilenceMs, 600, "the invalid value was not saved")
        XCTAssertEqual(try fixture.config.privacy.mode, true)
        sink.emit(.init(.wake(phrase: "susi"), wallMs: 9, audioMs: 9))
        sink.emit(.init(.idle, wallMs: 10, audioMs: 10))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory + "/history.json"), "nothing stored")
    }

    /// Issue 53: alarms and reminders are shown with their kind and time and cancelled like
    /// timers; the lists are shown, an item is removed, one added, and a list cleared.
    func testAlarmsRemindersAndListsOnThePage() throws {
        try startServer(
            steps: #"""
                note("timers=" + Array.prototype.map.call(doc.getElementById("timers").children, function (li) { return li.getAttribute("data-kind") + ":" + li.textContent.replace(/in \d+ s/, "in N s"); }).join(" / "));
                note("lists=" + text(doc, "lists"));
                var alarm = Array.prototype.filter.call(doc.getElementById("timers").children, function (li) { return li.getAttribute("data-kind") === "alarm"; })[0];
                alarm.querySelector("button").click();
                waitFor(function () { return !/Alarm/.test(text(doc, "timers")); }, function () {
                  var milk = Array.prototype.filter.call(doc.querySelectorAll("[data-list=shopping] li"), function (li) { return /milk/.test(li.textContent); })[0];
                  milk.querySelector("button").click();
                  waitFor(function () { return !/milk/.test(text(doc, "lists")); }, function () {
                    note("removed=" + text(doc, "lists"));
                    doc.getElementById("list-item").value = "bread";
                    doc.getElementById("list-add-button").click();
                    waitFor(function () { return /bread/.test(text(doc, "lists")); }, function () {
                      note("added=" + text(doc, "lists"));
                      Array.prototype.filter.call(doc.querySelectorAll("#lists > button"), function (b) { return /to-do/.test(b.textContent); })[0].click();
                      waitFor(function () { return !/to-do/.test(text(doc, "lists")); }, function () {
                        note("cleared=" + text(doc, "lists"));
                        done();
                      }, 300);
                    }, 300);
                  }, 300);
                }, 300);
                """#)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = try XCTUnwrap(TimeZone(identifier: "UTC"))
        try timers.add(
            "Wake up!", atNext: DateComponents(hour: 7, minute: 0, second: 0), in: utc, kind: .alarm, repeats: .weekdays)
        try timers.add("Reminder: call your mom.", inMilliseconds: 600_000, kind: .reminder)
        try lists.add("milk", to: "shopping")
        try lists.add("eggs", to: "shopping")
        try lists.add("call the bank", to: "to-do")

        let dom = try runChromium()
        XCTAssertTrue(dom.contains("done: "), dom)
        XCTAssertTrue(dom.contains("reminder:Reminder: Reminder: call your mom. — in N s Cancel"), dom)
        XCTAssertTrue(dom.contains("alarm:Alarm: Wake up! — at 7 AM on weekdays, in N s Cancel"), dom)
        XCTAssertTrue(dom.contains("lists=shoppingmilk Removeeggs RemoveClear shopping listto-docall the bank Remove"), dom)
        XCTAssertTrue(dom.contains("removed=shoppingeggs Remove"), dom)
        XCTAssertTrue(dom.contains("added=shoppingeggs Removebread Remove"), dom)
        XCTAssertTrue(dom.contains("cleared=shoppingeggs Removebread RemoveClear shopping list"), dom)
        XCTAssertEqual(timers.pending.map(\.kind), [.reminder], "the alarm was cancelled")
        XCTAssertEqual(lists.items("shopping"), ["eggs", "bread"])
        XCTAssertEqual(NamedLists(path: fixture.directory + "/lists.json").names, ["shopping"], "saved")
    }

    func testTheLocationIsSetByPlaceNameAndAnUnknownPlaceIsExplained() throws {
        try startServer(
            steps: #"""
                var field = doc.getElementById("location");
                var message = doc.getElementById("msg-location");
                field.value = "Atlantis";
                doc.getElementById("set-location").click();
                waitFor(function () { return /invalid/.test(message.className); }, function () {
                  note("unknown=" + message.textContent + " field=" + field.className);
                  field.value = "Berlin";
                  doc.getElementById("set-location").click();
                  waitFor(function () { return /saved/.test(message.className); }, function () {
                    note("set=" + message.textContent + " field=" + field.className);
                    note("hotspot=" + text(doc, "hotspot"));
                    done();
                  }, 300);
                }, 300);
                """#)
        let dom = try runChromium()
        XCTAssertTrue(dom.contains("done: "), dom)
        XCTAssertTrue(dom.contains("unknown='Atlantis' is not a city we know field=invalid"), dom)
        XCTAssertTrue(dom.contains("set=Set Berlin: latitude 52.5, longitude 13.36 field="), dom)
        XCTAssertFalse(dom.contains("set=Set Berlin: latitude 52.5, longitude 13.36 field=invalid"), dom)
        XCTAssertEqual(located.list.withLock { $0 }, ["Berlin"])
        let passphrase = try XCTUnwrap(HotspotPassphraseFile(configStore: fixture.store).passphrase)
        XCTAssertTrue(dom.contains("hotspot=First-setup Wi-Fi “SUSI.AI”: password \(passphrase)"), dom)
    }
}
