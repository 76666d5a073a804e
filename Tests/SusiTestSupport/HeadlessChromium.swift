import Foundation
import XCTest

/// Headless Chromium for the web page's tests: loads a URL with virtual time and returns the
/// DOM it leaves. Skips the test where Chromium is not installed.
public enum HeadlessChromium {
    /// The DOM of `url` after its scripts ran for up to `budgetMilliseconds` of virtual time
    /// (network waits do not count), with a fresh profile in `directory`.
    public static func dumpDOM(_ url: String, directory: String, budgetMilliseconds: Int = 20_000) throws -> String {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("Chromium is not installed (apt-get install chromium)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--disable-popup-blocking", "--user-data-dir=\(directory)/chromium-profile-\(UUID().uuidString.prefix(8))",
            "--virtual-time-budget=\(budgetMilliseconds)", "--dump-dom", url,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        process.environment = environment
        return try standardOutput(of: process)
    }
}

/// One step of what a person does on the web page, for `PageScript.harness`.
public enum PageStep: Sendable {
    /// Waits until the element's text (a field's value; a select's option texts) matches the
    /// regular expression.
    case wait(_ id: String, _ pattern: String)
    /// Waits until the page's `<body>` attribute matches the regular expression.
    case waitForBody(_ attribute: String, _ pattern: String)
    /// Types `value` into a field or picks it in a select (with `input` and `change` events).
    case set(_ id: String, _ value: String)
    /// Clicks the element, as a person would (a submit button runs the form's checks first).
    case click(_ id: String)
    /// Adds `id=text` to the result, with `(hidden)` before the text of a hidden element.
    case report(_ id: String)

    var json: [String: String] {
        switch self {
        case .wait(let id, let pattern): ["wait": id, "match": pattern]
        case .waitForBody(let attribute, let pattern): ["body": attribute, "match": pattern]
        case .set(let id, let value): ["set": id, "value": value]
        case .click(let id): ["click": id]
        case .report(let id): ["report": id]
        }
    }
}

/// A same-origin page that opens the speaker's web page in a window of its own (the page
/// refuses to be framed) and does what the steps in its URL fragment say, as a person would;
/// its `#result` then reads `done; id=text; ...`, or where it stopped and why.
public enum PageScript {
    /// The harness page; serve it on the speaker's server (same origin as `/`).
    public static let harness = #"""
        <!DOCTYPE html><html><body><div id="result">pending</div>
        <script>
        var result = document.getElementById("result");
        var steps = JSON.parse(decodeURIComponent(location.hash.slice(1)) || "[]");
        var page = window.open("/", "page");
        var reported = [];
        function find(id) { return page.document.getElementById(id); }
        function text(node) {
          var value = node.tagName === "INPUT" ? node.value : node.textContent;
          return (node.hidden || node.closest("[hidden]") ? "(hidden) " : "") + value.replace(/\s+/g, " ").trim();
        }
        function textOf(id) { var node = find(id); return node ? text(node) : "(none)"; }
        function holds(step) {
          var pattern = new RegExp(step.match);
          if (step.body !== undefined) { return pattern.test(page.document.body.getAttribute(step.body) || ""); }
          var node = find(step.wait);
          return node !== null && pattern.test(text(node));
        }
        function run(index, tries) {
          if (index >= steps.length) { result.textContent = "done; " + reported.join("; "); return; }
          var step = steps[index];
          try {
            if (step.wait !== undefined || step.body !== undefined) {
              if (!holds(step)) {
                result.textContent = (tries > 150 ? "timeout" : "waiting") + " at step " + index + " " + JSON.stringify(step) +
                  ": " + (step.wait === undefined ? "" : textOf(step.wait)) + " / progress: " + textOf("setup-progress") +
                  " / message: " + textOf("message");
                if (tries > 150) { return; }
                setTimeout(function () { run(index, tries + 1); }, 100);
                return;
              }
            } else if (step.set !== undefined) {
              var field = find(step.set);
              field.value = step.value;
              field.dispatchEvent(new Event("input", { bubbles: true }));
              field.dispatchEvent(new Event("change", { bubbles: true }));
            } else if (step.click !== undefined) {
              find(step.click).click();
            } else if (step.report !== undefined) {
              reported.push(step.report + "=" + text(find(step.report)));
            }
          } catch (error) {
            result.textContent = "failed at step " + index + " " + JSON.stringify(step) + ": " + error;
            return;
          }
          setTimeout(function () { run(index + 1, 0); }, 0);
        }
        run(0, 0);
        </script></body></html>
        """#

    /// The harness's URL fragment for `steps`.
    public static func fragment(_ steps: [PageStep]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: steps.map(\.json))) ?? Data("[]".utf8)
        let json = String(decoding: data, as: UTF8.self)
        return json.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    /// The `#result` text in a DOM that `HeadlessChromium.dumpDOM` returned.
    public static func result(in dom: String) -> String {
        guard let start = dom.range(of: "<div id=\"result\">"),
            let end = dom.range(of: "</div>", range: start.upperBound..<dom.endIndex)
        else { return dom }
        return String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
