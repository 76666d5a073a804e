import Foundation
import SusiServer

/// chat.json replies written by us from the documented shapes of the SUSI server's replies:
/// the newer layout (`query_language`, no `count`) and the older one (`language` + `count`),
/// numbers as strings where old servers sent them so.
enum SusiRecordedReplies {
    /// Newer layout, one answer carrying every documented action type plus an unknown one.
    static let everyActionNewer = """
        {
          "query": "show me everything",
          "client_id": "aG9zdF8xMjcuMC4wLjE=",
          "query_date": "2024-03-04T10:00:00.000Z",
          "answers": [{
            "data": [
              {"title": "First headline", "description": "Some news", "link": "https://example.org/1", "name": "Berlin", "population": 3645000},
              {"title": "Second headline", "description": "More news", "link": "https://example.org/2", "name": "Hamburg", "population": "1841000"},
              "a bare value"
            ],
            "metadata": {"count": 3, "offset": 0},
            "actions": [
              {"type": "answer", "expression": "Here is everything.", "language": "en"},
              {"type": "answer", "expression": "Time is up!", "plan_delay": "300000"},
              {"type": "table", "columns": {"name": "City", "population": "People"}, "count": -1},
              {"type": "table", "columns": ["name", "population"], "count": "2"},
              {"type": "piechart", "total": 100, "key": "name", "value": "population", "unit": "%"},
              {"type": "rss", "title": "title", "description": "description", "link": "link", "count": 2},
              {"type": "websearch", "query": "swift programming", "count": "3"},
              {"type": "anchor", "link": "https://susi.ai", "text": "SUSI.AI"},
              {"type": "map", "latitude": "52.52", "longitude": 13.405, "zoom": "13"},
              {"type": "video_play", "identifier": "7qnd-hdmgfk", "identifier_type": "youtube"},
              {"type": "audio_play", "identifier": "https://example.org/song.mp3", "identifier_type": "url"},
              {"type": "audio_play", "identifier": "artist/track", "identifier_type": "soundcloud"},
              {"type": "audio_volume", "volume": "40"},
              {"type": "stop"}, {"type": "pause"}, {"type": "resume"}, {"type": "restart"},
              {"type": "next"}, {"type": "previous"}, {"type": "shuffle"},
              {"type": "timer_set", "hour": 7, "minute": "30", "second": 0},
              {"type": "image_show", "url": "https://example.org/cat.jpg"},
              {"type": "hologram", "colour": "blue"},
              "not an action"
            ],
            "skills": ["/susi_skills/models/general/Knowledge/en/everything.txt"],
            "persona": {}
          }],
          "answer_date": "2024-03-04T10:00:00.120Z",
          "answer_time": 120,
          "query_language": "en",
          "session": {"identity": {"type": "host", "name": "127.0.0.1", "anonymous": true}}
        }
        """

    /// Older layout: `language` and `count`, numbers as strings.
    static let helloOlder = """
        {
          "query": "hello",
          "count": "1",
          "client_id": "aG9zdF8xMjcuMC4wLjE=",
          "query_date": "2017-09-04T10:00:00.000Z",
          "answers": [{
            "data": [{"0": "hello", "1": "hello"}],
            "metadata": {"count": "1"},
            "actions": [{"type": "answer", "expression": "Hi, I'm SUSI.", "language": "en"}],
            "skills": ["/susi_skills/models/general/Conversation/en/greetings.txt"]
          }],
          "answer_date": "2017-09-04T10:00:00.050Z",
          "answer_time": "50",
          "language": "en"
        }
        """

    /// A reply with `answers` missing.
    static let noAnswersMember = #"{"query": "xyzzy", "query_date": "2024-03-04T10:00:00.000Z", "answer_time": 3}"#
    /// A reply with an empty `answers` list (older layout).
    static let emptyAnswers = #"{"query": "xyzzy", "count": 0, "answers": [], "language": "en"}"#
    /// A reply whose only answer has no actions.
    static let answerWithoutActions = #"{"query": "xyzzy", "answers": [{"data": [], "actions": []}]}"#
    /// A soft failure.
    static let rejected = #"{"accepted": false, "message": "Bad access token: expired"}"#
    /// Tomcat's error page, the shape of the public server's hard failures.
    static let errorPage = """
        <!doctype html><html lang="en"><head><title>HTTP Status 500 &ndash; Internal Server Error</title>
        <style>body {font-family:Tahoma}</style></head><body><h1>HTTP Status 500 &ndash; Internal Server Error</h1>
        <p><b>Type</b> Exception Report</p></body></html>
        """
}

/// A JSON body with the content type SUSI uses.
func jsonReply(_ text: String, status: Int = 200) -> ServerResponse {
    ServerResponse(status: status, contentType: ServerResponse.jsonContentType, body: Data(text.utf8))
}

/// Seconds since `start`.
func elapsed(since start: Date) -> Double { Date().timeIntervalSince(start) }
