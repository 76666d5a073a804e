import SusiBrain
import SusiCore

/// `susi skills list|test`: the bundled skills and their examples.
enum SkillsCommand: Command {
    static let name = "skills"
    static let summary = "list bundled skills or run their examples"
    static let usage = """
          susi skills list    each skill with its intents and examples
          susi skills test    run every !example and check its !expect; non-zero exit on a mismatch
        Skills are read from models/skills (or $SUSI_MODELS/skills).
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.required("an action (list or test)")
        try arguments.finish()
        let brain = try Assembly.brain(context)
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
                    message: "\(failures.count) of \(results.count) examples failed, \(brain.diagnostics.count) skill file problems")
            }
        default:
            throw UsageError("unknown action '\(action)'; expected list or test")
        }
    }
}
