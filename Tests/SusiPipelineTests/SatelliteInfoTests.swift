import XCTest

@testable import SusiModel
@testable import SusiPipeline

/// What Home Assistant learns from `describe`: the room as the satellite's name and area, the
/// wake phrase, the microphone's format, and a loudspeaker only when one plays.
final class SatelliteInfoTests: XCTestCase {
    func testTheRoomNamesTheSatelliteAndItsArea() {
        var config = Config()
        config.room = "Kitchen"
        config.hotword.phrase = "computer"
        let info = SatelliteInfo.event(config, version: "1.2.3", playsAnswers: true)
        XCTAssertEqual(info.type, "info")
        let satellite = info.data["satellite"]
        XCTAssertEqual(satellite?["name"], "SUSI.AI speaker (Kitchen)")
        XCTAssertEqual(satellite?["area"], "Kitchen")
        XCTAssertEqual(satellite?["active_wake_words"], ["computer"])
        XCTAssertEqual(satellite?["has_vad"], true)
        XCTAssertEqual(satellite?["version"], "1.2.3")
        XCTAssertEqual(info.data["wake"]?[0]?["models"]?[0]?["phrase"], "computer")
        XCTAssertEqual(info.data["mic"]?[0]?["mic_format"], ["rate": 16000, "width": 2, "channels": 1])
        XCTAssertEqual(info.data["snd"]?[0]?["snd_format"], ["rate": 22050, "width": 2, "channels": 1])
        XCTAssertEqual(satellite?["snd_format"], ["rate": 22050, "width": 2, "channels": 1], "where wyoming 1.5 reads it")
    }

    func testWithoutARoomOrLoudspeaker() {
        let info = SatelliteInfo.event(Config(), version: "1", playsAnswers: false)
        XCTAssertEqual(info.data["satellite"]?["name"], "SUSI.AI speaker")
        XCTAssertEqual(info.data["satellite"]?["area"], .null)
        XCTAssertEqual(info.data["snd"], [], "no sound output is offered")
        XCTAssertNil(info.data["satellite"]?["snd_format"])
        XCTAssertEqual(info.data["satellite"]?["active_wake_words"], ["susi"])
    }
}
