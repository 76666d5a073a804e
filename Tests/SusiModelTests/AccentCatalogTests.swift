import SusiModel
import XCTest

/// The one accent-alias table: whole names, names inside a normalised query, ids.
final class AccentCatalogTests: XCTestCase {
    func testWholeNamesIncludingStandaloneOnes() {
        XCTAssertEqual(AccentCatalog.entry(named: "  New   York ")?.id, "en-us-nyc")
        XCTAssertEqual(AccentCatalog.entry(named: "Received Pronunciation")?.id, "en-gb-x-rp")
        XCTAssertEqual(AccentCatalog.entry(named: "us")?.id, "en-us")
        XCTAssertNil(AccentCatalog.entry(named: "martian"))
        XCTAssertTrue(AccentCatalog.names.contains("us"))
        XCTAssertEqual(AccentCatalog.names, AccentCatalog.names.sorted())
    }

    func testNamesInsideAQueryNeverUseStandaloneAliases() {
        XCTAssertNil(AccentCatalog.entry(mentionedIn: ["tell", "us", "a", "story"]))
        XCTAssertEqual(AccentCatalog.entry(mentionedIn: ["talk", "like", "a", "new", "yorker"])?.id, "en-us-nyc")
        // The longest alias wins: "posh british" is RP, not British.
        XCTAssertEqual(AccentCatalog.entry(mentionedIn: ["a", "posh", "british", "voice"])?.id, "en-gb-x-rp")
        XCTAssertEqual(AccentCatalog.entry(mentionedIn: ["en", "gb", "x", "rp"])?.id, "en-gb-x-rp")
    }

    func testEveryAliasBelongsToOneAccent() {
        let aliases = AccentCatalog.entries.flatMap(\.aliases)
        XCTAssertEqual(aliases.count, Set(aliases).count)
        XCTAssertEqual(AccentCatalog.name(of: "EN-GB"), "British")
        XCTAssertEqual(AccentCatalog.name(of: "de"), "de")
    }
}
