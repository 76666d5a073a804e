import SusiModel

extension VoiceSettings {
    /// Throws `tts-invalid-setting` naming the first value outside its range.
    public func validate() throws(SynthesisError) {
        let checks: [(String, Int, ClosedRange<Int>)] = [
            ("rate", rate, Self.rateRange), ("pitch", pitch, Self.pitchRange), ("volume", volume, Self.volumeRange),
        ]
        for (field, value, range) in checks where !range.contains(value) {
            throw SynthesisError(
                .invalidSetting, "voice \(field) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
        }
    }
}
