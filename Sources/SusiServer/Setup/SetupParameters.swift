import Foundation

/// Checks of the parameters the apps send; each failure names its parameter.
enum SetupParameters {
    /// The rooms of the apps' room picker, in their order.
    static let rooms = [
        "Bedroom", "Kitchen", "Family Room", "Entryway", "Living Room", "Front Yard", "Guest Room",
        "Dining Room", "Computer Room", "Downstairs", "Front Porch", "Garage", "Hallway", "Driveway",
    ]

    /// The parameter's value, which must be present (it may be empty).
    static func required(_ request: ServerRequest, _ name: String) throws(SetupError) -> String {
        guard let value = request.parameter(name) else {
            throw .bad(name, "missing parameter \(name)")
        }
        return value
    }

    /// The server turns bytes that are not UTF-8 into U+FFFD; a value holding one was not
    /// text and is refused rather than stored mangled.
    static func requireUTF8(_ text: String, parameter: String) throws(SetupError) {
        guard !text.unicodeScalars.contains("\u{FFFD}") else {
            throw .bad(parameter, "\(parameter) must be valid UTF-8 text")
        }
    }

    /// A room name: 1-64 characters after trimming spaces, no control characters.
    static func room(_ text: String, parameter: String = "room_name") throws(SetupError) -> String {
        try requireUTF8(text, parameter: parameter)
        let room = text.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(room.count) else {
            throw .bad(parameter, "\(parameter) must be 1 to 64 characters long")
        }
        guard !room.unicodeScalars.contains(where: WiFiNetwork.isControl) else {
            throw .bad(parameter, "\(parameter) must not contain control characters")
        }
        return room
    }

    /// `y` or `n` (either case), returned lower-case.
    static func yesNo(_ text: String, parameter: String) throws(SetupError) -> String {
        let value = text.lowercased()
        guard value == "y" || value == "n" else {
            throw .bad(parameter, "\(parameter) must be y or n")
        }
        return value
    }

    /// An email address: 3-254 characters with an `@`, no spaces or control characters.
    static func email(_ text: String) throws(SetupError) -> String {
        try requireUTF8(text, parameter: "email")
        let email = text.trimmingCharacters(in: .whitespaces)
        guard (3...254).contains(email.count), email.contains("@"),
            !email.unicodeScalars.contains(where: { WiFiNetwork.isControl($0) || $0 == " " })
        else {
            throw .bad("email", "email must be an email address (up to 254 characters)")
        }
        return email
    }

    /// A password: 1-256 characters without control characters. Never echoed.
    static func password(_ text: String) throws(SetupError) -> String {
        try requireUTF8(text, parameter: "password")
        guard (1...256).contains(text.count), !text.unicodeScalars.contains(where: WiFiNetwork.isControl) else {
            throw .bad("password", "password must be 1 to 256 characters without control characters")
        }
        return text
    }

    /// An engine name as the apps send it (`google`, `pocket_sphinx`): 1-32 of letters,
    /// digits, `-`, `_`, `.`.
    static func engineName(_ text: String, parameter: String) throws(SetupError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard (1...32).contains(name.count),
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw .bad(parameter, "\(parameter) must be an engine name such as google or pocketsphinx")
        }
        return name
    }

    /// Text to speak: 1-1000 characters after trimming, no NUL.
    static func speech(_ text: String) throws(SetupError) -> String {
        let speech = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...1000).contains(speech.count), !speech.unicodeScalars.contains("\0") else {
            throw .bad("text", "text must be 1 to 1000 characters")
        }
        return speech
    }

    /// A YouTube video id: 1-64 of letters, digits, `-`, `_`.
    static func youtubeID(_ text: String) throws(SetupError) -> String {
        guard (1...64).contains(text.count),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw .bad("ytb", "ytb must be a YouTube video id")
        }
        return text
    }

    /// An http(s) URL up to 2048 characters without spaces or control characters.
    static func mediaURL(_ text: String, parameter: String = "url") throws(SetupError) -> String {
        guard text.count <= 2048, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host?.isEmpty == false,
            !text.unicodeScalars.contains(where: { WiFiNetwork.isControl($0) || $0 == " " })
        else {
            throw .bad(parameter, "\(parameter) must be an http:// or https:// URL")
        }
        return text
    }

    /// The most entries one `mrl` list may hold.
    static let maxPlaylist = 100

    /// susi_linux's `mrl`: http(s) URLs separated by `;` (empty entries skipped), 1 to
    /// `maxPlaylist` of them. Every entry is checked before anything plays.
    static func playlist(_ text: String) throws(SetupError) -> [String] {
        let entries = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard (1...maxPlaylist).contains(entries.count) else {
            throw .bad("mrl", "mrl must hold 1 to \(maxPlaylist) http(s) URLs separated by ;")
        }
        var urls: [String] = []
        for entry in entries {
            urls.append(try mediaURL(entry, parameter: "mrl"))
        }
        return urls
    }

    /// `text` without the `user:password@` of a URL, for showing what plays; anything that is
    /// not such a URL (a YouTube id) unchanged.
    static func withoutCredentials(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.user != nil || components.password != nil
        else {
            // URLComponents refuses some URLs that still carry credentials; cut them by hand.
            guard let scheme = text.range(of: "://"),
                let at = text[scheme.upperBound...].prefix(while: { $0 != "/" && $0 != "?" && $0 != "#" }).lastIndex(of: "@")
            else { return text }
            return String(text[..<scheme.upperBound]) + String(text[text.index(after: at)...])
        }
        components.user = nil
        components.password = nil
        return components.string ?? text
    }

    /// A volume level `0`-`100`.
    static func volume(_ text: String) throws(SetupError) -> Int {
        guard text.count <= 3, let level = Int(text), (0...100).contains(level) else {
            throw .bad("level", "the volume must be a whole number from 0 to 100, up or down")
        }
        return level
    }
}
