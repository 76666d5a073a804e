import Foundation
import Synchronization
import XCTest

@testable import SusiBrain

/// The constructs community skills use, run as SUSI runs them: our own skill-data tree
/// (Tests/SkillData, laid out like fossasia/susi_skill_data) and focused cases.
final class SkillDataTreeTests: XCTestCase {
    private static let tree = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SkillData").path

    private func context(_ memory: SkillMemory? = SkillMemory()) -> BrainContext {
        var context = BrainContext.examples
        context.memory = memory
        return context
    }

    func testEveryExampleOfTheOwnTreePasses() throws {
        let scripts = try XCTUnwrap(ProcessScriptRunner.besideExecutable(), "susi-js is built with the tests")
        let report = try SkillCompatibility.run(directory: Self.tree, scripts: scripts)
        XCTAssertEqual(report.files, 10)
        XCTAssertEqual(report.filesLoaded, 10)
        XCTAssertEqual(report.failures, [])
        XCTAssertEqual(report.aloneFailures, [])
        XCTAssertEqual(report.offlinePassed, report.offlineExamples)
        XCTAssertEqual(report.offlineExamples, 27)
        XCTAssertEqual(report.leakedSyntax, 0)
        XCTAssertEqual(report.invalidExamples, 0)
    }

    func testTreeLoadingNamesSkillsByPathAndRefusesTheLoneCatchAll() throws {
        let brain = try Brain(directory: Self.tree, options: .skillData(), pick: { _ in 0 })
        XCTAssertEqual(
            brain.skills.map(\.id),
            [
                "Answers/en/sequence", "Answers/en/trivia", "Memory/en/quiz", "Memory/en/remember",
                "Ordering/en/chitchat", "Ordering/en/lighthouse", "Ordering/en/weather", "Reader/en/odd",
                "Scripts/en/measures", "Scripts/en/numbers",
            ])
        let lint = brain.diagnostics.map { "\(($0.file as NSString).lastPathComponent):\($0.line)" }
        XCTAssertEqual(lint, ["odd.txt:11", "odd.txt:13", "odd.txt:22"])
        // Without the catch-all nothing answers an unknown query, and certainly no syntax.
        let reply = try brain.answer("what is the capital of india", context: context())
        XCTAssertEqual(reply.answers.count, 0)
        // Read as bundled skills, the lone * loads and stores silently: still nothing spoken.
        let flat = try Brain(directory: Self.tree + "/Reader/en", pick: { _ in 0 })
        XCTAssertEqual(say(flat, "what is the capital of india", context: context()), "")
    }

    func testCompatibilityCountsExamplesTakenByATwin() throws {
        // Two copies of one skill: only one copy can answer each query, and the report says
        // that the other copy's example was taken by a twin, not by a better-fitting intent.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("twins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "ring the bell\nDing dong.\n!example:ring the bell\n!expect:ding\n"
        for name in ["Copies/en/bell", "Copies/en/bell_copy", "Other/en/door"] {
            let file = directory.appendingPathComponent(name + ".txt")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let body = name.hasSuffix("door") ? "ring the bell twice|knock\nNobody home.\n" : text
            try body.write(to: file, atomically: true, encoding: .utf8)
        }
        let report = try SkillCompatibility.run(directory: directory.path)
        XCTAssertEqual(report.offlineExamples, 2)
        XCTAssertEqual(report.offlinePassed, 1)
        XCTAssertEqual(report.offlineTakenByTwin, 1)
        XCTAssertEqual(report.aloneOfflinePassed, 2)
        XCTAssertEqual(report.aloneFailures, [])
        XCTAssertEqual(report.failures.count, 1)
        XCTAssertTrue(report.failures[0].hasSuffix("(a twin)"), report.failures[0])
    }

    func testASilentCatchAllDoesNotSwallowQueries() {
        let brain = Brain(
            texts: [("a_universal", "*\n^$1$^>_universal\n"), ("z_fallback", "*\nI do not know that.\n")],
            pick: { _ in 0 })
        let memory = SkillMemory()
        XCTAssertEqual(say(brain, "what is the capital of india", context: context(memory)), "I do not know that.")
        XCTAssertNil(memory.value("_universal"), "the silent intent did not answer, so it stored nothing")
    }

    func testMemoryIsPerConversationAndForgottenOnRequest() {
        let brain = makeBrain("my name is *\nHello $1$>_name.\n\nwho am i\n?$_name$:You are $_name$.:No idea.\n")
        let first = context()
        let second = context()
        // Captures come from the normalised (lower-case) query, as in SUSI.
        XCTAssertEqual(say(brain, "my name is Ada", context: first), "Hello ada.")
        XCTAssertEqual(say(brain, "who am i", context: first), "You are ada.")
        XCTAssertEqual(say(brain, "who am i", context: second), "No idea.", "another conversation")
        XCTAssertEqual(say(brain, "who am i", context: context(nil)), "No idea.", "no memory at all")
        XCTAssertEqual(say(brain, "Forget what I told you", context: first), Brain.forgotten)
        XCTAssertEqual(say(brain, "who am i", context: first), "No idea.")
    }

    func testMemoryIsBounded() {
        let memory = SkillMemory()
        for index in 0..<(SkillMemory.maxValues + 10) { memory.set("_v\(index)", "x") }
        XCTAssertEqual(memory.count, SkillMemory.maxValues)
        XCTAssertNil(memory.value("_v0"), "the oldest name goes first")
        XCTAssertEqual(memory.value("_v\(SkillMemory.maxValues + 9)"), "x")
        memory.set("_long", String(repeating: "y", count: 10_000))
        XCTAssertEqual(memory.value("_long")?.count, SkillMemory.maxValueLength)
        let memories = SkillMemories(maxConversations: 2)
        let a = memories.memory(for: "a")
        XCTAssertTrue(memories.memory(for: "a") === a)
        _ = memories.memory(for: "b")
        _ = memories.memory(for: "c")
        XCTAssertFalse(memories.memory(for: "a") === a, "the least recently used conversation went")
    }

    func testReflectionHasADepthLimitAndNeverHangs() {
        let brain = makeBrain("loop\nagain `loop`\n\nhi\nHello.\n\ngreet twice\n`hi` `hi`\n")
        XCTAssertEqual(say(brain, "greet twice"), "Hello. Hello.")
        XCTAssertEqual(say(brain, "loop"), "", "a reflection that never ends answers nothing")
    }

    func testSkillSyntaxIsNeverSpoken() throws {
        let brain = makeBrain(
            """
            caret
            caret ^oops^> done

            quote
            a stray `quote

            store
            ^kept^>_thing

            broken store
            ^kept^>_$1$
            """)
        for query in ["caret", "quote", "broken store"] {
            let spoken = say(brain, query, context: context())
            XCTAssertFalse(AnswerSyntax.containsSkillSyntax(spoken), "\(query): \(spoken)")
            XCTAssertEqual(spoken, "", query)
        }
        let memory = SkillMemory()
        let reply = try brain.answer("store", context: context(memory))
        XCTAssertEqual(reply.spokenText, "", "a store-only answer says nothing")
        XCTAssertEqual(memory.value("_thing"), "kept")
    }

    func testAssignmentSyntax() {
        let (text, assignments) = AnswerSyntax.applyAssignments("Hi Ada>_name, ^red^>_colour welcome^^>_old!")
        XCTAssertEqual(text, "Hi Ada, welcome!")
        XCTAssertEqual(
            assignments,
            [.init(name: "_colour", value: "red"), .init(name: "_old", value: ""), .init(name: "_name", value: "Ada")])
        XCTAssertFalse(AnswerSyntax.containsSkillSyntax("It costs $5 or 3 > 2, fine."))
        XCTAssertTrue(AnswerSyntax.containsSkillSyntax("left $_name$ here"))
        XCTAssertTrue(AnswerSyntax.containsSkillSyntax("^x^>_y"))
    }

    func testAnswerLinesWithConsoleJSONPathFormsAndLenientJSON() throws {
        let fetcher = InMemoryFetcher([
            "http://127.0.0.1/a": #"{"items": [[1, ["deep"]], [2, ["x"]], [3, ["last"]]]}"#,
            "http://127.0.0.1/b": #"[{"title": "first"}, {"title": "second"}]"#,
            "http://127.0.0.1/c": #"{"data": {"name": "Ada"}}"#,
            "http://127.0.0.1/d": "{'name': 'lenient', list: [1, 2,],}",
        ])
        let brain = makeBrain(
            """
            deep
            Looking.
            !console:found $object$
            {"url": "http://127.0.0.1/a", "path": "$.items.[2].[1]"}
            eol

            first
            !console:$title$
            {url: 'http://127.0.0.1/b', path: '$.[0]',}
            eol

            trailing
            !console:$name$
            {"url": "http://127.0.0.1/c", "path": "$.data."}
            eol

            lenient data
            !console:$name$
            {"url": "http://127.0.0.1/d", "path": "$"}
            eol
            """, fetcher: fetcher)
        XCTAssertEqual(say(brain, "deep"), "Looking. found last")
        XCTAssertEqual(say(brain, "first"), "first")
        XCTAssertEqual(say(brain, "trailing"), "Ada")
        XCTAssertEqual(say(brain, "lenient data"), "lenient")
    }

    func testLenientJSONAsOrgJSONReadsIt() {
        XCTAssertEqual(
            LenientJSON.parse("{a: 'b', \"c\" = 1; d => [x, , 'y',], e: true, f: null,}"),
            .object([
                "a": .string("b"), "c": .number(1),
                "d": .array([.string("x"), .null, .string("y")]), "e": .bool(true), "f": .null,
            ]))
        XCTAssertNil(LenientJSON.parse("{a: [1, 2}"))
        XCTAssertNil(LenientJSON.parse("{'a': 1} trailing"))
        XCTAssertNil(LenientJSON.parse(String(repeating: "[", count: 500)), "nesting is bounded")
    }

    func testWildcardMatchingIsLinearNotExponential() {
        // 10 wildcards that can never all fit: plain backtracking tries every split of 200
        // words, which does not finish; the table decides in (21 x 201) steps.
        let pattern = SkillPattern(Array(repeating: "* a", count: 9).joined(separator: " ") + " * b")
        let words = ["b"] + Array(repeating: "a", count: 199)
        let clock = ContinuousClock()
        let started = clock.now
        XCTAssertNil(pattern?.match(words))
        XCTAssertEqual(pattern?.wildcardCount, 10)
        XCTAssertLessThan(clock.now - started, .seconds(1))
        // Captures as SUSI's greedy groups: each wildcard takes the longest span that lets the
        // rest match.
        XCTAssertEqual(SkillPattern("* the * of *")?.match(["a", "the", "b", "of", "c", "of", "d"]), ["a", "b of c", "d"])
        XCTAssertEqual(SkillPattern("* b")?.match(["b"]), [""])
        XCTAssertNil(SkillPattern("a *")?.match(["b"]))
    }

    func testPriorSectionRanksFirst() {
        let plain = makeBrain("play * please\nPolitely playing $1$.\n\nplay *\nPlaying $1$.\n")
        XCTAssertEqual(say(plain, "play jazz please"), "Politely playing jazz.", "more literals win")
        let prior = makeBrain("play * please\nPolitely playing $1$.\n\n::prior\nplay *\nPlaying $1$.\n")
        XCTAssertEqual(say(prior, "play jazz please"), "Playing jazz please.", "::prior ranks above")
    }

    func testOneAnswersFetchesShareOneBudget() {
        /// Fails every fetch after using up to 0.2 s of what it is given.
        final class SlowFetcher: SkillDataFetcher, Sendable {
            let timeouts = Mutex<[Double]>([])
            var answerBudget: Double { 0.3 }
            func fetchJSON(url: String) throws(BrainError) -> Data {
                try fetchJSON(url: url, timeout: .infinity)
            }
            func fetchJSON(url: String, timeout: Double) throws(BrainError) -> Data {
                timeouts.withLock { $0.append(timeout) }
                Thread.sleep(forTimeInterval: min(timeout, 0.2))
                throw BrainError(.fetchFailed, "timed out")
            }
        }
        let fetcher = SlowFetcher()
        let console = "!console:$x$\n{\"url\": \"http://127.0.0.1/$1$\"}\neol\n"
        let brain = makeBrain(
            "weather in *\n\(console)\nweather *\n\(console)\n* weather *\n\(console)\n* in *\n\(console)\n"
                + "*\nI cannot say.\n",
            fetcher: fetcher)
        XCTAssertEqual(say(brain, "weather in berlin"), "I cannot say.")
        let timeouts = fetcher.timeouts.withLock { $0 }
        XCTAssertEqual(timeouts.count, 2, "the third fetch finds no time left: \(timeouts)")
        XCTAssertLessThanOrEqual(timeouts.first ?? 9, 0.3)
        XCTAssertLessThanOrEqual(timeouts.last ?? 9, 0.11)
    }

    func testJavaScriptResultLimitsAndSandbox() throws {
        let scripts = try XCTUnwrap(ProcessScriptRunner.besideExecutable(), "susi-js is built with the tests")
        let text = """
            add * and *
            !javascript:$1$ plus $2$ is $!$
            $1$ + $2$;
            eol

            spin
            !javascript:$!$
            while (true) {}
            eol

            hoard
            !javascript:$!$
            var a = []; while (true) { a.push("some text to keep " + a.length); }
            eol

            probe
            !javascript:$!$
            [typeof require, typeof load, typeof read, typeof readline, typeof quit, typeof XMLHttpRequest, typeof java].join(" ");
            eol

            printed
            !javascript:$!$
            print("printed", 1 + 1); undefined;
            eol

            *
            Fallback.
            """
        let brain = Brain(texts: [("js", text)], scripts: scripts, pick: { _ in 0 })
        XCTAssertEqual(say(brain, "add 2 and 3"), "2 plus 3 is 5")
        let clock = ContinuousClock()
        let started = clock.now
        XCTAssertEqual(say(brain, "spin"), "Fallback.", "a runaway script cannot answer")
        XCTAssertLessThan(clock.now - started, .seconds(2), "and is stopped, not waited for")
        XCTAssertEqual(say(brain, "hoard"), "Fallback.", "out of memory")
        XCTAssertEqual(say(brain, "probe"), Array(repeating: "undefined", count: 7).joined(separator: " "))
        XCTAssertEqual(say(brain, "printed"), "printed 2", "no completion value: what was printed, as in SUSI")
        XCTAssertThrowsError(try scripts.run("throw new Error('no')")) { error in
            XCTAssertEqual((error as? BrainError)?.code, "brain-script-failed")
        }
        let without = Brain(texts: [("js", text)], pick: { _ in 0 })
        XCTAssertEqual(say(without, "add 2 and 3"), "Fallback.", "no runner: the next candidate answers")
    }

    func testAHelperSlowToStartStillAnswers() throws {
        // A busy machine: the helper process takes a second to start (a wrapper sleeps, then
        // runs susi-js). Its first script is still answered; a waiting helper answers at once.
        let real = try XCTUnwrap(ProcessScriptRunner.besideExecutable(), "susi-js is built with the tests")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("susi-slow-js-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let wrapper = directory.appendingPathComponent("susi-js")
        try Data("#!/bin/sh\nsleep 1\nexec '\(real.executable)' \"$@\"\n".utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        let scripts = try XCTUnwrap(ProcessScriptRunner(executable: wrapper.path))
        XCTAssertEqual(try scripts.run("6 * 7;"), "42")
        let clock = ContinuousClock()
        let started = clock.now
        XCTAssertEqual(try scripts.run("6 * 7;"), "42")
        XCTAssertLessThan(clock.now - started, .milliseconds(900), "the waiting helper, not a new one")
    }

    func testScriptHelpersAreReusedWithAFreshInterpreterEachTime() throws {
        let scripts = try XCTUnwrap(ProcessScriptRunner.besideExecutable(), "susi-js is built with the tests")
        XCTAssertEqual(try scripts.run("var leftover = 41; leftover + 1;"), "42.0", "computed: a Java double")
        XCTAssertEqual(scripts.idleHelperCount, 1, "the helper waits for the next script")
        XCTAssertEqual(try scripts.run("typeof leftover;"), "undefined", "nothing carries over between scripts")
        XCTAssertEqual(scripts.idleHelperCount, 1, "the same helper ran it")
        XCTAssertThrowsError(try scripts.run("while (true) {}"))
        XCTAssertEqual(scripts.idleHelperCount, 0, "the helper that ran out of time is gone")
        XCTAssertEqual(try scripts.run("6 * 7;"), "42", "a new helper takes over")
        // Answers on several threads at once each get a helper; at most idleHelpers stay.
        let results = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { index in
            let value = (try? scripts.run("\(index) * 2;")) ?? "failed"
            results.withLock { $0.append(value) }
        }
        XCTAssertEqual(results.withLock { $0.sorted() }, ["0", "10", "2", "4", "6", "8"])
        XCTAssertLessThanOrEqual(scripts.idleHelperCount, ProcessScriptRunner.idleHelpers)
        for _ in 0..<(ProcessScriptRunner.scriptsPerHelper + 1) { _ = try scripts.run("1;") }
        XCTAssertGreaterThanOrEqual(scripts.idleHelperCount, 1, "a worn-out helper is replaced, not lost")
    }
}
