import Foundation
import SusiServer
import XCTest

/// The web page at `/` and its settings routes, in a real browser (headless Chromium) where
/// one is installed.
final class SetupPageTests: XCTestCase {
    private var fixture: SetupFixture!

    /// A same-origin page that drives the real page in a window of its own, as a person would
    /// (the page refuses to be framed): waits for it to load, signs in with the token in the
    /// harness's fragment when the page asks for one, picks a voice, and reports what the page
    /// then shows.
    private static let harness = #"""
        <!DOCTYPE html><html><body><div id="result">pending</div>
        <script>
        var result = document.getElementById("result");
        var token = decodeURIComponent(location.hash.slice(1));
        var page = window.open("/", "page");
        var signedIn = "no";
        function waitFor(test, then, tries) {
          var passed = false;
          try { passed = test(); } catch (e) {}
          if (passed) { then(); return; }
          if (tries <= 0) { result.textContent = "timeout"; return; }
          setTimeout(function () { waitFor(test, then, tries - 1); }, 100);
        }
        function ready() { return page.document.body.getAttribute("data-ready"); }
        function change() {
          var doc = page.document;
          var voice = doc.getElementById("voice");
          var offered = Array.prototype.map.call(voice.options, function (o) { return o.value; }).join(",");
          voice.value = "en-gb";
          voice.dispatchEvent(new Event("change"));
          waitFor(function () { return /^Saved|error/i.test(doc.getElementById("message").textContent); }, function () {
            result.textContent = "offered=" + offered + " message=" + doc.getElementById("message").textContent
              + " state=" + doc.getElementById("state").textContent + " signedin=" + signedIn;
          }, 80);
        }
        waitFor(function () { return ready() === "yes" || ready() === "signin"; }, function () {
          if (ready() === "yes") { change(); return; }
          if (!token) { result.textContent = "asked to sign in"; return; }
          var doc = page.document;
          doc.getElementById("token").value = token;
          doc.getElementById("signin").dispatchEvent(new Event("submit", { cancelable: true }));
          signedIn = "yes";
          waitFor(function () { return ready() === "yes"; }, change, 80);
        }, 80);
        </script></body></html>
        """#

    override func setUpWithError() throws {
        fixture = try SetupFixture(extraRoutes: { router in
            router.get("/test-harness") { _ in .html(Self.harness) }
        })
    }

    override func tearDown() {
        fixture.tearDown()
    }

    func testPageIsSelfContained() throws {
        let reply = try runCurl([fixture.base + "/"])
        XCTAssertEqual(reply.status, 200)
        XCTAssertTrue(reply.body.contains("<select id=\"voice\""))
        XCTAssertFalse(reply.body.contains("http://"), "no outside assets")
        XCTAssertFalse(reply.body.contains("https://"), "no outside assets")
    }

    /// The page's files are put together into one response: stylesheet and script inline, the
    /// apps' rooms in the datalist, no placeholder left.
    func testPageFilesAreInlined() throws {
        let reply = try runCurl([fixture.base + "/"])
        XCTAssertEqual(reply.status, 200)
        XCTAssertTrue(reply.body.contains("<style>\nbody {"), "the stylesheet is inline")
        XCTAssertTrue(reply.body.contains("<script>\n\"use strict\";"), "the script is inline")
        XCTAssertTrue(reply.body.contains("<datalist id=\"setup-rooms\"><option value=\"Bedroom\">"))
        XCTAssertFalse(reply.body.contains("<!--"), "no placeholder left")
        XCTAssertTrue(reply.body.hasSuffix("</html>"))
    }

    func testSettingsRouteChangesOneValidatedKey() throws {
        let settings = try fixture.get("/settings")
        XCTAssertEqual(settings.json["tts.voice"] as? String, "en-us")
        XCTAssertEqual((settings.json["rooms"] as? [String])?.count, 14)
        let voices = try runCurl([fixture.base + "/voices"])
        XCTAssertTrue(voices.body.contains("\"id\":\"en-gb\""))

        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"tts.rate","value":210}"#).status, 200)
        XCTAssertEqual(try fixture.config.tts.rate, 210)
        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"brain.mode","value":"local"}"#).status, 200)
        XCTAssertEqual(try fixture.config.brain.mode, "local")
        XCTAssertEqual(try fixture.postJSON("/settings", #"{"key":"room","value":"Guest Room"}"#).status, 200)
        XCTAssertEqual(try fixture.config.room, "Guest Room")

        let before = fixture.configBytes
        for (body, parameter) in [
            (#"{"key":"tts.rate","value":9999}"#, "value"), (#"{"key":"brain.mode","value":"psychic"}"#, "value"),
            (#"{"key":"tts.voice","value":"xx-nowhere"}"#, "value"), (#"{"key":"setup.on_wifi","value":"rm -rf /"}"#, "key"),
            (#"{"key":"room","value":"a\u0007b"}"#, "value"), ("not json", "body"), (#"{"key":"tts.rate","value":[1]}"#, "value"),
        ] {
            let reply = try fixture.postJSON("/settings", body)
            XCTAssertEqual(reply.status, 400, body)
            XCTAssertEqual(reply.json["parameter"] as? String, parameter, body)
        }
        XCTAssertEqual(fixture.configBytes, before, "nothing saved on error")
    }

    /// The harness's page as headless Chromium leaves it; `token` goes in the fragment.
    private func browse(token: String = "") throws -> String {
        try HeadlessChromium.dumpDOM(fixture.base + "/test-harness#" + token, directory: fixture.directory)
    }

    /// After setup the page asks for the owner token once; signed in, its same-origin requests
    /// carry the session cookie and the change is saved.
    func testSigningInOnThePageThenChangingTheVoice() throws {
        let token = try fixture.finishSetup()
        let refused = try browse()
        XCTAssertTrue(refused.contains("asked to sign in"), refused)
        XCTAssertEqual(try fixture.config.tts.voice, "en-us")
        let dom = try browse(token: token)
        XCTAssertTrue(dom.contains("offered=en-us,en-gb"), dom)
        XCTAssertTrue(dom.contains("message=Saved tts.voice = en-gb"), dom)
        XCTAssertTrue(dom.contains("signedin=yes"), dom)
        XCTAssertTrue(dom.contains("state=idle"), dom)
        XCTAssertEqual(try fixture.config.tts.voice, "en-gb", "the config file changed")
    }

    /// Headless Chromium loads the page, a person picks "English (Great Britain)", the config
    /// file changes.
    func testChangingTheVoiceInARealBrowser() throws {
        let dom = try browse()
        XCTAssertTrue(dom.contains("offered=en-us,en-gb"), dom)
        XCTAssertTrue(dom.contains("message=Saved tts.voice = en-gb"), dom)
        XCTAssertTrue(dom.contains("state=idle (setup mode)"), dom)
        XCTAssertEqual(try fixture.config.tts.voice, "en-gb", "the config file changed")
    }
}
