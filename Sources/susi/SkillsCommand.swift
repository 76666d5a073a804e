import Foundation
import SusiBrain
import SusiCore
import SusiSpeaker

/// `susi skills list|test`: the bundled skills and their examples.
enum SkillsCommand: Command {
    static let name = "skills"
    static let summary = "list bundled skills or run their examples"
    static let usage = """
          susi skills list    each skill with its intents and examples
          susi skills test    run every !example and check its !expect; non-zero exit on a mismatch
          susi skills bench   time loading the skills and answering every example (medians)
          susi skills lint [DIR] [--tree] [--lang en]
                              every skipped block as file:line: message; --tree reads a
                              skill-data checkout (DIR/**/en/*.txt) as SUSI does
          susi skills compat DIR [--lang en] [--failures]
                              load rate, valid-example pass rate and timing over a checkout
                              of fossasia/susi_skill_data (bench/skills-compat.sh)
        Skills are read from models/skills (or $SUSI_MODELS/skills).
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.required("an action (list, test, bench, lint or compat)")
        if action == "lint" || action == "compat" { return try check(action, &arguments, context) }
        try arguments.finish()
        guard action != "bench" else { return try bench(context) }
        let brain = try Assembly.brain(environment: context.environment, logger: context.logger)
        switch action {
        case "list":
            for skill in brain.skills {
                context.print("\(skill.id): \(skill.name) (\(skill.intents.count) intents, \(skill.exampleCount) examples)")
                if !skill.description.isEmpty { context.print("    \(skill.description)") }
                for intent in skill.intents {
                    for example in intent.examples { context.print("    e.g. \"\(example.query)\"") }
                }
            }
            for diagnostic in brain.diagnostics { context.print("skipped: \(diagnostic)") }
        case "test":
            let results = brain.runExamples()
            let failures = results.filter { !$0.passed }
            for failure in failures {
                context.print("FAIL \(failure.file):\(failure.line): \"\(failure.query)\": \(failure.problem ?? "")")
            }
            context.print("skills: \(results.count - failures.count) passed, \(failures.count) failed")
            guard failures.isEmpty, brain.diagnostics.allSatisfy({ $0.severity != .error }) else {
                throw PipelineError(
                    stage: .brain, code: "brain-skill-test-failed",
                    message:
                        "\(failures.count) of \(results.count) examples failed, \(brain.diagnostics.count) skill file problems")
            }
        case "bench":
            try bench(context)
        default:
            throw UsageError("unknown action '\(action)'; expected list, test or bench")
        }
    }

    /// `lint` and `compat`: the library does the work, this only prints.
    private static func check(_ action: String, _ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let tree = arguments.flag("--tree")
        let failures = arguments.flag("--failures")
        let language = try arguments.option("--lang") ?? "en"
        let directory = try arguments.positional()
        try arguments.finish()
        if action == "compat" {
            guard let directory else { throw UsageError("compat needs a skill-data directory") }
            let report = try SkillCompatibility.run(
                directory: directory, language: language, scripts: ProcessScriptRunner.besideExecutable())
            if failures { report.failures.forEach { context.print("FAIL \($0)") } }
            context.print(
                "files: \(report.filesLoaded) of \(report.files) load (\(report.filesRejected) unreadable), \(report.intents) intents, \(report.blocksSkipped) blocks skipped"
            )
            context.print(
                String(
                    format: "offline examples: %d of %d valid pass (%.1f%%)", report.offlinePassed, report.offlineExamples,
                    percent(report.offlinePassed, report.offlineExamples)))
            context.print(
                String(
                    format: "network examples: %d of %d valid reach their intent (%.1f%%)", report.networkReached,
                    report.networkExamples, percent(report.networkReached, report.networkExamples)))
            context.print(
                String(
                    format: "each file alone: offline %d of %d (%.1f%%), network %d of %d (%.1f%%)", report.aloneOfflinePassed,
                    report.offlineExamples, percent(report.aloneOfflinePassed, report.offlineExamples),
                    report.aloneNetworkReached, report.networkExamples,
                    percent(report.aloneNetworkReached, report.networkExamples)))
            context.print("invalid examples (placeholders, or not matching their own pattern): \(report.invalidExamples)")
            context.print("answers holding skill syntax: \(report.leakedSyntax)")
            context.print(
                String(
                    format: "load: %.0f ms; answer: median %.3f ms, p95 %.3f ms, max %.3f ms", report.loadMilliseconds,
                    report.answerMedian, report.answerP95, report.answerMax))
            return
        }
        let brain: Brain
        if let directory {
            let options = tree ? SkillLoadOptions.skillData(language: language) : SkillLoadOptions()
            brain = try Brain(directory: directory, options: options, scripts: ProcessScriptRunner.besideExecutable())
        } else {
            brain = try Assembly.brain(environment: context.environment, logger: .silent)
        }
        brain.diagnostics.forEach { context.print($0.description) }
        context.print(
            "skills: \(brain.skills.count) files, \(brain.skills.reduce(0) { $0 + $1.intents.count }) intents, \(brain.diagnostics.count) problems"
        )
    }

    private static func percent(_ part: Int, _ whole: Int) -> Double { whole == 0 ? 0 : Double(part) * 100 / Double(whole) }

    /// Loads the skills 20 times and answers every example query 20 times, in process.
    private static func bench(_ context: CommandContext) throws {
        let result = try SkillsBenchmark.run(
            directory: try Assembly.modelsDirectory(environment: context.environment) + "/skills")
        context.print("skills: \(result.skillCount) files, \(result.queryCount) example queries")
        context.print(String(format: "load all skills: median %.2f ms, p95 %.2f ms (20 runs)", result.loadMedian, result.loadP95))
        context.print(
            String(
                format: "answer: median %.3f ms, p95 %.3f ms, %.0f queries/s (%d answers)", result.answerMedian,
                result.answerP95, result.queriesPerSecond, result.answerCount))
    }
}
