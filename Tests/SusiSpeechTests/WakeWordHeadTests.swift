import Foundation
import XCTest

@testable import SusiSpeech

/// Head files: a plain head averages its members; a joined head (`bench/wakeword/combine.py`)
/// scores the lowest of its heads' means. Tiny hand-made heads whose members output a constant.
final class WakeWordHeadTests: XCTestCase {
    private var path = ""

    override func setUpWithError() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("susi-head-\(UUID().uuidString).json").path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// One layer of a head file: `outputs` rows of `inputs` weights (each a half float).
    private struct LayerSpec {
        var inputs: Int
        var outputs: Int
        var weights: [Float]
        var bias: [Float]
        var activation: String
    }

    /// A head over `window` embeddings with these members.
    private func writeHead(members: [[LayerSpec]], window: Int = 1, extra: [String: Any] = [:]) throws {
        func halfFloats(_ values: [Float]) -> String {
            var bytes: [UInt8] = []
            for value in values {
                let bits = Float16(value).bitPattern
                bytes += [UInt8(bits & 0xff), UInt8(bits >> 8)]
            }
            return Data(bytes).base64EncodedString()
        }
        let layers = members.map { member in
            member.map { layer -> [String: Any] in
                [
                    "inputs": layer.inputs, "outputs": layer.outputs, "weights": halfFloats(layer.weights),
                    "bias": halfFloats(layer.bias), "activation": layer.activation,
                ]
            }
        }
        var head: [String: Any] = [
            "phrase": "susi", "window": window, "features": WakeWordFrontEnd.features, "threshold": 0.5, "steps": 1,
            "sure_threshold": 0.9, "decision_delay_ms": 80, "encoding": "float16-base64", "members": layers,
        ]
        head.merge(extra) { $1 }
        try JSONSerialization.data(withJSONObject: head).write(to: URL(fileURLWithPath: path))
    }

    /// A head over one embedding whose members each output sigmoid(bias), whatever the input.
    private func writeHead(biases: [Float], extra: [String: Any] = [:]) throws {
        let inputs = WakeWordFrontEnd.features
        let members = biases.map { bias in
            [
                LayerSpec(
                    inputs: inputs, outputs: 1, weights: Array(repeating: 0, count: inputs), bias: [bias], activation: "sigmoid")
            ]
        }
        try writeHead(members: members, extra: extra)
    }

    private func sigmoid(_ x: Double) -> Double { 1 / (1 + exp(-x)) }

    func testAPlainHeadAveragesItsMembers() throws {
        try writeHead(biases: [2, 0, -1])
        let head = try WakeWordHead(contentsOf: path)
        XCTAssertEqual(head.groups, [3])
        let score = head.score([Float](repeating: 0.3, count: WakeWordFrontEnd.features))
        XCTAssertEqual(score, (sigmoid(2) + sigmoid(0) + sigmoid(-1)) / 3, accuracy: 1e-3)
    }

    func testAJoinedHeadScoresItsLowestHead() throws {
        try writeHead(biases: [2, 0, -1], extra: ["groups": [2, 1], "combine": "min"])
        let head = try WakeWordHead(contentsOf: path)
        let window = [Float](repeating: 0.3, count: WakeWordFrontEnd.features)
        XCTAssertEqual(head.score(window), sigmoid(-1), accuracy: 1e-3, "the second head is the lower")
        try writeHead(biases: [-3, 0, 1], extra: ["groups": [2, 1], "combine": "min"])
        XCTAssertEqual(
            try WakeWordHead(contentsOf: path).score(window), (sigmoid(-3) + sigmoid(0)) / 2, accuracy: 1e-3,
            "the first head's mean is the lower")
    }

    /// Every weight counts, in layers as wide as the committed head's first (1536 inputs) and
    /// in narrow ones (5 and 3, not whole multiples of the sixteen summed at a time): the
    /// score is the network's output worked out here in double precision.
    func testTheScoreIsTheNetworksOutput() throws {
        var generator = SystemRandomNumberGenerator()
        func layer(_ inputs: Int, _ outputs: Int, _ activation: String) -> LayerSpec {
            // Values a half float holds exactly, so the file loses nothing.
            func value() -> Float { Float(Float16(Float.random(in: -0.2...0.2, using: &generator))) }
            return LayerSpec(
                inputs: inputs, outputs: outputs, weights: (0..<(inputs * outputs)).map { _ in value() },
                bias: (0..<outputs).map { _ in value() }, activation: activation)
        }
        let window = 16
        let width = window * WakeWordFrontEnd.features
        let member = [layer(width, 5, "relu"), layer(5, 3, "relu"), layer(3, 1, "sigmoid")]
        try writeHead(members: [member], window: window)
        let input = (0..<width).map { _ in Float.random(in: -1...1, using: &generator) }
        var values = input.map(Double.init)
        for layer in member {
            values = (0..<layer.outputs).map { row in
                let sum = (0..<layer.inputs).reduce(Double(layer.bias[row])) {
                    $0 + Double(layer.weights[row * layer.inputs + $1]) * values[$1]
                }
                return layer.activation == "relu" ? max(0, sum) : sigmoid(sum)
            }
        }
        XCTAssertEqual(try WakeWordHead(contentsOf: path).score(input), values[0], accuracy: 1e-5)
    }

    func testGroupsThatDoNotFitAreRefused() throws {
        for extra: [String: Any] in [
            ["groups": [2, 2], "combine": "min"],  // more members than there are
            ["groups": [3, 0], "combine": "min"],  // an empty head
            ["groups": [2, 1]],  // no way to join them named
            ["groups": [2, 1], "combine": "mean"],  // one this code does not know
            ["combine": "min"],  // nothing to join
        ] {
            try writeHead(biases: [2, 0, -1], extra: extra)
            XCTAssertThrowsError(try WakeWordHead(contentsOf: path), "\(extra)") {
                XCTAssertEqual(($0 as? SpeechError)?.kind, .wakeInitFailed)
            }
        }
    }
}
