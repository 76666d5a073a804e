import Foundation
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
        let action = try arguments.action("list", "test", "bench", "lint", "compat")
        if action == "lint" || action == "compat" { return try check(action, &arguments, context) }
        try arguments.finish()
        switch action {
        case "bench":
            let directory = try Assembly.modelsDirectory(environment: context.environment) + "/skills"
            context.print(SkillReports.benchmark(try SkillsBenchmark.run(directory: directory)))
        case "list":
            context.print(SkillReports.listing(try Assembly.brain(environment: context.environment, logger: context.logger)))
        default:
            let brain = try Assembly.brain(environment: context.environment, logger: context.logger)
            try SkillReports.testExamples(brain) { context.print($0) }
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
            context.print(try SkillReports.compatibility(directory: directory, language: language, failures: failures))
            return
        }
        try SkillReports.lint(directory: directory, tree: tree, language: language, environment: context.environment) {
            context.print($0)
        }
    }
}
