import XCTest

@testable import SusiBrain

/// Numbers from scripts, written as SUSI writes Nashorn's result.
final class ScriptNumberTests: XCTestCase {
    func testComputedNumbersReadAsJavaDoubles() {
        let cases: [(Double, String)] = [
            (302, "302.0"), (1000, "1000.0"), (0.9999999999999999, "0.9999999999999999"), (4.5, "4.5"),
            (-12.25, "-12.25"), (0.001, "0.001"), (0.000_15, "1.5E-4"), (9_999_999, "9999999.0"),
            (10_000_000, "1.0E7"), (25_000_000, "2.5E7"), (1e21, "1.0E21"), (123_456_789.5, "1.234567895E8"),
            (7.38905609893065, "7.38905609893065"), (0, "0.0"), (-0.0, "-0.0"), (.nan, "NaN"),
            (.infinity, "Infinity"), (-.infinity, "-Infinity"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(ScriptNumber.javaText(of: value), text, "\(value)")
        }
    }

    func testIntegerConstantsStayIntegers() {
        XCTAssertEqual(ScriptNumber.text(of: 13, script: "5 + 8;"), "13")
        XCTAssertEqual(ScriptNumber.text(of: 20, script: " (2+3) * 4 ;;\n"), "20")
        XCTAssertEqual(ScriptNumber.text(of: 4.5, script: "9 / 2"), "4.5", "not an integer value")
        XCTAssertEqual(ScriptNumber.text(of: 4_294_967_296, script: "65536 * 65536"), "4.294967296E9", "past 32 bits")
        XCTAssertEqual(ScriptNumber.text(of: 13, script: "var a = 5; a + 8;"), "13.0", "a variable: computed")
        XCTAssertEqual(ScriptNumber.text(of: 2.5, script: "2.5"), "2.5")
        XCTAssertEqual(ScriptNumber.text(of: 8, script: "Math.pow(2, 3)"), "8.0")
        XCTAssertEqual(ScriptNumber.text(of: 0, script: ";"), "0.0", "no literal at all")
    }
}
