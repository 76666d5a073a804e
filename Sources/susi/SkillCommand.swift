/// `susi skill ...`: the apps' skill features (issue #4).
enum SkillCommand: Command {
    static let name = "skill"
    static let summary = "a SUSI skill's reviews, ratings; rate, review or report it"
    static let usage = """
          susi skill feedback SKILL [--all] [--json]
          susi skill ratings SKILL
          susi skill rate SKILL STARS
          susi skill review SKILL TEXT
          susi skill report SKILL --reason TEXT
        """
    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        throw NotBuiltYet(command: name, issue: "the SUSI.AI client, issue #4")
    }
}
