import Foundation
import SusiTestSupport
import XCTest

/// dist/50-susi.rules, evaluated as polkit does (a JavaScript rule added with
/// `polkit.addRule`), against a stand-in `polkit` object in Node.js: the `susi` user may start,
/// stop and restart the two helper units and reboot; nothing else, and nobody else.
final class PolkitRuleTests: XCTestCase {
    /// The rule's answer for each request: `user action unit verb` in, `YES` or `NOT_HANDLED` out.
    private func answers(_ requests: [String]) throws -> [String] {
        guard let node = ["/usr/bin/node", "/usr/bin/nodejs"].first(where: FileManager.default.isExecutableFile) else {
            throw XCTSkip("Node.js is missing (Debian package nodejs; make deps installs it)")
        }
        let harness = """
            const fs = require("fs");
            const rules = [];
            const polkit = { Result: { YES: "YES", NO: "NO", NOT_HANDLED: "NOT_HANDLED" }, addRule: (f) => rules.push(f) };
            new Function("polkit", fs.readFileSync(process.argv[1], "utf8"))(polkit);
            for (const line of fs.readFileSync(0, "utf8").split("\\n").filter((l) => l)) {
              const [user, id, unit, verb] = line.split(" ");
              const action = { id, lookup: (key) => ({ unit, verb })[key] };
              let result = "NOT_HANDLED";
              for (const rule of rules) {
                const r = rule(action, { user });
                if (r !== undefined && r !== "NOT_HANDLED") { result = r; break; }
              }
              console.log(result);
            }
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: node)
        process.arguments = ["-e", harness, repositoryRoot + "/dist/50-susi.rules"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data((requests.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func testOnlyTheHelperUnitsAndRebootAreAllowedAndOnlyForSusi() throws {
        let units = "org.freedesktop.systemd1.manage-units"
        let cases: [(String, String)] = [
            ("susi \(units) susi-hotspot.service start", "YES"),
            ("susi \(units) susi-hotspot.service stop", "YES"),
            ("susi \(units) susi-wifi-join.service restart", "YES"),
            ("susi org.freedesktop.login1.reboot - -", "YES"),
            ("susi \(units) susi-hotspot.service reload-or-restart", "NOT_HANDLED"),
            ("susi \(units) ssh.service start", "NOT_HANDLED"),
            ("susi \(units) susi.service stop", "NOT_HANDLED"),
            ("susi org.freedesktop.systemd1.manage-unit-files - -", "NOT_HANDLED"),
            ("susi org.freedesktop.login1.power-off - -", "NOT_HANDLED"),
            ("mallory \(units) susi-hotspot.service start", "NOT_HANDLED"),
            ("mallory org.freedesktop.login1.reboot - -", "NOT_HANDLED"),
        ]
        XCTAssertEqual(try answers(cases.map(\.0)), cases.map(\.1))
    }
}
