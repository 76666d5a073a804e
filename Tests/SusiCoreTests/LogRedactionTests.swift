import XCTest

@testable import SusiCore

/// `URLRedaction`: what a log line shows of a URL (issue 50).
final class LogRedactionTests: XCTestCase {
    func testPasswordsAndTokensAreHiddenAndTheRestKept() {
        let cases: [(String, String)] = [
            ("http://user:pass@radio.example/live.mp3", "http://user:***@radio.example/live.mp3"),
            ("https://user:p%40ss:word@host:8443", "https://user:***@host:8443"),
            ("https://user@host/path", "https://user@host/path"),
            ("rtmp://a:b@host/app?x=1", "rtmp://a:***@host/app?x=1"),
            (
                "https://api.susi.ai/susi/chat.json?q=hi&access_token=abc&timezoneOffset=-60",
                "https://api.susi.ai/susi/chat.json?q=hi&access_token=***&timezoneOffset=-60"
            ),
            ("https://h/p?TOKEN=a&Password=b&pass%77d=c&token", "https://h/p?TOKEN=***&Password=***&pass%77d=***&token"),
            ("https://h/cb#access_token=abc&state=1", "https://h/cb#access_token=***&state=1"),
            ("https://h/p?a=1#frag", "https://h/p?a=1#frag"),
            ("ytdl://https://me:secret@host/v?sig=xyz", "ytdl://https://me:***@host/v?sig=***"),
            ("ytdl://ytsearch:songs by me@home", "ytdl://ytsearch:songs by me@home"),
            ("/home/me/Music/a:b@c.mp3", "/home/me/Music/a:b@c.mp3"),
            ("http://host/a@b:c", "http://host/a@b:c"),
            ("not a url", "not a url"),
            ("", ""),
        ]
        for (url, expected) in cases {
            XCTAssertEqual(URLRedaction.redacted(url), expected, url)
        }
    }
}
