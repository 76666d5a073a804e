import SusiNet
import XCTest

final class FormEncodingTests: XCTestCase {
    func testEncodesEverythingButUnreservedCharacters() {
        XCTAssertEqual(FormEncoding.encode("a b&c=d+e/f?g#h%"), "a%20b%26c%3Dd%2Be%2Ff%3Fg%23h%25")
        XCTAssertEqual(FormEncoding.encode("Küche 🎵"), "K%C3%BCche%20%F0%9F%8E%B5")
        XCTAssertEqual(FormEncoding.encode("AZaz09-._~"), "AZaz09-._~")
        XCTAssertEqual(
            FormEncoding.encode([("q", "hi there"), ("language", "en")]), "q=hi%20there&language=en")
    }

    func testQueryIsAppendedToTheURL() {
        XCTAssertEqual(
            HTTPRequest(url: "http://h/p", query: [("q", "a b")]).fullURL, "http://h/p?q=a%20b")
        XCTAssertEqual(
            HTTPRequest(url: "http://h/p?x=1", query: [("q", "z")]).fullURL, "http://h/p?x=1&q=z")
        XCTAssertEqual(HTTPRequest(url: "http://h/p?", query: [("q", "z")]).fullURL, "http://h/p?q=z")
        XCTAssertEqual(
            HTTPRequest(url: "http://h/p#top", query: [("q", "z")]).fullURL, "http://h/p?q=z#top")
        XCTAssertEqual(HTTPRequest(url: "http://h/p").fullURL, "http://h/p")
    }
}
