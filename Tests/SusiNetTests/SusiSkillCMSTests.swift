import Foundation
import SusiNet
import SusiServer
import XCTest

/// The skill CMS endpoints on a loopback server, written from the documented shapes.
final class SusiSkillCMSTests: XCTestCase {
    private let skill = SkillReference(group: "Knowledge", name: "wikipedia")
    private let token = { (server: String) in
        AccountToken(
            accessToken: "tok-9", expiresAt: Date().addingTimeInterval(3600), email: "me@example.com", server: server)
    }

    static let feedback = """
        {"skill_name": "wikipedia", "accepted": true, "message": "Skill feedback fetched", "feedback": [
          {"feedback": "Quite good", "email": "mario@example.com", "timestamp": "2018-06-10 09:00:00.1", "user_name": "", "avatar": ""},
          {"feedback": "Best skill ever", "email": "Anna.B@Example.org ", "timestamp": "2018-06-12 17:04:58.785", "user_name": "Anna", "avatar": "https://api.susi.ai/images/anna.jpg"},
          {"feedback": "Meh", "email": "luigi@example.net", "timestamp": "2018-06-11 08:00:00.0"},
          {"feedback": "", "email": "empty@example.com", "timestamp": "2018-06-13 08:00:00.0"},
          {"feedback": "Old one", "email": "old@example.com", "timestamp": "1497000000000"}
        ]}
        """

    private func cmsServer(seen: QueryLog = QueryLog()) throws -> (HTTPServer, String) {
        try startServer { router in
            router.get("/cms/getSkillFeedback.json") { request in
                seen.append(request.query)
                if request.query["skill"] == "unreviewed" {
                    return jsonReply(
                        #"{"skill_name": "unreviewed", "feedback": [], "accepted": false, "message": "Skill hasn't been given any feedback"}"#
                    )
                }
                return jsonReply(Self.feedback)
            }
            router.get("/cms/getSkillRating.json") { request in
                seen.append(request.query)
                if request.query["skill"] == "unrated" {
                    return jsonReply(
                        #"{"accepted": false, "message": "Skill has not been rated yet", "skill_rating": {"negative": "0", "positive": "0", "stars": {"one_star": 0, "two_star": 0, "three_star": 0, "four_star": 0, "five_star": 0, "avg_star": 0, "total_star": 0}}}"#
                    )
                }
                return jsonReply(
                    #"{"skill_name": "wikipedia", "accepted": true, "skill_rating": {"negative": "0", "positive": "3", "feedback_count": 5, "stars": {"one_star": 1, "two_star": "0", "three_star": 1, "four_star": 2, "five_star": 6, "avg_star": 4.2, "total_star": 10}}}"#
                )
            }
            router.get("/cms/fiveStarRateSkill.json") { request in
                seen.append(request.query)
                guard request.query["access_token"] == "tok-9" else {
                    return .html("<title>Unauthorized</title>", status: 401)
                }
                return jsonReply(
                    #"{"accepted": true, "message": "Skill ratings updated", "ratings": {"one_star": 1, "two_star": 0, "three_star": 1, "four_star": 3, "five_star": 6, "total_star": 11, "avg_star": 4.18}}"#
                )
            }
            router.get("/cms/feedbackSkill.json") { request in
                seen.append(request.query)
                if request.query["skill"] == "ghost" { return .html("<title>Skill not found</title>", status: 404) }
                if request.query["feedback"] == "spam" {
                    return jsonReply(#"{"accepted": false, "message": "Feedback rejected"}"#)
                }
                return jsonReply(#"{"accepted": true, "message": "Skill feedback updated"}"#)
            }
            router.get("/cms/reportSkill.json") { request in
                seen.append(request.query)
                if request.query["skill"] == "reported" {
                    return .html("<title>Skill already reported</title>", status: 422)
                }
                return jsonReply(#"{"accepted": true, "message": "Skill has been reported successfully"}"#)
            }
        }
    }

    func testReviewsNewestFirstWithAnonymisedReviewersAndAvatars() throws {
        let seen = QueryLog()
        let (server, base) = try cmsServer(seen: seen)
        defer { server.stop() }
        let reviews = try SkillCMSClient(server: base, http: CurlHTTPClient()).reviews(of: skill)
        XCTAssertEqual(
            seen.all.first, ["model": "general", "group": "Knowledge", "language": "en", "skill": "wikipedia"])
        XCTAssertEqual(
            reviews.map(\.text), ["Best skill ever", "Meh", "Quite good", "Old one"], "empty text dropped, newest first"
        )
        XCTAssertEqual(reviews.map(\.reviewer), ["Anna", "luigi@...", "mario@...", "old@..."])
        XCTAssertEqual(reviews.map(\.day), ["2018-06-12", "2018-06-11", "2018-06-10", "2017-06-09"])
        XCTAssertEqual(reviews[0].avatarURL, "https://api.susi.ai/images/anna.jpg")
        XCTAssertEqual(
            reviews[1].avatarURL, "https://www.gravatar.com/avatar/\(MD5.hex("luigi@example.net"))?d=identicon")

        let unreviewed = try SkillCMSClient(server: base, http: CurlHTTPClient())
            .reviews(of: SkillReference(group: "Knowledge", name: "unreviewed"))
        XCTAssertEqual(unreviewed, [], "no feedback yet is not an error")
    }

    func testGravatarUsesTheTrimmedLowerCasedAddress() {
        let review = SkillReview(text: "x", email: "  Anna.B@Example.org ")
        XCTAssertEqual(review.avatarURL, SkillReview.gravatarURL(email: "anna.b@example.org"))
        XCTAssertEqual(review.reviewer, "Anna.B@...")
        XCTAssertNil(SkillReview(text: "x", email: "").avatarURL)
        XCTAssertEqual(SkillReview(text: "x", email: "").reviewer, "someone")
    }

    func testRatingsBothShapesAndUnrated() throws {
        let (server, base) = try cmsServer()
        defer { server.stop() }
        let client = SkillCMSClient(server: base, http: CurlHTTPClient())
        let ratings = try client.ratings(of: skill)
        XCTAssertEqual(ratings.counts, [1, 0, 1, 2, 6])
        XCTAssertEqual(ratings.total, 10)
        XCTAssertEqual(ratings.average, 4.2, accuracy: 0.001)
        XCTAssertEqual(ratings.percentage(stars: 5), 60)
        let unrated = try client.ratings(of: SkillReference(group: "Knowledge", name: "unrated"))
        XCTAssertEqual(unrated, .none)
        XCTAssertEqual(unrated.spokenSummary, "Nobody has rated this skill yet.")
    }

    func testRateReviewReportWithToken() throws {
        let seen = QueryLog()
        let (server, base) = try cmsServer(seen: seen)
        defer { server.stop() }
        let client = SkillCMSClient(server: base, http: CurlHTTPClient())
        let rated = try client.rate(skill, stars: 4, token: token(base))
        XCTAssertEqual(seen.all.last?["stars"], "4")
        XCTAssertEqual(seen.all.last?["access_token"], "tok-9")
        XCTAssertEqual(rated.message, "Skill ratings updated")
        XCTAssertEqual(rated.ratings?.total, 11)

        let reviewed = try client.review(skill, text: "  Helpful! ", token: token(base))
        XCTAssertEqual(seen.all.last?["feedback"], "Helpful!")
        XCTAssertEqual(reviewed.message, "Skill feedback updated")

        let reported = try client.report(skill, reason: "Wrong answers", token: token(base))
        XCTAssertEqual(seen.all.last?["feedback"], "Wrong answers")
        XCTAssertEqual(reported.message, "Skill has been reported successfully")
    }

    func testWriteFailuresHaveTheirOwnCodes() throws {
        let (server, base) = try cmsServer()
        defer { server.stop() }
        let client = SkillCMSClient(server: base, http: CurlHTTPClient())
        let stale = AccountToken(accessToken: "bad", expiresAt: Date().addingTimeInterval(60), email: "", server: base)
        let cases: [(String, () throws -> Void)] = [
            ("skill-unauthorized", { _ = try client.rate(self.skill, stars: 5, token: stale) }),
            ("skill-bad-input", { _ = try client.rate(self.skill, stars: 6, token: self.token(base)) }),
            ("skill-bad-input", { _ = try client.review(self.skill, text: " ", token: self.token(base)) }),
            (
                "skill-not-found",
                {
                    _ = try client.review(
                        SkillReference(group: "X", name: "ghost"), text: "hi", token: self.token(base))
                }
            ),
            ("skill-rejected", { _ = try client.review(self.skill, text: "spam", token: self.token(base)) }),
            (
                "skill-already-reported",
                {
                    _ = try client.report(
                        SkillReference(group: "X", name: "reported"), reason: "bad", token: self.token(base))
                }
            ),
            (
                "account-not-logged-in",
                { _ = try client.rate(self.skill, stars: 5, token: self.token("https://api.susi.ai")) }
            ),
        ]
        for (code, call) in cases {
            XCTAssertThrowsError(try call(), code) { error in
                XCTAssertEqual((error as? SusiAPIError)?.code, code)
            }
        }
        let closed = try RawSocket()
        XCTAssertThrowsError(
            try SkillCMSClient(server: "http://127.0.0.1:\(closed.port)", http: CurlHTTPClient()).ratings(of: skill)
        ) {
            XCTAssertEqual(($0 as? SusiAPIError)?.code, "skill-connection-refused")
        }
    }

    func testRatingChartLines() {
        let ratings = SkillRatings(
            oneStar: 1, twoStar: 0, threeStar: 1, fourStar: 2, fiveStar: 6, average: 4.2, total: 10)
        let lines = ratings.chartLines(barWidth: 10)
        XCTAssertEqual(lines.count, 6)
        XCTAssertEqual(lines[0], "5 ★ ██████···· 6  60%")
        XCTAssertEqual(lines[1], "4 ★ ██········ 2  20%")
        XCTAssertEqual(lines[3], "2 ★ ·········· 0   0%")
        XCTAssertEqual(lines[4], "1 ★ █········· 1  10%")
        XCTAssertEqual(lines[5], "average 4.2 of 5 from 10 ratings")
        XCTAssertEqual(SkillRatings.none.chartLines().last, "average 0 of 5 from 0 ratings")
    }
}

/// RFC 1321's test suite (appendix A.5).
final class SusiMD5Tests: XCTestCase {
    func testRFC1321Vectors() {
        let vectors = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, digest) in vectors {
            XCTAssertEqual(MD5.hex(input), digest, input)
        }
        // Gravatar's documented example address.
        XCTAssertEqual(MD5.hex("myemailaddress@example.com"), "0bc83cb571cd1c50ba6f3e8a78ef1346")
    }
}
