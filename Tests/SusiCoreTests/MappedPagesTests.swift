import Foundation
import XCTest

@testable import SusiCore

#if canImport(Glibc)
    import Glibc
#endif

/// Releasing a mapped file's pages: read-only mappings leave the resident set and still read
/// the same; writable ones keep their pages and their changes.
final class MappedPagesTests: XCTestCase {
    private let directory = NSTemporaryDirectory() + "susi-mapped-\(UUID().uuidString)"
    private let size = 64 * 4096

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Maps `name` (made with `size` bytes of a pattern) and touches every page.
    private func mapped(_ name: String, writable: Bool) throws -> UnsafeMutableRawPointer {
        let path = directory + "/" + name
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let protection = writable ? PROT_READ | PROT_WRITE : PROT_READ
        let address = try XCTUnwrap(mmap(nil, size, protection, MAP_PRIVATE, descriptor, 0))
        XCTAssertNotEqual(address, MAP_FAILED)
        var sum = 0
        for page in stride(from: 0, to: size, by: 4096) { sum &+= Int(address.load(fromByteOffset: page, as: UInt8.self)) }
        XCTAssertGreaterThanOrEqual(sum, 0)
        return address
    }

    /// The resident kilobytes of this process's mappings of `name`, from /proc/self/smaps.
    private func residentKiB(_ name: String) throws -> Int {
        var total = 0, inside = false
        let smaps = String(decoding: try XCTUnwrap(KernelFile.read("/proc/self/smaps")), as: UTF8.self)
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-"), line.split(separator: " ").count >= 5 {
                inside = line.hasSuffix("/" + name)
            } else if inside, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
            }
        }
        return total
    }

    func testAReadOnlyMappingLeavesTheResidentSetAndStillReadsTheFile() throws {
        let model = try mapped("model.bin", writable: false)
        defer { munmap(model, size) }
        XCTAssertEqual(try residentKiB("model.bin"), size / 1024)
        XCTAssertGreaterThanOrEqual(MappedPages.release(under: directory), size)
        XCTAssertEqual(try residentKiB("model.bin"), 0)
        for offset in [0, 4095, 4096, 100_000, size - 1] {
            XCTAssertEqual(model.load(fromByteOffset: offset, as: UInt8.self), UInt8(truncatingIfNeeded: offset &* 7))
        }
        XCTAssertLessThan(try residentKiB("model.bin"), size / 1024)
    }

    func testAWritableMappingKeepsItsPagesAndItsChanges() throws {
        let scratch = try mapped("scratch.bin", writable: true)
        defer { munmap(scratch, size) }
        scratch.storeBytes(of: 0xAB, toByteOffset: 5000, as: UInt8.self)
        MappedPages.release(under: directory + "/scratch.bin")
        XCTAssertEqual(try residentKiB("scratch.bin"), size / 1024)
        XCTAssertEqual(scratch.load(fromByteOffset: 5000, as: UInt8.self), 0xAB)
    }

    func testAKernelFileIsReadPastItsFirst4KiB() throws {
        let smaps = String(decoding: try XCTUnwrap(KernelFile.read("/proc/self/smaps")), as: UTF8.self)
        XCTAssertGreaterThan(smaps.utf8.count, 4096)
        XCTAssertTrue(smaps.split(separator: "\n").last?.hasPrefix("VmFlags:") ?? false, "ends with the last mapping's flags")
        XCTAssertNil(KernelFile.read(directory + "/absent"))
    }

    func testOtherFilesAndMissingPathsAreLeftAlone() throws {
        let model = try mapped("model.bin", writable: false)
        defer { munmap(model, size) }
        XCTAssertEqual(MappedPages.release(under: directory + "/other.bin"), 0)
        // A file whose name begins the mapped one's is not a directory holding it.
        try Data().write(to: URL(fileURLWithPath: directory + "/model"))
        XCTAssertEqual(MappedPages.release(under: directory + "/model"), 0)
        XCTAssertEqual(try residentKiB("model.bin"), size / 1024)
    }
}
