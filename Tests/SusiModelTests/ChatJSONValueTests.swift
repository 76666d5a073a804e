import Foundation
import XCTest

@testable import SusiModel

/// The open JSON value used for rows, sessions and unknown actions.
final class ChatJSONValueTests: XCTestCase {
    func testParsesEveryKind() throws {
        let value = try JSONValue.parse(#"{"a":null,"b":true,"c":2.5,"d":"x","e":[1,{"f":false}]}"#)
        XCTAssertEqual(value["a"], .null)
        XCTAssertEqual(value["b"], .bool(true))
        XCTAssertEqual(value["c"], .number(2.5))
        XCTAssertEqual(value["d"], .string("x"))
        XCTAssertEqual(value["e"]?[1]?["f"], .bool(false))
        XCTAssertNil(value["e"]?[5])
    }

    func testLenientAccessors() {
        XCTAssertEqual(JSONValue.string(" 42 ").intValue, 42)
        XCTAssertEqual(JSONValue.number(3).stringValue, "3")
        XCTAssertEqual(JSONValue.number(2.5).stringValue, "2.5")
        XCTAssertEqual(JSONValue.string("yes").boolValue, true)
        XCTAssertNil(JSONValue.string("forty").intValue)
        XCTAssertNil(JSONValue.array([]).stringValue)
    }

    func testWholeNumbersEncodeWithoutFraction() {
        XCTAssertEqual(
            JSONValue.array([120000, 1.5, "a", nil, true]).jsonText, #"[120000,1.5,"a",null,true]"#)
    }
}
