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

    /// A head over one embedding whose members each output sigmoid(bias), whatever the input.
    private func writeHead(biases: [Float], extra: [String: Any] = [:]) throws {
        func halfFloats(_ values: [Float]) -> String {
            var bytes: [UInt8] = []
            for value in values {
                let bits = Float16(value).bitPattern
                bytes += [UInt8(bits & 0xff), UInt8(bits >> 8)]
            }
            return Data(bytes).base64EncodedString()
        }
        let inputs = WakeWordFrontEnd.features
        let members = biases.map { bias in
            [
                [
                    "inputs": inputs, "outputs": 1, "weights": halfFloats(Array(repeating: 0, count: inputs)),
                    "bias": halfFloats([bias]), "activation": "sigmoid",
                ] as [String: Any]
            ]
        }
        var head: [String: Any] = [
            "phrase": "susi", "window": 1, "features": inputs, "threshold": 0.5, "steps": 1, "sure_threshold": 0.9,
            "decision_delay_ms": 80, "encoding": "float16-base64", "members": members,
        ]
        head.merge(extra) { $1 }
        try JSONSerialization.data(withJSONObject: head).write(to: URL(fileURLWithPath: path))
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
