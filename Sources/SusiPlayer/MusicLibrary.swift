import Foundation
import SusiCore
import Synchronization

/// The owner's own music: the audio files under `player.media_dirs` and on removable media
/// mounted under `/media` or `/run/media`, with their tags, for "play my music", "play
/// something by ARTIST" and "play the album TITLE" without the network.
///
/// The index is kept in a JSON file and brought up to date before each question (`refresh`):
/// the folders are walked again, and only files that are new or changed since the last walk
/// have their tags read, so a USB stick plugged in after start is found on the next request.
/// A file without tags is known by its folders: `Artist/Album/01 Title.mp3`.
public final class MusicLibrary: Sendable {
    /// One audio file and its tags.
    public struct Track: Codable, Sendable, Equatable {
        public var path: String
        public var artist: String
        public var album: String
        public var title: String
        /// The track number on its album; nil when unknown.
        public var number: Int?
        /// The file's modification time when its tags were read (seconds since 1970).
        public var modified: Double

        public init(path: String, artist: String, album: String, title: String, number: Int?, modified: Double) {
            self.path = path
            self.artist = artist
            self.album = album
            self.title = title
            self.number = number
            self.modified = modified
        }
    }

    /// What a request asks for.
    public enum Selection: Sendable, Equatable {
        case everything
        case artist(String)
        case album(String)
    }

    /// Reads the tags of one file (artist, album, title, track number); nil for a file that
    /// is not audio or cannot be read.
    public typealias TagReader = @Sendable (String) -> (artist: String, album: String, title: String, number: Int?)?

    /// File name endings indexed as audio.
    public static let audioExtensions: Set<String> = [
        "mp3", "flac", "ogg", "oga", "opus", "m4a", "aac", "wav", "wma", "aiff", "aif", "ape", "mka", "wv",
    ]
    /// The most files indexed, so a disk full of files cannot fill the memory.
    public static let maximumTracks = 50_000

    private let indexPath: String
    private let readTags: TagReader
    private let mountTable: String
    private let removableRoots: [String]
    /// The tracks by path; nil until the index file has been read.
    private let index = Mutex<[String: Track]?>(nil)

    /// A library indexed into `indexPath`, reading tags with `readTags` (ffprobe by default).
    /// Removable media are the mount points under `removableRoots` listed in `mountTable`.
    public init(
        indexPath: String, readTags: @escaping TagReader = MusicLibrary.ffprobeTags,
        mountTable: String = "/proc/self/mounts", removableRoots: [String] = ["/media/", "/run/media/"]
    ) {
        self.indexPath = indexPath
        self.readTags = readTags
        self.mountTable = mountTable
        self.removableRoots = removableRoots
    }

    /// The folders searched: `folders` (`~/` read against `home`) and, with `removable`, each
    /// mounted removable medium.
    public func roots(folders: [String], removable: Bool, home: String = NSHomeDirectory()) -> [String] {
        let named = folders.map { $0.hasPrefix("~/") ? home + $0.dropFirst() : $0 }
        return named + (removable ? mountedMedia() : [])
    }

    /// The mount points in the mount table under one of the removable roots.
    public func mountedMedia() -> [String] {
        guard let table = try? String(contentsOfFile: mountTable, encoding: .utf8) else { return [] }
        return table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 1 else { return nil }
            // The table escapes spaces and tabs in paths as octal.
            let point = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
                .replacingOccurrences(of: "\\011", with: "\t")
            return removableRoots.contains { point.hasPrefix($0) } ? point : nil
        }
    }

    /// Brings the index up to date with the audio files under `roots`: new and changed files
    /// get their tags read, files gone are dropped. Returns the number of tracks.
    @discardableResult
    public func refresh(roots: [String]) -> Int {
        let known = current()
        var found: [String: Track] = [:]
        for root in roots {
            for (path, modified) in audioFiles(under: root) where found.count < Self.maximumTracks {
                if let track = known[path], track.modified == modified {
                    found[path] = track
                } else if let track = track(at: path, modified: modified, root: root) {
                    found[path] = track
                }
            }
        }
        if found != known {
            index.withLock { $0 = found }
            save(found)
        }
        return found.count
    }

    /// The tracks `selection` asks for, in album order (artist, album, track number, title);
    /// empty when nothing matches.
    public func tracks(for selection: Selection) -> [Track] {
        let all = Array(current().values)
        let chosen: [Track]
        switch selection {
        case .everything:
            chosen = all
        case .artist(let words):
            chosen = Self.best(all, words: words, field: \.artist)
        case .album(let words):
            chosen = Self.best(all, words: words, field: \.album)
        }
        return chosen.sorted {
            ($0.artist.lowercased(), $0.album.lowercased(), $0.number ?? Int.max, $0.title.lowercased())
                < ($1.artist.lowercased(), $1.album.lowercased(), $1.number ?? Int.max, $1.title.lowercased())
        }
    }

    /// The tracks whose `field` best matches the spoken `words`: an exact match (ignoring
    /// case, punctuation and a leading "the") before one holding every spoken word.
    static func best(_ tracks: [Track], words: String, field: KeyPath<Track, String>) -> [Track] {
        let wanted = spokenForm(words)
        guard !wanted.isEmpty else { return [] }
        let exact = tracks.filter { spokenForm($0[keyPath: field]) == wanted }
        if !exact.isEmpty { return exact }
        return tracks.filter { track in
            let have = Set(spokenForm(track[keyPath: field]))
            return !have.isEmpty && wanted.allSatisfy(have.contains)
        }
    }

    /// `text` as the recogniser would give it: lower case words, without punctuation or a
    /// leading "the"; "&" is "and".
    static func spokenForm(_ text: String) -> [String] {
        let words = text.lowercased().replacingOccurrences(of: "&", with: " and ")
            .split { !$0.isLetter && !$0.isNumber && $0 != "'" }
            .map { $0.replacingOccurrences(of: "'", with: "") }
            .filter { !$0.isEmpty }
        return words.first == "the" ? Array(words.dropFirst()) : words
    }

    // MARK: - Files

    private func audioFiles(under root: String) -> [(String, Double)] {
        var files: [(String, Double)] = []
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String, files.count < Self.maximumTracks {
            let ending = (relative as NSString).pathExtension.lowercased()
            guard Self.audioExtensions.contains(ending) else { continue }
            let path = root.hasSuffix("/") ? root + relative : root + "/" + relative
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular,
                let date = attributes[.modificationDate] as? Date
            else { continue }
            files.append((path, date.timeIntervalSince1970))
        }
        return files
    }

    /// The track at `path`: its tags, with what is missing taken from its folders under
    /// `root` (`Artist/Album/file`) and its file name.
    private func track(at path: String, modified: Double, root: String) -> Track? {
        let tags = readTags(path)
        let relative = path.dropFirst(root.count).split(separator: "/").map(String.init)
        let folders = relative.dropLast()
        let fileTitle = ((relative.last ?? "") as NSString).deletingPathExtension
        func pick(_ tag: String?, _ fallback: String?) -> String {
            let value = tag?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return value.isEmpty ? (fallback ?? "") : value
        }
        return Track(
            path: path, artist: pick(tags?.artist, folders.count >= 2 ? folders[folders.count - 2] : nil),
            album: pick(tags?.album, folders.last), title: pick(tags?.title, fileTitle), number: tags?.number,
            modified: modified)
    }

    // MARK: - The index file

    /// The tracks known, read from the index file the first time.
    private func current() -> [String: Track] {
        index.withLock { tracks in
            if let tracks { return tracks }
            let saved = FileManager.default.contents(atPath: indexPath).flatMap {
                try? JSONDecoder().decode([Track].self, from: $0)
            }
            let read = Dictionary((saved ?? []).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
            tracks = read
            return read
        }
    }

    private func save(_ tracks: [String: Track]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let sorted = tracks.values.sorted { $0.path < $1.path }
        // The index is a cache: when it cannot be written, the next start reads the tags again.
        if let data = try? encoder.encode(sorted) { try? AtomicFile.write(data, to: indexPath, mode: 0o644) }
    }

    // MARK: - Tags

    /// Tags read by `ffprobe` (FFmpeg): the container's artist (else album artist), album,
    /// title and track ("3" or "3/12"). Nil when ffprobe is missing or finds no audio stream.
    public static let ffprobeTags: TagReader = { path in
        guard let ffprobe = ["/usr/bin/ffprobe", "/usr/local/bin/ffprobe"].first(where: FileManager.default.isExecutableFile)
        else { return nil }
        let run = ChildProcess(
            ffprobe,
            arguments: [
                "-v", "quiet", "-print_format", "json", "-show_entries",
                "format_tags=artist,album_artist,album,title,track:stream=codec_type", path,
            ],
            capture: .standardOutput, timeout: 10, closesInheritedDescriptors: false, outputName: "susi-ffprobe"
        ).run()
        guard run.succeeded, let object = try? JSONSerialization.jsonObject(with: run.output) as? [String: Any] else {
            return nil
        }
        let streams = object["streams"] as? [[String: Any]] ?? []
        guard streams.contains(where: { $0["codec_type"] as? String == "audio" }) else { return nil }
        // Tag names differ in case between containers (Vorbis comments are upper case).
        let raw = (object["format"] as? [String: Any])?["tags"] as? [String: Any] ?? [:]
        let tags = Dictionary(raw.map { ($0.key.lowercased(), "\($0.value)") }, uniquingKeysWith: { first, _ in first })
        let number = tags["track"].flatMap { Int($0.split(separator: "/").first ?? "") }
        return (tags["artist"] ?? tags["album_artist"] ?? "", tags["album"] ?? "", tags["title"] ?? "", number)
    }
}
