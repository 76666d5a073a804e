import Foundation
import SusiCore
import SusiModel

/// Turns a SUSI media identifier and its `identifier_type` into what mpv is asked to open.
///
/// - `youtube` (the default): an 11-character video id becomes
///   `https://www.youtube.com/watch?v=ID`; a URL is played as it is; anything else is searched.
/// - `search`, and a plain phrase under any type: `ytdl://ytsearch1:QUERY` (mpv's ytdl hook
///   with yt-dlp plays the first hit).
/// - `url`: played as it is (a URL with an allowed scheme, a `file://` URL, or an absolute path).
/// - `soundcloud`: a URL as it is; a track path `artist/track` becomes
///   `https://soundcloud.com/artist/track`; words with spaces are searched on SoundCloud.
///
/// Identifiers come from the network, so they are checked: not empty, no control characters,
/// at most `maximumLength` characters, and only schemes in `allowedSchemes` (mpv also
/// understands `lavfi://`, `edl://`, `memory://`, ... which a chat answer has no business using).
public enum MediaLocator {
    /// The longest identifier accepted, in characters.
    public static let maximumLength = 2048

    /// URL schemes passed to the player; others are refused.
    public static let allowedSchemes: Set<String> = [
        "http", "https", "file", "ytdl", "rtsp", "rtmp", "rtmps", "mms", "mmsh",
    ]

    /// The location to hand to mpv for `identifier` read as `type`.
    ///
    /// - Throws: `player-invalid-identifier` for an empty, over-long or control-character
    ///   identifier, or a URL with a scheme outside `allowedSchemes`.
    public static func location(identifier: String, type: String) throws(PlayerError) -> String {
        let text = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        try validate(text)
        if let scheme = scheme(of: text) {
            guard allowedSchemes.contains(scheme) else {
                throw PlayerError(
                    .invalidIdentifier, "media URL scheme '\(scheme)' is not allowed: \(URLRedaction.redacted(text))")
            }
            return text
        }
        let kind = type.trimmingCharacters(in: .whitespaces).lowercased()
        // SUSI sends SoundCloud tracks as paths, sometimes with a leading slash; they are not
        // files on this box.
        if text.hasPrefix("/") && kind != MediaPlayAction.soundcloud { return text }
        switch kind {
        case "", MediaPlayAction.youtube:
            return isYouTubeID(text) ? "https://www.youtube.com/watch?v=" + text : search(text)
        case MediaPlayAction.soundcloud:
            return soundCloud(text)
        default:
            // `search`, `url` holding words, and types this version does not know: searching
            // is the one reading of a phrase that can still play something.
            return search(text)
        }
    }

    /// Whether `text` has the shape of a YouTube video id: 11 of `A-Z a-z 0-9 _ -`.
    public static func isYouTubeID(_ text: String) -> Bool {
        text.utf8.count == 11
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    return true
                default:
                    return false
                }
            }
    }

    /// The lower-cased scheme of a URL such as `https://...` or `file:///...`; nil for text
    /// without one. Only `scheme:` followed by `//` counts, so "note: jazz" is not a URL.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let name = text[..<colon]
        guard let first = name.unicodeScalars.first, first.isASCII, CharacterSet.letters.contains(first),
            name.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0))
            })
        else { return nil }
        return name.lowercased()
    }

    private static func validate(_ text: String) throws(PlayerError) {
        guard !text.isEmpty else {
            throw PlayerError(.invalidIdentifier, "empty media identifier")
        }
        guard text.count <= maximumLength else {
            throw PlayerError(
                .invalidIdentifier, "media identifier of \(text.count) characters is longer than \(maximumLength)")
        }
        // A control character inside an identifier is garbage, never part of a title or URL;
        // surrounding white space (a trailing newline) has already been trimmed off.
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw PlayerError(.invalidIdentifier, "media identifier contains control characters")
        }
    }

    private static func search(_ words: String) -> String {
        "ytdl://ytsearch1:" + collapsed(words)
    }

    private static func soundCloud(_ text: String) -> String {
        if text.contains(where: \.isWhitespace) {
            return "ytdl://scsearch1:" + collapsed(text)
        }
        var path = Substring(text)
        for prefix in ["www.soundcloud.com/", "soundcloud.com/"] where path.lowercased().hasPrefix(prefix) {
            path = path.dropFirst(prefix.count)
        }
        while path.hasPrefix("/") { path = path.dropFirst() }
        let encoded = String(path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String(path)
        return "https://soundcloud.com/" + encoded
    }

    private static func collapsed(_ words: String) -> String {
        words.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
