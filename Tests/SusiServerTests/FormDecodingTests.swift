import SusiServer
import XCTest

final class FormDecodingTests: XCTestCase {
    func testDecodesPlusPercentAndUTF8() {
        let form = FormDecoding.decode(
            "room_name=Living+Room&ssid=caf%C3%A9%20%26%3D%2B&emoji=%F0%9F%8E%B5&flag")
        XCTAssertEqual(form?["room_name"], "Living Room")
        XCTAssertEqual(form?["ssid"], "café &=+")
        XCTAssertEqual(form?["emoji"], "🎵")
        XCTAssertEqual(form?["flag"], "")
    }

    func testFirstValueWins() {
        XCTAssertEqual(FormDecoding.decode("a=1&a=2")?["a"], "1")
    }

    func testMalformedInputIsRejected() {
        XCTAssertNil(FormDecoding.decode("a=%zz"))
        XCTAssertNil(FormDecoding.decode("a=%4"))
        XCTAssertNil(FormDecoding.decode("a=%FF%FE"))
    }
}
