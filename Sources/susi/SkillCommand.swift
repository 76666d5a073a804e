import Foundation
import SusiSpeaker

/// `susi skill feedback|ratings|rate|review|report SKILL ...`: the SUSI apps' skill
/// features against the skill CMS of `brain.server`.
enum SkillCommand: Command {
    static let name = "skill"
    static let summary = "a SUSI skill's reviews, ratings; rate, review or report it"
    static let usage = """
          susi skill feedback SKILL [--all] [--json]   the newest reviews (three unless --all)
          susi skill ratings SKILL                     the five-star rating chart
          susi skill rate SKILL STARS                  rate 1-5 stars (needs `susi login`)
          susi skill review SKILL TEXT                 post a review (needs `susi login`)
          susi skill report SKILL --reason TEXT        report the skill (needs `susi login`)
        options for every action:
          --group G        the skill's group, e.g. Knowledge (or write SKILL as GROUP/NAME)
          --model M        default general
          --language L     default brain.language from the config
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let action = try arguments.action("feedback", "ratings", "rate", "review", "report", hidden: "reviews")
        let model = try arguments.option("--model") ?? "general"
        let group = try arguments.option("--group")
        let language = try arguments.option("--language")
        // Options of one action only; any other action leaves them for `finish()` to refuse.
        let reviews = action == "feedback" || action == "reviews"
        let all = reviews && arguments.flag("--all")
        let json = reviews && arguments.flag("--json")
        let reason = action == "report" ? try arguments.option("--reason") : nil
        let config = try context.store.load()
        let (groupName, name) = try reference(try arguments.required("SKILL"), group: group)
        let skill = SkillFeedback(
            name: name, group: groupName, model: model, language: language ?? config.brain.language, config: config,
            store: context.store, logger: context.logger)
        switch action {
        case "feedback", "reviews":
            try arguments.finish()
            // Reviews are other people's text: `print` keeps their escape codes and bidi
            // controls from driving this terminal.
            let lines = try skill.reviews(all: all, json: json)
            lines.forEach { json ? context.printJSON($0) : context.print($0) }
        case "ratings":
            try arguments.finish()
            context.print(try skill.ratings())
        case "rate":
            let text = try arguments.required("STARS (1-5)")
            try arguments.finish()
            guard let stars = Int(text), (1...5).contains(stars) else {
                throw UsageError("STARS must be a whole number from 1 to 5, not '\(text)'")
            }
            context.print(try skill.rate(stars: stars))
        case "review":
            let text = try arguments.required("TEXT")
            try arguments.finish()
            context.print(try skill.review(text: text))
        default:
            try arguments.finish()
            guard let reason, !reason.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw UsageError("report needs --reason TEXT")
            }
            context.print(try skill.report(reason: reason))
        }
    }

    /// SKILL as `NAME` (with `--group`) or `GROUP/NAME`: its group and name.
    private static func reference(_ text: String, group: String?) throws(UsageError) -> (group: String, name: String) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let name = parts.removeLast()
        let groupName = parts.isEmpty ? group : parts.joined(separator: "/")
        guard !name.isEmpty else { throw UsageError("the skill name is empty") }
        guard let groupName, !groupName.isEmpty else {
            throw UsageError("name the skill's group with --group G or as GROUP/\(name)")
        }
        return (groupName, name)
    }
}
