import Foundation

/// Hides the secrets a URL can carry (a password in its user part, a token in its query)
/// before it goes into a log line or an error message.
///
/// `susi -vv` shows every URL the speaker fetches or plays, and people paste such logs into
/// bug reports: `http://user:pass@radio.example/live?token=...` must show as
/// `http://user:***@radio.example/live?token=***`.
public enum URLRedaction {
    /// Query and fragment parameters whose values are secrets; compared case-insensitively,
    /// after percent-decoding the name.
    public static let secretParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "auth_token", "token", "password", "passwd", "pass", "secret",
        "client_secret", "api_key", "apikey", "key", "sig", "signature",
    ]

    /// `url` with the password of its user part and the values of `secretParameters` in its
    /// query and fragment replaced by `***`. The user name, host, path and other parameters
    /// stay, so the line still says what was fetched. Text that is not a URL comes back as it
    /// was. mpv's `ytdl://` prefix is looked through (`ytdl://https://user:pass@...`).
    public static func redacted(_ url: String) -> String {
        var result = ""
        var rest = Substring(url)
        if let separator = rest.range(of: "://"), isScheme(rest[..<separator.lowerBound]) {
            let scheme = rest[..<separator.lowerBound]
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            if scheme.lowercased() == "ytdl" { return result + redacted(String(rest)) }
            let authorityEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
            result += redactedAuthority(rest[..<authorityEnd])
            rest = rest[authorityEnd...]
        }
        let queryStart = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        result += rest[..<queryStart]
        rest = rest[queryStart...]
        // `?query#fragment`, `?query` or `#fragment`: each part's parameters checked alike.
        while let mark = rest.first {
            rest = rest.dropFirst()
            let end = mark == "?" ? rest.firstIndex(of: "#") ?? rest.endIndex : rest.endIndex
            result.append(mark)
            result += redactedParameters(rest[..<end])
            rest = rest[end...]
        }
        return result
    }

    // MARK: Helpers

    /// `user:***@host` for `user:password@host`; anything without a password as it was.
    private static func redactedAuthority(_ authority: Substring) -> String {
        guard let at = authority.lastIndex(of: "@") else { return String(authority) }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return String(authority) }
        return String(userInfo[..<colon]) + ":***" + String(authority[at...])
    }

    private static func redactedParameters(_ parameters: Substring) -> String {
        parameters.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            let decoded = (String(name).removingPercentEncoding ?? String(name)).lowercased()
            return secretParameters.contains(decoded) ? String(name) + "=***" : String(pair)
        }.joined(separator: "&")
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }
}
