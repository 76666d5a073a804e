import Foundation
import SusiAudio
import SusiCore

/// The dev corpus that `/work/shared/tools/dev-corpus.py` writes: one row per file.
struct CorpusRow: Decodable {
    var id: String
    var file: String
    var voice: String
    var condition: String
    var intent: String
    var text: String
    // The corpus's own column names (snake_case JSON), read as they are.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var wake_ms: Int
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var command_start_ms: Int
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var speech_end_ms: Int
    /// Where the wake word ends, when the generator knows (`bench/heldout.py`).
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var wake_end_ms: Int?
}

/// One long recording without the wake word (`dev-corpus.py --negatives`).
struct NegativeRow: Decodable {
    var file: String
    var voice: String
    var seconds: Double
}

enum Corpus {
    /// Rows of the JSON-lines file `name` in `directory`; file paths made absolute (the
    /// generator writes them relative to where it ran, so only the file name is kept).
    static func load<Row: Decodable>(_ directory: String, _ name: String, fix: (inout Row, String) -> Void) throws -> [Row] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            var row = try JSONDecoder().decode(Row.self, from: Data(line.utf8))
            fix(&row, directory)
            return row
        }
    }

    static func rows(_ directory: String) throws -> [CorpusRow] {
        try load(directory, "manifest.jsonl") { (row: inout CorpusRow, dir) in
            row.file = dir + "/" + URL(fileURLWithPath: row.file).lastPathComponent
        }
    }

    static func negatives(_ directory: String) throws -> [NegativeRow] {
        try load(directory, "negatives.jsonl") { (row: inout NegativeRow, dir) in
            row.file = dir + "/" + URL(fileURLWithPath: row.file).lastPathComponent
        }
    }

    /// The 16 kHz mono samples of a WAV file.
    static func samples(_ path: String) throws -> [Int16] {
        let chunk = try WAVFile.read(path: path)
        return try AudioConverter.convert(chunk, to: .speech).samples
    }
}

/// With BENCH_DEBUG set, the benchmarks print what each file gave (read once, not per chunk),
/// and the wake word comparison's neural detector its debug lines (candidates dropped, wakes).
let benchDebug = ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil
