import Foundation
import SusiCore
import SusiPlayer

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
        let found = directory.map { YTDLP(virtualenv: $0) } ?? YTDLP.locate()
        guard let ytdl = found else {
            throw PlayerError(
                .updateFailed,
                "no yt-dlp virtualenv \(directory.map { "in \($0)" } ?? "beside susi") (`make deps` or `make install` makes it)")
        }
        let before = ytdl.version() ?? "?"
        let after = try ytdl.refresh(indexURL: index)
        context.print("yt-dlp \(before == after ? after + " (unchanged)" : before + " -> " + after) in \(ytdl.virtualenv)")
    }
}
