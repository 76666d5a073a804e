import Foundation
import SusiSpeaker

/// `susi update`: PyPI's newest yt-dlp into the virtualenv beside susi, for when YouTube changed.
enum UpdateCommand: Command {
    static let name = "update"
    static let summary = "update yt-dlp (YouTube and \"play ...\") from PyPI"
    static let usage = """
          susi update [--virtualenv DIR] [--index-url URL]
                 upgrade yt-dlp and yt-dlp-ejs in the virtualenv beside susi (or DIR) to the
                 newest release (or the newest on a PEP 503 index); needs write access to it
        """

    static func run(_ arguments: inout ArgumentParser, _ context: CommandContext) throws {
        let directory = try arguments.option("--virtualenv")
        let index = try arguments.option("--index-url")
        try arguments.finish()
        context.print(try YTDLPUpdate.run(virtualenv: directory, indexURL: index))
    }
}
