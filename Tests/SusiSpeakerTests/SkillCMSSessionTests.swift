import Foundation
import SusiNet
import SusiServer
import SusiTestSupport
import XCTest

@testable import SusiSpeaker

/// `susi skill`'s library side: the lines printed and the one-line failures, against a
/// loopback skill CMS.
final class SkillCMSSessionTests: XCTestCase {
    private var scratch: ScratchConfig!
    private var server: HTTPServer?
    private var base = ""
    private let skill = SkillReference(group: "Knowledge", name: "wikipedia")

    private static let feedback = """
        {"accepted": true, "feedback": [
          {"feedback": "Great skill", "email": "mario.rossi@example.com", "timestamp": "2018-06-12 17:04:58.785"},
          {"feedback": "Works\\nwell", "email": "anna@example.org", "timestamp": "2018-06-11 09:00:00.0", "user_name": "Anna"},
          {"feedback": "Fine", "email": "luigi@example.net", "timestamp": "2018-06-10 09:00:00.0"},
          {"feedback": "Old", "email": "old@example.net", "timestamp": "2018-01-10 09:00:00.0"}
        ]}
        """

    override func setUpWithError() throws {
        scratch = try ScratchConfig()
        let (server, base) = try startServer { router in
            @Sendable func json(_ text: String) -> ServerResponse {
                ServerResponse(status: 200, contentType: ServerResponse.jsonContentType, body: Data(text.utf8))
            }
            router.get("/cms/getSkillFeedback.json") { request in
                request.query["skill"] == "wikipedia" ? json(Self.feedback) : .html("<title>Not Found</title>", status: 404)
            }
            router.get("/cms/fiveStarRateSkill.json") { request in
                // Five stars: the skill's first rating.
                request.query["stars"] == "5"
                    ? json(
                        #"{"accepted": true, "ratings": {"one_star": 0, "two_star": 0, "three_star": 0, "four_star": 0, "five_star": 1, "avg_star": 5, "total_star": 1}}"#
                    )
                    : json(
                        #"{"accepted": true, "ratings": {"one_star": 0, "two_star": 0, "three_star": 1, "four_star": 1, "five_star": 0, "avg_star": 3.5, "total_star": 2}}"#
                    )
            }
            router.get("/cms/feedbackSkill.json") { _ in json(#"{"accepted": false, "message": "Feedback too short"}"#) }
            router.get("/cms/reportSkill.json") { _ in .html("<title>Already reported</title>", status: 422) }
        }
        self.server = server
        self.base = base
        _ = try scratch.store.set([("brain.server", base)])
    }

    override func tearDown() {
        server?.stop()
        scratch.remove()
    }

    private func session() throws -> SkillCMSSession {
        SkillCMSSession(
            config: try scratch.store.load(), store: scratch.store, http: CurlHTTPClient(stage: .brain), logger: .silent)
    }

    private func logIn() throws {
        let token = AccountToken(
            accessToken: "tok", expiresAt: Date().addingTimeInterval(3600), email: "me@example.com", server: base)
        try AccountStore(configStore: scratch.store).save(token)
    }

    func testReviewsShowTheNewestThreeAnonymisedAndCountTheRest() throws {
        let lines = try session().reviews(of: skill, all: false, json: false)
        XCTAssertEqual(
            lines,
            [
                "wikipedia (general/Knowledge/en): 4 reviews", "", "mario.rossi@..., 2018-06-12", "  Great skill", "",
                "Anna, 2018-06-11", "  Works", "  well", "", "luigi@..., 2018-06-10", "  Fine", "", "1 more, use --all",
            ])
        XCTAssertEqual(try session().reviews(of: skill, all: true, json: false).filter { $0.hasPrefix("  ") }.count, 5)
    }

    func testReviewsAsJSONCarryAvatarsButNoAddresses() throws {
        let text = try XCTUnwrap(try session().reviews(of: skill, all: false, json: true).first)
        XCTAssertFalse(text.contains("@example"), text)
        let object = try jsonObject(Data(text.utf8))
        XCTAssertEqual(object["total"] as? Int, 4)
        XCTAssertEqual(object["more"] as? Int, 1)
        let reviews = try XCTUnwrap(object["reviews"] as? [[String: Any]])
        XCTAssertEqual(reviews.map { $0["reviewer"] as? String }, ["mario.rossi@...", "Anna", "luigi@..."])
        XCTAssertTrue((reviews[0]["avatar"] as? String)?.hasPrefix("https://www.gravatar.com/avatar/") ?? false)
    }

    /// Issue 51: a review's lines split by "\r\n" or a bare "\r" are lines, as with "\n".
    func testReviewLinesSplitAtEveryLineEnd() {
        let review = SkillReview(text: "One\r\nTwo\rThree\nFour", email: "anna@example.org", userName: "Anna")
        XCTAssertEqual(
            SkillCMSSession.reviewLines(skill, reviews: [review], total: 1).suffix(4), ["  One", "  Two", "  Three", "  Four"])
    }

    func testNoReviewsSaySo() {
        XCTAssertEqual(
            SkillCMSSession.reviewLines(skill, reviews: [], total: 0), ["wikipedia (general/Knowledge/en): no reviews yet"])
    }

    func testWritesNeedALoginThenSayTheOutcome() throws {
        XCTAssertThrowsError(try session().rate(skill, stars: 4)) { error in
            XCTAssertEqual((error as? SusiAPIError)?.kind, .notLoggedIn)
        }
        try logIn()
        XCTAssertEqual(try session().rate(skill, stars: 4), "Rated wikipedia 4 stars; it now averages 3.5 from 2 ratings.")
        XCTAssertEqual(try session().rate(skill, stars: 5), "Rated wikipedia 5 stars; it now averages 5.0 from 1 rating.")
    }

    func testFailuresAreOneLineNamingTheSkillAndKeepTheCode() throws {
        try logIn()
        XCTAssertThrowsError(try session().review(skill, text: "ok")) { error in
            let failure = error as? SkillCMSRequestError
            XCTAssertEqual(failure?.message, "the server did not accept the request to review wikipedia: Feedback too short")
            XCTAssertEqual(failure?.code, "skill-rejected")
        }
        XCTAssertThrowsError(try session().report(skill, reason: "spam")) { error in
            XCTAssertEqual((error as? SkillCMSRequestError)?.message, "you have already reported wikipedia (HTTP 422)")
        }
        let unknown = SkillReference(group: "Knowledge", name: "nothing")
        XCTAssertThrowsError(try session().reviews(of: unknown, all: false, json: false)) { error in
            XCTAssertEqual(
                (error as? SkillCMSRequestError)?.message,
                "the server does not know the skill nothing (general/Knowledge/en) (HTTP 404)")
        }
    }
}
