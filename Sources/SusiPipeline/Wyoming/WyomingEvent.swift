import Foundation
import SusiCore
import SusiModel

/// One event of the Wyoming protocol (Home Assistant's voice satellites): a type, a JSON
/// object of data and an optional binary payload (PCM audio).
///
/// On the wire an event is one JSON header line with `type`, `version` and, when they follow,
/// `data_length` and `payload_length`; then `data_length` bytes of a JSON object that is merged
/// over the header's `data`; then `payload_length` bytes of payload. `WyomingDecoder` reads
/// them, `encoded()` writes them. Value type, no I/O.
public struct WyomingEvent: Sendable, Equatable {
    /// The event type: `describe`, `info`, `audio-chunk`, `run-pipeline`, ...
    public var type: String
    /// The event's fields (header `data` with the extra data merged over it).
    public var data: [String: JSONValue]
    /// The binary part, empty when there is none.
    public var payload: [UInt8]

    /// The protocol version written in every header: that of the `wyoming` package this
    /// implementation was checked against (`make deps` pins it for the tests).
    public static let protocolVersion = "1.10.2"

    /// An event of `type` with `data` and `payload`.
    public init(type: String, data: [String: JSONValue] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// The bytes to send: the header line, the data as extra JSON (as the reference
    /// implementation writes it) and the payload.
    public func encoded() -> [UInt8] {
        var header: [String: JSONValue] = ["type": .string(type), "version": .string(Self.protocolVersion)]
        var extra: [UInt8] = []
        if !data.isEmpty {
            extra = Array(JSONValue.object(data).jsonText.utf8)
            header["data_length"] = .number(Double(extra.count))
        }
        if !payload.isEmpty { header["payload_length"] = .number(Double(payload.count)) }
        var bytes = Array(JSONValue.object(header).jsonText.utf8)
        bytes.reserveCapacity(bytes.count + 1 + extra.count + payload.count)
        bytes.append(UInt8(ascii: "\n"))
        bytes += extra
        bytes += payload
        return bytes
    }
}

// MARK: Audio

extension WyomingEvent {
    /// The format Wyoming names on `audio-start` and every `audio-chunk`: rate in Hz, sample
    /// width in bytes, interleaved channels.
    public struct AudioShape: Sendable, Equatable {
        public var rate: Int
        public var width: Int
        public var channels: Int

        /// A format of `rate` Hz, `width`-byte samples, `channels` channels.
        public init(rate: Int, width: Int = 2, channels: Int = 1) {
            self.rate = rate
            self.width = width
            self.channels = channels
        }

        /// The 16-bit shape of `format`.
        public init(_ format: AudioFormat) {
            self.init(rate: format.sampleRate, width: 2, channels: format.channels)
        }

        /// Rates and channel counts a sound device can be asked to play; anything else in an
        /// event from the network is refused rather than passed on.
        public static let playableRates = 1_000...192_000
        public static let playableChannels = 1...8

        var fields: [String: JSONValue] {
            ["rate": .number(Double(rate)), "width": .number(Double(width)), "channels": .number(Double(channels))]
        }
    }

    /// `audio-start` for a stream of `shape`, at `timestamp` ms.
    public static func audioStart(_ shape: AudioShape, timestamp: Int) -> WyomingEvent {
        WyomingEvent(type: "audio-start", data: shape.fields.merging(["timestamp": .number(Double(timestamp))]) { $1 })
    }

    /// `audio-chunk` carrying `chunk`'s samples as 16-bit little-endian PCM, at `timestamp` ms.
    public static func audioChunk(_ chunk: AudioChunk, timestamp: Int) -> WyomingEvent {
        var payload: [UInt8] = []
        payload.reserveCapacity(chunk.samples.count * 2)
        for sample in chunk.samples {
            let bits = UInt16(bitPattern: sample)
            payload.append(UInt8(truncatingIfNeeded: bits))
            payload.append(UInt8(truncatingIfNeeded: bits >> 8))
        }
        return WyomingEvent(
            type: "audio-chunk",
            data: AudioShape(chunk.format).fields.merging(["timestamp": .number(Double(timestamp))]) { $1 },
            payload: payload)
    }

    /// `audio-stop` at `timestamp` ms.
    public static func audioStop(timestamp: Int) -> WyomingEvent {
        WyomingEvent(type: "audio-stop", data: ["timestamp": .number(Double(timestamp))])
    }

    /// The format an `audio-start` or `audio-chunk` names; nil when a field is missing or
    /// not a whole number.
    public var audioShape: AudioShape? {
        guard let rate = data["rate"]?.exactInt, let width = data["width"]?.exactInt, let channels = data["channels"]?.exactInt
        else { return nil }
        return AudioShape(rate: rate, width: width, channels: channels)
    }

    /// An `audio-chunk`'s payload as 16-bit samples in an `AudioChunk`.
    ///
    /// - Throws: `satellite-bad-audio` when the format is missing, not 16-bit, or outside what
    ///   a device plays (`AudioShape.playableRates`, `playableChannels`). A trailing partial
    ///   frame is dropped.
    public func audio() throws(WyomingError) -> AudioChunk {
        guard let shape = audioShape else {
            throw WyomingError(.badAudio, "\(type) without a whole-number rate, width and channels")
        }
        guard shape.width == 2 else { throw WyomingError(.badAudio, "\(shape.width)-byte samples; only 16-bit audio plays") }
        guard AudioShape.playableRates.contains(shape.rate), AudioShape.playableChannels.contains(shape.channels) else {
            throw WyomingError(.badAudio, "unplayable audio format \(shape.rate) Hz, \(shape.channels) channels")
        }
        let frameBytes = 2 * shape.channels
        let usable = payload.count - payload.count % frameBytes
        var samples: [Int16] = []
        samples.reserveCapacity(usable / 2)
        var index = 0
        while index < usable {
            samples.append(Int16(bitPattern: UInt16(payload[index]) | UInt16(payload[index + 1]) << 8))
            index += 2
        }
        return AudioChunk(format: AudioFormat(sampleRate: shape.rate, channels: shape.channels), samples: samples)
    }
}

extension JSONValue {
    /// The value as an integer only when it is a JSON number holding a whole number that fits:
    /// for lengths and formats from the network, where `intValue`'s leniency would hide
    /// mistakes.
    var exactInt: Int? {
        guard case .number(let value) = self, let whole = JSONValue.exactInteger(value) else { return nil }
        return Int(whole)
    }
}
