import Foundation
import SusiCore

/// Whether a device is wanted for capture or for playback.
public enum AudioDirection: String, Sendable {
    /// Capture (microphone).
    case input
    /// Playback (speaker).
    case output
}

/// An audio device as the sound system reports it.
public struct AudioDevice: Sendable, Equatable, CustomStringConvertible {
    /// Position in the current enumeration; stable only while the audio session stays up.
    public var index: Int
    /// The device's name, e.g. `default` or `USB Audio: - (hw:1,0)`.
    public var name: String
    /// The sound system serving it (`ALSA`, `JACK Audio Connection Kit`, ...).
    public var hostAPI: String
    /// Channels it can capture; 0 for playback-only devices.
    public var maxInputChannels: Int
    /// Channels it can play; 0 for capture-only devices.
    public var maxOutputChannels: Int
    /// The rate it prefers, in Hz.
    public var defaultSampleRate: Int
    /// Whether the sound system names it the default capture device.
    public var isDefaultInput: Bool
    /// Whether the sound system names it the default playback device.
    public var isDefaultOutput: Bool

    /// Describes a device; normally built by `PortAudioSession.devices()`.
    public init(
        index: Int, name: String, hostAPI: String, maxInputChannels: Int, maxOutputChannels: Int,
        defaultSampleRate: Int, isDefaultInput: Bool, isDefaultOutput: Bool
    ) {
        self.index = index
        self.name = name
        self.hostAPI = hostAPI
        self.maxInputChannels = maxInputChannels
        self.maxOutputChannels = maxOutputChannels
        self.defaultSampleRate = defaultSampleRate
        self.isDefaultInput = isDefaultInput
        self.isDefaultOutput = isDefaultOutput
    }

    /// Whether the device can be used in `direction`.
    public func supports(_ direction: AudioDirection) -> Bool {
        direction == .input ? maxInputChannels > 0 : maxOutputChannels > 0
    }

    /// One line for `susi devices`: index, name, host API, channels, rate and default marks.
    public var description: String {
        var marks: [String] = []
        if isDefaultInput { marks.append("default input") }
        if isDefaultOutput { marks.append("default output") }
        let suffix = marks.isEmpty ? "" : " [\(marks.joined(separator: ", "))]"
        return
            "\(index): \(name) (\(hostAPI), in \(maxInputChannels), out \(maxOutputChannels), \(defaultSampleRate) Hz)\(suffix)"
    }

    /// Picks the device `specifier` names among `devices`, considering only those usable in `direction`.
    ///
    /// `specifier` is `default` (or empty) for the system default, a number for an index, or a
    /// name: an exact match (ignoring case) wins over the first device whose name contains it.
    /// - Throws: `audio-no-device`, naming what was asked for and listing what exists.
    public static func select(_ specifier: String, from devices: [AudioDevice], direction: AudioDirection) throws(AudioError)
        -> AudioDevice
    {
        let wanted = specifier.trimmingCharacters(in: .whitespacesAndNewlines)
        let usable = devices.filter { $0.supports(direction) }
        let found: AudioDevice?
        if wanted.isEmpty || wanted.lowercased() == "default" {
            found =
                usable.first { direction == .input ? $0.isDefaultInput : $0.isDefaultOutput }
                ?? usable.first { $0.name.lowercased() == "default" }
        } else if let index = Int(wanted) {
            found = usable.first { $0.index == index }
        } else {
            let lowered = wanted.lowercased()
            found =
                usable.first { $0.name.lowercased() == lowered }
                ?? usable.first { $0.name.lowercased().contains(lowered) }
        }
        if let found { return found }
        let asked = wanted.isEmpty ? "default" : wanted
        let available = usable.isEmpty ? "none" : usable.map { "\($0.index): \($0.name)" }.joined(separator: ", ")
        throw AudioError(.noDevice, "no audio \(direction.rawValue) device matches '\(asked)'; available: \(available)")
    }
}
