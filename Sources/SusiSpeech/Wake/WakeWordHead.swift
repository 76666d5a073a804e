import Foundation

/// The small classifier trained for one wake phrase (`models/hotword/<phrase>.head.json`,
/// written by `make wakeword`): a few fully connected networks over the last `windowLength`
/// embeddings of the front end, whose outputs are averaged (a seed ensemble). A head joined
/// from several (`bench/wakeword/combine.py`) averages each one's members and scores the
/// lowest of those means: a window must look like the phrase to every head. Plain Swift.
struct WakeWordHead: Sendable {
    /// One fully connected layer: `outputs` rows of `inputs` weights, then the activation.
    struct Layer: Sendable {
        let inputs: Int
        let outputs: Int
        let weights: [Float]
        let bias: [Float]
        /// `relu` or `sigmoid`.
        let activation: String
    }

    /// The phrase the head was trained for.
    let phrase: String
    /// Embeddings per decision (16: 1.28 s of steps, about 2 s of audio).
    let windowLength: Int
    /// The score at or above which the phrase counts, as chosen in training.
    let threshold: Double
    /// Consecutive windows (80 ms apart) that must score at or above the threshold (1 or 2,
    /// chosen in training: a second window in a row cuts false wakes on short bursts).
    let steps: Int
    /// A score at or above which no second check is needed: the lowest at which the
    /// validation negatives gave no false wake at all (above 1 when the head has none).
    let sureThreshold: Double
    /// How long after the phrase's end it is usually decided, in milliseconds (measured in
    /// training); detections place the end this far before the decision.
    let decisionDelayMilliseconds: Int
    /// The ensemble: each member a stack of layers ending in one sigmoid output.
    let members: [[Layer]]
    /// How many members each joined head has, in order (one group of all for a plain head).
    let groups: [Int]

    private struct File: Decodable {
        struct LayerFile: Decodable {
            let inputs: Int
            let outputs: Int
            let weights: String
            let bias: String
            let activation: String
        }
        let phrase: String
        let window: Int
        let features: Int
        let threshold: Double
        let steps: Int?
        let sureThreshold: Double?
        let decisionDelayMilliseconds: Int
        let encoding: String
        let members: [[LayerFile]]
        /// A joined head's member counts per head, with `combine` "min".
        let groups: [Int]?
        let combine: String?

        enum CodingKeys: String, CodingKey {
            case phrase, window, features, threshold, steps, encoding, members, groups, combine
            case sureThreshold = "sure_threshold"
            case decisionDelayMilliseconds = "decision_delay_ms"
        }
    }

    /// Reads the head at `path`.
    ///
    /// - Throws: `wake-model-missing` when there is no file, `wake-init-failed` when it is
    ///   not a head for `WakeWordFrontEnd.features`-value embeddings.
    init(contentsOf path: String) throws(SpeechError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SpeechError(.wakeModelMissing, "no wake word head at \(path) (`make wakeword PHRASE=...` trains one)")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw SpeechError(.wakeInitFailed, "\(path) is not a wake word head: \(error)")
        }
        guard file.features == WakeWordFrontEnd.features, file.window > 0, file.encoding == "float16-base64",
            !file.members.isEmpty
        else {
            throw SpeechError(.wakeInitFailed, "\(path) is not a head for \(WakeWordFrontEnd.features)-value embeddings")
        }
        let groups = file.groups ?? [file.members.count]
        guard groups.allSatisfy({ $0 > 0 }), groups.reduce(0, +) == file.members.count,
            file.combine == (file.groups == nil ? nil : "min")
        else {
            throw SpeechError(
                .wakeInitFailed,
                "\(path): a joined head needs \"combine\": \"min\" and groups of members adding up to its \(file.members.count)")
        }
        var members: [[Layer]] = []
        for member in file.members {
            var layers: [Layer] = []
            var width = file.window * file.features
            for layer in member {
                guard layer.inputs == width, let weights = Self.floats(layer.weights),
                    weights.count == layer.inputs * layer.outputs,
                    let bias = Self.floats(layer.bias), bias.count == layer.outputs,
                    ["relu", "sigmoid"].contains(layer.activation)
                else {
                    throw SpeechError(
                        .wakeInitFailed, "\(path): a layer does not fit (\(layer.inputs) inputs, expected \(width))")
                }
                layers.append(
                    Layer(
                        inputs: layer.inputs, outputs: layer.outputs, weights: weights, bias: bias, activation: layer.activation))
                width = layer.outputs
            }
            guard width == 1, layers.last?.activation == "sigmoid" else {
                throw SpeechError(.wakeInitFailed, "\(path): a member does not end in one sigmoid output")
            }
            members.append(layers)
        }
        phrase = file.phrase
        windowLength = file.window
        threshold = file.threshold
        steps = max(1, file.steps ?? 1)
        sureThreshold = file.sureThreshold ?? 2
        decisionDelayMilliseconds = file.decisionDelayMilliseconds
        self.members = members
        self.groups = groups
    }

    /// Little-endian IEEE half floats, base64-encoded.
    private static func floats(_ base64: String) -> [Float]? {
        guard let data = Data(base64Encoded: base64), data.count % 2 == 0 else { return nil }
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 2)).map {
                Float(Float16(bitPattern: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self))))
            }
        }
    }

    /// The probability that `window` (`windowLength` embeddings, oldest first, flattened) ends
    /// with the phrase: the ensemble's mean, or for a joined head the lowest of its heads' means.
    func score(_ window: [Float]) -> Double {
        var lowest = Double.infinity
        var first = 0
        for count in groups {
            let mean = members[first..<(first + count)].reduce(0) { $0 + Self.output(of: $1, for: window) } / Double(count)
            lowest = min(lowest, mean)
            first += count
        }
        return lowest
    }

    /// One member's output for `window`.
    private static func output(of layers: [Layer], for window: [Float]) -> Double {
        var values = window
        for layer in layers {
            var next = layer.bias
            layer.weights.withUnsafeBufferPointer { weights in
                values.withUnsafeBufferPointer { input in
                    for row in 0..<layer.outputs {
                        next[row] += dot(weights, from: row * layer.inputs, input, layer.inputs)
                    }
                }
            }
            if layer.activation == "relu" {
                for index in next.indices where next[index] < 0 { next[index] = 0 }
            } else {
                for index in next.indices { next[index] = 1 / (1 + exp(-next[index])) }
            }
            values = next
        }
        return Double(values[0])
    }

    /// The sum of the `count` products of `a` from `offset` on and `b` from its start, sixteen
    /// at a time: the compiler keeps a float sum written in order as it is, one product after
    /// another.
    private static func dot(
        _ a: UnsafeBufferPointer<Float>, from offset: Int, _ b: UnsafeBufferPointer<Float>, _ count: Int
    ) -> Float {
        let (rawA, rawB) = (UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
        let width = MemoryLayout<Float>.stride
        var lanes = SIMD16<Float>()
        var index = 0
        while index + 16 <= count {
            lanes +=
                rawA.loadUnaligned(fromByteOffset: (offset + index) * width, as: SIMD16<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: index * width, as: SIMD16<Float>.self)
            index += 16
        }
        var sum = lanes.sum()
        while index < count {
            sum += a[offset + index] * b[index]
            index += 1
        }
        return sum
    }
}
