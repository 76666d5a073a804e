import SusiCore
import SusiModel

/// The satellite's answer to `describe`: what Home Assistant learns about the speaker when it
/// adds it (Wyoming's `info`).
///
/// A satellite named after the room (`room`, also its area) with a local wake word (the
/// `hotword.phrase`), its own end-of-command detection (`has_vad`), a microphone (16 kHz 16-bit
/// mono, what it streams) and, when it plays answers, a loudspeaker (`snd`).
public enum SatelliteInfo {
    /// The rate answers are asked for and played at: eSpeak NG's and Piper's 22.05 kHz.
    public static let soundFormat = AudioFormat(sampleRate: 22_050, channels: 1)

    /// `soundFormat` as Wyoming's `snd_format`.
    static var soundFormatFields: JSONValue { format(soundFormat) }

    private static func format(_ format: AudioFormat) -> JSONValue {
        ["rate": .number(Double(format.sampleRate)), "width": 2, "channels": .number(Double(format.channels))]
    }

    /// The `info` event for `config`; `playsAnswers` when a loudspeaker is open.
    public static func event(_ config: Config, version: String, playsAnswers: Bool) -> WyomingEvent {
        let phrase = config.hotword.phrase
        let name = config.room.isEmpty ? "SUSI.AI speaker" : "SUSI.AI speaker (\(config.room))"
        func artifact(_ name: String, _ description: String) -> [String: JSONValue] {
            [
                "name": .string(name), "description": .string(description), "installed": true, "version": .string(version),
                "attribution": ["name": "SUSI.AI", "url": "https://github.com/fossasia"],
            ]
        }
        var wakeModel = artifact(phrase, "the wake word \"\(phrase)\"")
        wakeModel["languages"] = [.string(config.brain.language)]
        wakeModel["phrase"] = .string(phrase)
        var wake = artifact("susi-wake", "SUSI.AI's wake word detector (\(config.hotword.engine))")
        wake["models"] = [.object(wakeModel)]
        var mic = artifact("susi-mic", "the speaker's microphone (audio.input \(config.audio.input))")
        mic["mic_format"] = format(.speech)
        var satellite = artifact(name, name)
        satellite["area"] = config.room.isEmpty ? .null : .string(config.room)
        satellite["has_vad"] = true
        satellite["active_wake_words"] = [.string(phrase)]
        satellite["max_active_wake_words"] = 1
        satellite["supports_trigger"] = false
        var data: [String: JSONValue] = [
            "asr": [], "tts": [], "handle": [], "intent": [], "wake": [.object(wake)], "mic": [.object(mic)], "snd": [],
            "satellite": .object(satellite),
        ]
        if playsAnswers {
            var snd = artifact("susi-snd", "the speaker's loudspeaker (audio.output \(config.audio.output))")
            snd["snd_format"] = format(soundFormat)
            data["snd"] = [.object(snd)]
            // Where earlier versions of the protocol (the `wyoming` 1.5 of Home Assistant 2024.3)
            // carry the format answers should come in.
            satellite["snd_format"] = format(soundFormat)
            data["satellite"] = .object(satellite)
        }
        return WyomingEvent(type: "info", data: data)
    }
}
