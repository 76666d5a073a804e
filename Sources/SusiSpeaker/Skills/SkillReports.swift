import Foundation
import SusiBrain
import SusiModel

/// What `susi skills list|test|lint|compat|bench` print, as lines: the skills and the
/// measurements of them, worded once here so the command only prints.
public enum SkillReports {
    /// Each skill with its intent and example counts, description and example queries, then
    /// every skipped block.
    public static func listing(_ brain: Brain) -> [String] {
        var lines: [String] = []
        for skill in brain.skills {
            lines.append(
                "\(skill.id): \(skill.name) (\(counted(skill.intents.count, "intent")), \(counted(skill.exampleCount, "example")))"
            )
            if !skill.description.isEmpty { lines.append("    \(skill.description)") }
            for intent in skill.intents {
                lines += intent.examples.map { "    e.g. \"\($0.query)\"" }
            }
        }
        return lines + brain.diagnostics.map { "skipped: \($0)" }
    }

    /// Runs every `!example` and checks its `!expect`: a `FAIL` line per failure and a count.
    /// - Throws: `PipelineError` (`brain-skill-test-failed`), after the lines went to `print`,
    ///   when an example failed or a skill file has an error.
    public static func testExamples(_ brain: Brain, print: (String) -> Void) throws(PipelineError) {
        let results = brain.runExamples()
        let failures = results.filter { !$0.passed }
        for failure in failures {
            print("FAIL \(failure.file):\(failure.line): \"\(failure.query)\": \(failure.problem ?? "")")
        }
        print("skills: \(results.count - failures.count) passed, \(failures.count) failed")
        guard failures.isEmpty, brain.diagnostics.allSatisfy({ $0.severity != .error }) else {
            throw PipelineError(
                stage: .brain, code: "brain-skill-test-failed",
                message: "\(failures.count) of \(counted(results.count, "example")) failed, "
                    + "\(counted(brain.diagnostics.count, "skill file problem"))")
        }
    }

    /// `lint`: every skipped block and refused file as `file:line: severity: message`, then
    /// the totals.
    /// - Throws: `PipelineError` (`brain-skill-lint-failed`), after the lines went to `print`,
    ///   when a file was refused (an `error`: unreadable, or asking for a setting no skill may
    ///   change). Skipped blocks (warnings) alone pass.
    public static func lint(_ brain: Brain, print: (String) -> Void) throws(PipelineError) {
        let intents = brain.skills.reduce(0) { $0 + $1.intents.count }
        brain.diagnostics.forEach { print($0.description) }
        let errors = brain.diagnostics.filter { $0.severity == .error }.count
        print(
            "skills: \(counted(brain.skills.count, "file")), \(counted(intents, "intent")), "
                + "\(counted(brain.diagnostics.count, "problem")), \(counted(errors, "error"))")
        guard errors == 0 else {
            throw PipelineError(
                stage: .brain, code: "brain-skill-lint-failed",
                message: "\(counted(errors, "skill file")) refused (the error lines above)")
        }
    }

    /// `lint` of the skills in `directory` (with `tree`, a skill-data checkout read as SUSI
    /// does, `DIR/**/LANGUAGE/*.txt`), else of the bundled ones of `environment`'s models
    /// directory; scripts run in `susi-js` beside this executable.
    /// - Throws: `BrainError` when the skills cannot be read, `SetupFailure` without a models
    ///   directory, and what `lint(_:print:)` throws, after the lines went to `print`.
    public static func lint(
        directory: String?, tree: Bool, language: String, environment: [String: String], print: (String) -> Void
    ) throws {
        let scripts = ProcessScriptRunner.besideExecutable()
        let brain: Brain
        if let directory {
            let options = tree ? SkillLoadOptions.skillData(language: language) : SkillLoadOptions()
            brain = try Brain(directory: directory, options: options, scripts: scripts)
        } else {
            brain = try Assembly.brain(environment: environment, logger: .silent)
        }
        try lint(brain, print: print)
    }

    /// `compat` over the skill-data checkout in `directory` in `language`, with scripts run in
    /// `susi-js` beside this executable: `compatibility(_:failures:)` of its report.
    /// - Throws: `BrainError` when the checkout cannot be read.
    public static func compatibility(directory: String, language: String, failures: Bool) throws(BrainError) -> [String] {
        let report = try SkillCompatibility.run(
            directory: directory, language: language, scripts: ProcessScriptRunner.besideExecutable())
        return compatibility(report, failures: failures)
    }

    /// `compat`: load rate, pass rates (all files together and each alone), leaks and timing;
    /// with `failures`, a `FAIL` line per failing valid example first.
    public static func compatibility(_ report: SkillCompatibilityReport, failures: Bool) -> [String] {
        let offline = report.offlineExamples
        let network = report.networkExamples
        let failed =
            failures
            ? report.failures.map { "FAIL \($0)" } + report.aloneFailures.map { "FAIL ALONE \($0)" }
                + report.invalid.map { "INVALID \($0)" } : []
        return failed + [
            "files: \(report.filesLoaded) of \(report.files) load (\(report.filesRejected) unreadable), "
                + "\(counted(report.intents, "intent")), \(counted(report.blocksSkipped, "block")) skipped",
            String(
                format: "offline examples: %d of %d valid pass (%.1f%%)", report.offlinePassed, offline,
                percent(report.offlinePassed, offline)),
            String(
                format: "network examples: %d of %d valid reach their intent (%.1f%%)", report.networkReached, network,
                percent(report.networkReached, network)),
            String(
                format: "each file alone: offline %d of %d (%.1f%%), network %d of %d (%.1f%%)", report.aloneOfflinePassed,
                offline, percent(report.aloneOfflinePassed, offline), report.aloneNetworkReached, network,
                percent(report.aloneNetworkReached, network)),
            String(
                format: "together, without examples taken by a twin (an identical intent of another file): "
                    + "offline %d of %d (%.1f%%), network %d of %d (%.1f%%)",
                report.offlinePassed, offline - report.offlineTakenByTwin,
                percent(report.offlinePassed, offline - report.offlineTakenByTwin), report.networkReached,
                network - report.networkTakenByTwin, percent(report.networkReached, network - report.networkTakenByTwin)),
            "invalid examples (placeholders, or not matching their own pattern): \(report.invalidExamples)",
            "answers holding skill syntax: \(report.leakedSyntax)",
            String(
                format: "load: %.0f ms; answer: median %.3f ms, p95 %.3f ms, max %.3f ms", report.loadMilliseconds,
                report.answerMedian, report.answerP95, report.answerMax),
        ]
    }

    /// `bench`: sizes, load time and answer time.
    public static func benchmark(_ result: SkillsBenchmark) -> [String] {
        [
            "skills: \(counted(result.skillCount, "file")), \(counted(result.queryCount, "example query", "example queries"))",
            String(format: "load all skills: median %.2f ms, p95 %.2f ms (20 runs)", result.loadMedian, result.loadP95),
            String(
                format: "answer: median %.3f ms, p95 %.3f ms, %.0f queries/s (%d answers)", result.answerMedian,
                result.answerP95, result.queriesPerSecond, result.answerCount),
        ]
    }

    /// `part` of `whole` in percent; 0 of nothing is 0 %.
    static func percent(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) * 100 / Double(whole) }

    /// "1 file", "2 files": `count` and its noun, plural unless one.
    static func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
