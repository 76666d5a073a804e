/// The web page served at `/`: what the speaker is doing and hearing, and every setting.
///
/// Its text is in `Page/settings.html`, `settings.css` and `settings.js`, compiled into the
/// binary (`.embedInCode` in Package.swift). `html` puts the stylesheet and the script inline
/// and fills the room list, so the page is one response with no outside assets: it works on the
/// speaker's own hotspot without internet.
///
/// It shows the status, the live conversation (`/events`, `/level`), the settings (each saved
/// through `POST /settings` on change, with the validation's message beside it), what can be
/// said, timers, lists, history and the wake word figures. In setup mode (`GET /wifi_networks`
/// answers) it starts with the setup form, which finishes setup as the SUSI apps do:
/// `/speaker_config`, `/wifi_credentials`, `/auth` and `/config`, in that order, as form POSTs
/// (so no password is in a URL); the owner token `/config` gives goes to `POST /session` at
/// once and is shown once.
///
/// Every request is same-origin with credentials; every other change is a POST with a JSON body.
/// A 401 hides the owner's part and shows the sign-in form (`#signin`, `data-ready="signin"`),
/// whose token goes to `POST /session`. Element ids are what the browser tests read.
enum SettingsPage {
    static let html = text(PackageResources.settings_html)
        .replacing("<!--rooms-->", with: roomOptions)
        .replacing("<!--settings.css-->", with: text(PackageResources.settings_css))
        .replacing("<!--settings.js-->", with: text(PackageResources.settings_js))

    /// The apps' rooms, offered while a room name is typed in the setup form.
    private static let roomOptions = SetupParameters.rooms.map { "<option value=\"\($0)\">" }.joined()

    /// A page file's text without its final newline: a placeholder's own line ends the
    /// inserted text, and the page ends at `</html>`.
    private static func text(_ bytes: [UInt8]) -> String {
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
