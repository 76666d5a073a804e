import Foundation
import XCTest

@testable import SusiCore

final class NamedListsTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-lists-\(UUID().uuidString)"
    private var path: String { directory + "/lists.json" }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testNamesAsSaid() {
        XCTAssertEqual(NamedLists.name("shopping"), "shopping")
        XCTAssertEqual(NamedLists.name("my Shopping list"), "shopping")
        XCTAssertEqual(NamedLists.name("groceries"), "shopping")
        XCTAssertEqual(NamedLists.name("to do"), "to-do")
        XCTAssertEqual(NamedLists.name("todo"), "to-do")
        XCTAssertEqual(NamedLists.name("to-do"), "to-do")
        XCTAssertEqual(NamedLists.name("packing"), "packing")
        XCTAssertEqual(NamedLists.name(""), "")
    }

    func testAddReadRemoveClearAndARestartLosesNothing() throws {
        let lists = NamedLists(path: path)
        XCTAssertEqual(try lists.add("milk", to: "shopping"), .done)
        XCTAssertEqual(try lists.add("Eggs", to: "shopping"), .done)
        XCTAssertEqual(try lists.add("MILK", to: "shopping"), .unchanged, "on it already")
        XCTAssertEqual(try lists.add("call the bank", to: "to-do"), .done)
        XCTAssertEqual(lists.names, ["shopping", "to-do"])
        XCTAssertEqual(lists.items("shopping"), ["milk", "Eggs"])
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)

        let restarted = NamedLists(path: path)
        XCTAssertEqual(restarted.items("shopping"), ["milk", "Eggs"])
        XCTAssertEqual(try restarted.remove("egg", from: "shopping"), .done, "singular removes the plural")
        XCTAssertEqual(try restarted.remove("bread", from: "shopping"), .unchanged)
        XCTAssertEqual(restarted.items("shopping"), ["milk"])
        XCTAssertEqual(try restarted.clear("shopping"), 1)
        XCTAssertEqual(try restarted.clear("shopping"), 0)
        XCTAssertEqual(NamedLists(path: path).names, ["to-do"], "an emptied list is gone, also after a restart")
    }

    func testUnwritableStateIsATypedErrorAndChangesNothing() {
        let lists = NamedLists(path: "/proc/susi-no/lists.json")
        XCTAssertThrowsError(try lists.add("milk", to: "shopping")) { error in
            XCTAssertEqual((error as? ConfigError)?.kind, .unwritable)
        }
        XCTAssertEqual(lists.items("shopping"), [])
    }
}
