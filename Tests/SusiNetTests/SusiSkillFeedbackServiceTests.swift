import Foundation
import SusiModel
import SusiNet
import SusiServer
import XCTest

/// The voice side of the skill features: the sentences spoken, against the loopback CMS.
final class SusiSkillFeedbackServiceTests: XCTestCase {
    private var directory = ""
    private let skill = SkillReference(group: "Knowledge", name: "wikipedia")

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "susi-voice-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func service(_ base: String, loggedIn: Bool) throws -> SkillFeedbackService {
        let account = AccountStore(path: directory + "/account.json")
        if loggedIn {
            try account.save(
                AccountToken(
                    accessToken: "tok-9", expiresAt: Date().addingTimeInterval(3600), email: "me@example.com",
                    server: base))
        }
        return SkillFeedbackService(client: SkillCMSClient(server: base, http: CurlHTTPClient()), account: account)
    }

    private func server() throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/cms/getSkillFeedback.json") { _ in jsonReply(SusiSkillCMSTests.feedback) }
            router.get("/cms/getSkillRating.json") { _ in
                jsonReply(
                    #"{"skill_rating": {"stars": {"one_star": 0, "two_star": 0, "three_star": 1, "four_star": 3, "five_star": 1, "avg_star": 3.8, "total_star": 5}}}"#
                )
            }
            router.get("/cms/fiveStarRateSkill.json") { _ in jsonReply(#"{"accepted": true, "message": "ok"}"#) }
            router.get("/cms/reportSkill.json") { request in
                request.query["skill"] == "wikipedia"
                    ? .html("<title>Already reported</title>", status: 422) : jsonReply(#"{"accepted": true}"#)
            }
        }
    }

    func testSpokenReviewsAreAnonymisedAndLimited() throws {
        let (httpServer, base) = try server()
        defer { httpServer.stop() }
        let outcome = try service(base, loggedIn: false).reviews(skill)
        XCTAssertNil(outcome.error)
        XCTAssertEqual(
            outcome.text,
            "The wikipedia skill has 4 reviews. Anna says: Best skill ever. luigi says: Meh. mario says: Quite good.")
        XCTAssertFalse(outcome.text.contains("@"), "no address is spoken")
    }

    func testSpokenRatingsRateAndReport() throws {
        let (httpServer, base) = try server()
        defer { httpServer.stop() }
        let loggedIn = try service(base, loggedIn: true)
        XCTAssertEqual(
            loggedIn.ratings(skill).text,
            "This skill is rated 3.8 out of 5 by 5 people. The most common rating is four stars.")
        XCTAssertEqual(loggedIn.rate(skill, stars: 4).text, "Thanks! You rated the wikipedia skill four stars.")
        let rateZero = loggedIn.rate(skill, stars: 0)
        XCTAssertEqual(rateZero.error?.code, "skill-bad-input")
        let again = loggedIn.report(skill)
        XCTAssertEqual(again.text, "You have already reported this skill.")
        XCTAssertEqual(again.error?.code, "skill-already-reported")
        XCTAssertNil(loggedIn.report(SkillReference(group: "Fun", name: "jokes")).error)
    }

    func testWritesNeedALoginAndASkill() throws {
        let (httpServer, base) = try server()
        defer { httpServer.stop() }
        let outcome = try service(base, loggedIn: false).rate(skill, stars: 5)
        XCTAssertEqual(outcome.error?.code, "account-not-logged-in")
        XCTAssertTrue(outcome.text.contains("log in"), outcome.text)
        let none = try service(base, loggedIn: true).rate(nil, stars: 5)
        XCTAssertTrue(none.text.contains("which skill"), none.text)
        let builtIn = ChatResponse(
            query: "time", queryDate: "", answerDate: "", answerTime: 0,
            answers: [ChatAnswer(actions: [], skills: ["time"])])
        XCTAssertNil(SkillFeedbackService.skill(answeredBy: builtIn))
    }

    func testServerDownIsSpokenPolitely() throws {
        let closed = try RawSocket()
        let outcome = try service("http://127.0.0.1:\(closed.port)", loggedIn: false).ratings(skill)
        XCTAssertEqual(outcome.error?.code, "skill-connection-refused")
        XCTAssertTrue(outcome.text.hasPrefix("Sorry"), outcome.text)
    }
}
