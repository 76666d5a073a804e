/// How the assistant sounds: an eSpeak NG voice (the accent), a variant (the speaker) and
/// prosody.
///
/// `name` is anything `VoiceCatalog.resolve` understands: a voice id such as `en-us`,
/// `en-gb-scotland` or `en-029`, a voice name, or a friendly name such as `scottish`. It may
/// carry a variant itself (`en-us+f3`); an explicit `variant` wins.
public struct VoiceSettings: Sendable, Equatable, Hashable, Codable {
    /// The voice: accent and language.
    public var name: String
    /// eSpeak NG variant (`f3`, `m2`, `klatt`, ...) or empty for the voice's own.
    public var variant: String
    /// Speaking rate in words per minute, `rateRange`.
    public var rate: Int
    /// Base pitch, `pitchRange`; 50 is the voice's normal pitch.
    public var pitch: Int
    /// Amplitude, `volumeRange`; 100 is eSpeak NG's normal level.
    public var volume: Int

    /// Rates eSpeak NG accepts, words per minute.
    public static let rateRange = 80...450
    /// Pitches eSpeak NG accepts.
    public static let pitchRange = 0...99
    /// Amplitudes eSpeak NG accepts.
    public static let volumeRange = 0...200

    /// Creates settings; the defaults are the config file's (`en-us`, 175 wpm, pitch 50).
    public init(name: String = "en-us", variant: String = "", rate: Int = 175, pitch: Int = 50, volume: Int = 100) {
        self.name = name
        self.variant = variant
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
    }
}

extension VoiceSettings {
    /// The language the voice's name starts with: `en` for `en-gb-scotland` or `en-us+f3`,
    /// lower-cased. A friendly name (`scottish`) gives itself; `SpeakerEnvironment` asks the
    /// installed voices instead when it can.
    public var languagePrefix: String {
        let base = name.split(separator: "+").first.map(String.init) ?? name
        return (base.split(separator: "-").first.map(String.init) ?? base).lowercased()
    }

    /// The voice for an answer in `language` (ISO 639-1, as SUSI tags answers): these settings
    /// when `language` is empty or the one this voice speaks (`speaks`), else eSpeak NG's voice
    /// of that language with the same variant, rate, pitch and volume, so a German answer is
    /// not read with English sounds.
    public func speaking(_ language: String, speaks: String? = nil) -> VoiceSettings {
        let wanted = language.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-")
        // "en-US" is English too: only the language, not the region, asks for another voice.
        let base = String(wanted.split(separator: "-").first ?? "")
        guard !base.isEmpty, base != (speaks ?? languagePrefix) else { return self }
        var other = self
        other.name = wanted
        return other
    }
}
