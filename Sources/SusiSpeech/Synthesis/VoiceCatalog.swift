import SusiModel

/// The installed voices and variants, and the resolution of what a person calls a voice
/// (`scottish`, `English (Scotland)`, `en-gb-scotland`) to one of them.
///
/// Matching ignores case, surrounding spaces, and `_` versus space (as `espeak-ng --voices`
/// prints names).
public struct VoiceCatalog: Sendable, Equatable {
    /// Installed voices in eSpeak NG's order.
    public var voices: [VoiceInfo]
    /// Installed variants (`espeak-ng-data/voices/!v`).
    public var variants: [VoiceInfo]

    /// Creates a catalog.
    public init(voices: [VoiceInfo], variants: [VoiceInfo]) {
        self.voices = voices
        self.variants = variants
    }

    /// The voice `name` means, or nil when no installed voice matches.
    ///
    /// Tried in order: a language code (the voice preferring it most wins), a voice name, a
    /// voice file (`gmw/en-GB-scotland` or `en-GB-scotland`), an accent name from `AccentCatalog`.
    public func resolve(_ name: String) -> VoiceInfo? {
        let key = Self.normalize(name)
        guard !key.isEmpty else { return nil }
        let speakers = voices.compactMap { voice -> (VoiceInfo, Int)? in
            guard let language = voice.languages.first(where: { $0.code == key }) else { return nil }
            return (voice, language.priority)
        }
        // Ties go to voices that need no MBROLA, then to eSpeak NG's order.
        if let best = speakers.min(by: { ($0.1, $0.0.needsMBROLA ? 1 : 0) < ($1.1, $1.0.needsMBROLA ? 1 : 0) }) {
            return best.0
        }
        if let voice = voices.first(where: { Self.normalize($0.name) == key }) { return voice }
        if let voice = voices.first(where: { Self.normalize($0.file) == key || Self.fileName($0.file) == key }) {
            return voice
        }
        if let accent = AccentCatalog.entry(named: key) {
            return voices.contains(where: { $0.languages.contains { $0.code == accent.id } }) ? resolve(accent.id) : nil
        }
        return nil
    }

    /// The variant `name` means (file name or display name), or nil.
    public func resolveVariant(_ name: String) -> VoiceInfo? {
        let key = Self.normalize(name)
        guard !key.isEmpty else { return nil }
        return variants.first { Self.fileName($0.file) == key }
            ?? variants.first { Self.normalize($0.name) == key }
    }

    /// Lower case, `_` as space, single spaces.
    static func normalize(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "_", with: " ")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The normalized last path component of a voice file.
    static func fileName(_ file: String) -> String {
        normalize(String(file.split(separator: "/").last ?? Substring(file)))
    }
}
