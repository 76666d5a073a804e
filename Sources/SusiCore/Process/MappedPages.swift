import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Gives back the resident pages of memory-mapped model files once a model is loaded.
///
/// PocketSphinx maps its acoustic model's `mdef` and TensorFlow Lite its `.tflite` files, and
/// both read them whole while loading. Afterwards PocketSphinx touches about a fifth of
/// `mdef` and TensorFlow Lite none of its files (it keeps its own packed copy of the
/// weights), yet every page read at load stays in the process's resident set: about 7 MiB for
/// `susi run`. Dropping a read-only mapping's pages is safe: the kernel reads a page from
/// the file again on its next touch.
public enum MappedPages {
    /// Drops this process's pages of every read-only file mapping of one of `paths`, or of a
    /// file under one that is a directory; /proc/self/maps is read once for all. Writable
    /// mappings are left alone. Returns the bytes of mappings advised (0 when no path exists
    /// or /proc/self/maps cannot be read).
    @discardableResult
    public static func release(under paths: String...) -> Int {
        let targets: [String] = paths.compactMap { path in
            guard let real = realpath(path, nil) else { return nil }
            defer { free(real) }
            return String(cString: real)
        }
        guard !targets.isEmpty,
            let maps = KernelFile.read("/proc/self/maps").map({ String(decoding: $0, as: UTF8.self) })
        else { return 0 }
        var released = 0
        for line in maps.split(separator: "\n") {
            // start-end perms offset device inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count == 6, fields[1].count == 4, !fields[1].contains("w") else { continue }
            let file = fields[5].trimmingCharacters(in: .whitespaces)
            guard targets.contains(where: { file == $0 || file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") })
            else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                end > start, madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_DONTNEED) == 0
            else { continue }
            released += Int(end - start)
        }
        return released
    }
}
