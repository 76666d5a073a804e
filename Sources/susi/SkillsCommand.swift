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
        Skills are read from models/skills (or $SUSI_MODELS/skills).
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.required("an action (list or test)")
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
