import Foundation
import SusiModel

/// Reads Wyoming events out of a byte stream that arrives in pieces of any size.
///
/// Everything it holds is bounded by `Limits`: a header line, extra data or payload longer
/// than allowed is an error as soon as its length is known, before any of it is buffered.
/// After an error the stream cannot be trusted to be in step any more (a payload may follow),
/// so the caller closes the connection. Unknown event types are returned like any other; the
/// caller ignores them. Value type, no I/O.
public struct WyomingDecoder: Sendable {
    /// The largest parts of one event that are accepted.
    public struct Limits: Sendable, Equatable {
        /// Bytes of the JSON header line, newline excluded.
        public var headerBytes: Int
        /// Bytes of the extra data (`data_length`).
        public var dataBytes: Int
        /// Bytes of the payload (`payload_length`).
        public var payloadBytes: Int

        /// Limits of `headerBytes`, `dataBytes` and `payloadBytes`.
        public init(headerBytes: Int, dataBytes: Int, payloadBytes: Int) {
            self.headerBytes = headerBytes
            self.dataBytes = dataBytes
            self.payloadBytes = payloadBytes
        }

        /// Generous for what a satellite is sent: `info`-sized data, and audio chunks of up to
        /// 4 MiB (a minute and a half of 22 kHz speech in one chunk; Home Assistant sends about
        /// 2 KiB each).
        public static let satellite = Limits(headerBytes: 64 * 1024, dataBytes: 1024 * 1024, payloadBytes: 4 * 1024 * 1024)
    }

    /// What the next bytes are.
    private enum Step {
        case header
        case body(type: String, data: [String: JSONValue], dataLength: Int, payloadLength: Int)
    }

    public let limits: Limits
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already consumed; they are dropped when it pays to move the rest.
    private var offset = 0
    private var step = Step.header

    /// A decoder that accepts events within `limits`.
    public init(limits: Limits = .satellite) {
        self.limits = limits
    }

    /// Bytes received and not yet part of a returned event.
    public var pendingBytes: Int { buffer.count - offset }

    /// Adds received bytes; call `next()` until it returns nil to take the events they finish.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if offset > 0, offset >= buffer.count / 2 {
            buffer.removeSubrange(0..<offset)
            offset = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole event, or nil when more bytes are needed.
    ///
    /// - Throws: `satellite-bad-event` for a header that is not a JSON object with a string
    ///   `type`, non-object data or a length that is not a whole number from 0 up;
    ///   `satellite-event-too-large` for a part over `limits`.
    public mutating func next() throws(WyomingError) -> WyomingEvent? {
        if case .header = step {
            guard let line = try headerLine() else { return nil }
            step = try Self.parseHeader(line, limits: limits)
        }
        guard case .body(let type, var data, let dataLength, let payloadLength) = step,
            pendingBytes >= dataLength + payloadLength
        else { return nil }
        if dataLength > 0 {
            let extra = try Self.object(buffer[offset..<(offset + dataLength)], what: "extra data of '\(type)'")
            data.merge(extra) { $1 }
        }
        let payloadStart = offset + dataLength
        let payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
        offset = payloadStart + payloadLength
        step = .header
        return WyomingEvent(type: type, data: data, payload: payload)
    }

    /// The header line without its newline, consumed; nil while it is incomplete.
    private mutating func headerLine() throws(WyomingError) -> ArraySlice<UInt8>? {
        let newline = UInt8(ascii: "\n")
        guard let end = buffer[offset...].firstIndex(of: newline) else {
            if pendingBytes > limits.headerBytes {
                throw WyomingError(.eventTooLarge, "an event header longer than \(limits.headerBytes) bytes")
            }
            return nil
        }
        guard end - offset <= limits.headerBytes else {
            throw WyomingError(.eventTooLarge, "an event header longer than \(limits.headerBytes) bytes")
        }
        let line = buffer[offset..<end]
        offset = end + 1
        return line
    }

    private static func parseHeader(_ line: ArraySlice<UInt8>, limits: Limits) throws(WyomingError) -> Step {
        let header = try object(line, what: "event header")
        guard let type = header["type"]?.stringValue, case .string = header["type"], !type.isEmpty else {
            throw WyomingError(.badEvent, "an event header without a type")
        }
        var data: [String: JSONValue] = [:]
        if let value = header["data"], !value.isNull {
            guard let object = value.objectValue else { throw WyomingError(.badEvent, "'\(type)' data that is not an object") }
            data = object
        }
        let dataLength = try length(header["data_length"], name: "data_length", type: type, limit: limits.dataBytes)
        let payloadLength = try length(header["payload_length"], name: "payload_length", type: type, limit: limits.payloadBytes)
        return .body(type: type, data: data, dataLength: dataLength, payloadLength: payloadLength)
    }

    private static func length(_ value: JSONValue?, name: String, type: String, limit: Int) throws(WyomingError) -> Int {
        guard let value, !value.isNull else { return 0 }
        guard let length = value.exactInt, length >= 0 else {
            throw WyomingError(.badEvent, "'\(type)' with \(name) \(value.jsonText), not a whole number from 0 up")
        }
        guard length <= limit else {
            throw WyomingError(.eventTooLarge, "'\(type)' with \(name) \(length), over the limit of \(limit) bytes")
        }
        return length
    }

    private static func object(_ bytes: ArraySlice<UInt8>, what: String) throws(WyomingError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(Data(bytes))
        } catch {
            throw WyomingError(.badEvent, "\(what) that is not JSON")
        }
        guard let object = value.objectValue else { throw WyomingError(.badEvent, "\(what) that is not a JSON object") }
        return object
    }
}
