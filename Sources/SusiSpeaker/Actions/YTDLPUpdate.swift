import SusiPlayer

/// `susi update`: PyPI's newest yt-dlp into the virtualenv beside susi, for when YouTube changed.
public enum YTDLPUpdate {
    /// Upgrades yt-dlp and yt-dlp-ejs in `virtualenv` (nil: the one beside susi) to the newest
    /// release on PyPI, or on the PEP 503 index `indexURL`. Blocks while pip runs.
    /// - Returns: `yt-dlp OLD -> NEW in DIR`, or `yt-dlp V (unchanged) in DIR`.
    /// - Throws: `PlayerError` (`updateFailed`) when there is no such virtualenv or pip fails.
    public static func run(virtualenv: String?, indexURL: String?) throws(PlayerError) -> String {
        guard let ytdl = virtualenv.map({ YTDLP(virtualenv: $0) }) ?? YTDLP.locate() else {
            let place = virtualenv.map { "in \($0)" } ?? "beside susi"
            throw PlayerError(.updateFailed, "no yt-dlp virtualenv \(place) (`make deps` or `make install` makes it)")
        }
        let before = ytdl.version() ?? "?"
        let after = try ytdl.refresh(indexURL: indexURL)
        return "yt-dlp \(before == after ? after + " (unchanged)" : before + " -> " + after) in \(ytdl.virtualenv)"
    }
}
