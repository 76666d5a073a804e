import Foundation
import SusiServer
import XCTest

/// `susi skill ...` end to end against a loopback skill CMS.
final class SkillCommandTests: XCTestCase {
    private var cli: CLIRunner!
    private var server: HTTPServer?
    private var base = ""

    static let feedback = """
        {"accepted": true, "feedback": [
          {"feedback": "First!", "email": "first.person@example.com", "timestamp": "2018-01-01 10:00:00.0"},
          {"feedback": "Great skill", "email": "mario.rossi@example.com", "timestamp": "2018-06-12 17:04:58.785", "user_name": ""},
          {"feedback": "Works well", "email": "anna@example.org", "timestamp": "2018-06-11 09:00:00.0", "user_name": "Anna", "avatar": "https://img.example/anna.png"},
          {"feedback": "Could be better\\nbut fine", "email": "luigi@example.net", "timestamp": "2018-06-10 09:00:00.0"},
          {"feedback": "Nice\\u001b]0;owned\\u0007\\u001b[2J", "email": "peach@example.com", "timestamp": "2018-03-01 09:00:00.0"}
        ]}
        """

    override func setUpWithError() throws {
        cli = try CLIRunner()
        var router = Router()
        @Sendable func json(_ text: String, status: Int = 200) -> ServerResponse {
            ServerResponse(status: status, contentType: ServerResponse.jsonContentType, body: Data(text.utf8))
        }
        router.get("/cms/getSkillFeedback.json") { request in
            request.query["skill"] == "wikipedia" && request.query["group"] == "Knowledge"
                ? json(Self.feedback) : .html("<title>Not Found</title>", status: 404)
        }
        router.get("/cms/getSkillRating.json") { _ in
            json(
                #"{"accepted": true, "skill_rating": {"stars": {"one_star": 1, "two_star": 0, "three_star": 1, "four_star": 2, "five_star": 6, "avg_star": 4.2, "total_star": 10}}}"#
            )
        }
        router.get("/cms/fiveStarRateSkill.json") { request in
            guard request.query["access_token"] == "TOKEN" else {
                return .html("<title>Unauthorized</title>", status: 401)
            }
            return json(
                #"{"accepted": true, "ratings": {"one_star": 1, "two_star": 0, "three_star": 1, "four_star": 3, "five_star": 6, "avg_star": 4.2, "total_star": 11}}"#
            )
        }
        router.get("/cms/getRatingByUser.json") { request in
            guard request.query["access_token"] == "TOKEN" else { return .html("<title>Bad access_token.</title>", status: 422) }
            guard request.query["skill"] == "wikipedia", request.query["group"] == "Knowledge",
                request.query["model"] == "general",
                request.query["language"] == "en"
            else { return json(#"{"accepted": true, "message": "Skill not rated by the user"}"#) }
            return json(
                #"{"accepted": true, "message": "Fetched user rating successfully", "ratings": {"stars": "4", "email": "me@example.com", "timestamp": "2018-06-12"}}"#
            )
        }
        router.get("/cms/feedbackSkill.json") { _ in json(#"{"accepted": false, "message": "Feedback too short"}"#) }
        router.get("/cms/reportSkill.json") { _ in .html("<title>Already reported</title>", status: 422) }
        let server = HTTPServer(port: 0, router: router)
        try server.start()
        self.server = server
        base = "http://127.0.0.1:\(try XCTUnwrap(server.port))"
        XCTAssertEqual(try cli.run(["config", "set", "brain.server", base]).status, 0)
    }

    override func tearDown() {
        server?.stop()
        cli.cleanUp()
    }

    private func logIn(server: String? = nil) throws {
        let file =
            #"{"access_token": "TOKEN", "expires_at": \#(Date().timeIntervalSince1970 + 3600), "email": "me@example.com", "server": "\#(server ?? base)"}"#
        try Data(file.utf8).write(to: URL(fileURLWithPath: cli.directory + "/susi/account.json"))
    }

    func testFeedbackShowsTheThreeNewestAnonymised() throws {
        let result = try cli.run(["skill", "feedback", "wikipedia", "--group", "Knowledge"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            wikipedia (general/Knowledge/en): 5 reviews

            mario.rossi@..., 2018-06-12
              Great skill

            Anna, 2018-06-11
              Works well

            luigi@..., 2018-06-10
              Could be better
              but fine

            2 more, use --all

            """)
        XCTAssertFalse(result.stdout.contains("@example"), "no full address")
        let all = try cli.run(["skill", "feedback", "Knowledge/wikipedia", "--all"])
        XCTAssertTrue(all.stdout.contains("first.person@..., 2018-01-01"), all.stdout)
        XCTAssertFalse(all.stdout.contains("more, use --all"))
        XCTAssertTrue(
            all.stdout.contains("  Nice\n"), "another user's escape codes are not printed: \(all.stdout.debugDescription)")
        XCTAssertFalse(all.stdout.contains("@example"))
    }

    func testFeedbackJSONAddsAvatarsButNoAddresses() throws {
        let result = try cli.run(["skill", "feedback", "Knowledge/wikipedia", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.contains("@example"), "no full address: \(result.stdout)")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["total"] as? Int, 5)
        XCTAssertEqual(object["more"] as? Int, 2)
        let reviews = try XCTUnwrap(object["reviews"] as? [[String: Any]])
        XCTAssertEqual(reviews.map { $0["reviewer"] as? String }, ["mario.rossi@...", "Anna", "luigi@..."])
        XCTAssertEqual(reviews[1]["avatar"] as? String, "https://img.example/anna.png")
        // md5("mario.rossi@example.com")
        XCTAssertEqual(
            reviews[0]["avatar"] as? String, "https://www.gravatar.com/avatar/\(md5OfMario)?d=identicon")
    }

    private var md5OfMario: String {
        // Computed independently of the code under test with the md5sum tool.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/md5sum")
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(Data("mario.rossi@example.com".utf8))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(32))
    }

    func testRatingsChart() throws {
        let result = try cli.run(["skill", "ratings", "Knowledge/wikipedia"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 7, result.stdout)
        XCTAssertEqual(lines[0], "Ratings of wikipedia (general/Knowledge/en)")
        XCTAssertTrue(lines[1].hasPrefix("5 ★ ") && lines[1].hasSuffix(" 6  60%"), lines[1])
        XCTAssertTrue(lines[4].hasPrefix("2 ★ ") && lines[4].hasSuffix(" 0   0%"), lines[4])
        XCTAssertTrue(lines[5].hasPrefix("1 ★ ") && lines[5].hasSuffix(" 1  10%"), lines[5])
        XCTAssertEqual(lines[6], "average 4.2 of 5 from 10 ratings")
    }

    func testRatingsShowYourOwnWhenLoggedIn() throws {
        try logIn()
        let rated = try cli.run(["skill", "ratings", "Knowledge/wikipedia"])
        XCTAssertEqual(rated.status, 0, rated.stderr)
        XCTAssertTrue(rated.stdout.hasSuffix("average 4.2 of 5 from 10 ratings\nYour rating: 4 stars\n"), rated.stdout)
        let unrated = try cli.run(["skill", "ratings", "Knowledge/news"])
        XCTAssertTrue(unrated.stdout.hasSuffix("You have not rated it yet.\n"), unrated.stdout)
        try logIn(server: "https://elsewhere.example")
        let other = try cli.run(["skill", "ratings", "Knowledge/wikipedia"])
        XCTAssertFalse(other.stdout.contains("rating:"), "a login for another server is not used: \(other.stdout)")
    }

    func testWritesNeedALoginAndReportTheServersAnswerInOneLine() throws {
        let anonymous = try cli.run(["skill", "rate", "Knowledge/wikipedia", "4"])
        XCTAssertEqual(anonymous.status, 1)
        XCTAssertTrue(anonymous.stderr.contains("run `susi login` first"), anonymous.stderr)

        try logIn()
        let rated = try cli.run(["skill", "rate", "Knowledge/wikipedia", "4"])
        XCTAssertEqual(rated.status, 0, rated.stderr)
        XCTAssertEqual(rated.stdout, "Rated wikipedia 4 stars; it now averages 4.2 from 11 ratings.\n")

        let review = try cli.run(["skill", "review", "Knowledge/wikipedia", "ok"])
        XCTAssertEqual(review.status, 1)
        XCTAssertTrue(
            review.stderr.contains("did not accept") && review.stderr.contains("Feedback too short"), review.stderr)

        let report = try cli.run(["skill", "report", "Knowledge/wikipedia", "--reason", "spam"])
        XCTAssertEqual(report.status, 1)
        XCTAssertTrue(report.stderr.contains("already reported"), report.stderr)
        XCTAssertEqual(report.stderr.split(separator: "\n").count, 1)

        let missing = try cli.run(["skill", "feedback", "Knowledge/nothing"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("does not know the skill nothing"), missing.stderr)

        try logIn(server: "http://127.0.0.1:1")
        let foreign = try cli.run(["skill", "rate", "Knowledge/wikipedia", "4"])
        XCTAssertTrue(foreign.stderr.contains("susi login"), foreign.stderr)
    }

    func testUsageErrorsNameTheArgument() throws {
        let stars = try cli.run(["skill", "rate", "Knowledge/wikipedia", "9"])
        XCTAssertEqual(stars.status, 2)
        XCTAssertTrue(stars.stderr.contains("STARS"), stars.stderr)
        let group = try cli.run(["skill", "ratings", "wikipedia"])
        XCTAssertEqual(group.status, 2)
        XCTAssertTrue(group.stderr.contains("--group"), group.stderr)
        let reason = try cli.run(["skill", "report", "Knowledge/wikipedia"])
        XCTAssertEqual(reason.status, 2)
        XCTAssertTrue(reason.stderr.contains("--reason"), reason.stderr)
    }
}
