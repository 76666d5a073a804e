/// The speaker's settings, one typed field per config key; every field has a default.
///
/// The JSON file nests sections (`{"tts": {"voice": "en-gb"}}`); keys are named by their
/// dotted path (`tts.voice`). `ConfigSchema` lists every key with its type and allowed values.
public struct Config: Sendable, Equatable {
    /// Speech output (eSpeak NG).
    public struct TTS: Sendable, Equatable {
        public var voice = "en-us"
        public var variant = ""
        public var rate = 175
        public var pitch = 50
        public var volume = 100
    }

    /// Where answers come from.
    public struct Brain: Sendable, Equatable {
        public var mode = "hybrid"
        public var server = "https://api.susi.ai"
        public var timeoutSeconds = 5.0
        /// The chat request limit while someone waits to hear an answer (`susi run`): a hung
        /// server costs this much silence once, then the speaker answers offline at once.
        public var voiceTimeoutSeconds = 1.5
        public var language = "en"
    }

    /// The wake word.
    public struct Hotword: Sendable, Equatable {
        public var enabled = true
        public var phrase = "susi"
        /// `neural` (a classifier trained for the phrase, models/hotword/README.md) or
        /// `pocketsphinx` (keyphrase search; also what `neural` falls back to when its
        /// files are missing).
        public var engine = "neural"
        /// The neural detector's score threshold; 0 takes the one chosen in training.
        public var neuralThreshold = 0.0
        /// Measured on synthetic voices (models/hotword/README.md): the most wakes with no
        /// false wake on close negatives.
        public var threshold = 1e-16
        /// A hardware wake button, as the phone apps' `wake` setting turns on.
        public var wakeButton = false
        /// Re-decode each candidate wake word before waking (bench/RESULTS.md: far fewer
        /// false wakes on ordinary speech); with the neural engine only candidates below the
        /// head's sure threshold.
        public var verify = true
        /// How far below the verifier's best reading another reading with the phrase still
        /// wakes, in PocketSphinx log units; 0: only the best reading (bench/RESULTS.md: 100
        /// finds more wake words on other voices, with more false wakes).
        public var verifyMargin = 0
        /// With Whisper (`stt.engine whisper`), drop a wake whose Whisper transcript does not
        /// hold the name near its start, silently. Off: tiny.en writes synthetic voices' "susi"
        /// as "to the", "2v", "Suci", ... and lost 21-73% of wake words (bench/RESULTS.md).
        public var nameCheck = false
    }

    /// Speech recognition and endpointing.
    public struct STT: Sendable, Equatable {
        /// `whisper`: PocketSphinx streams and ends the command, Whisper hears it whole after
        /// it ended (`pocketsphinx` where Whisper is not installed); `pocketsphinx`: it alone.
        public var engine = "whisper"
        /// The Whisper model: `tiny.en` (English) or `base` (multilingual).
        public var whisperModel = "tiny.en"
        /// Threads Whisper decodes with.
        public var whisperThreads = 2
        /// When Whisper's reading replaces PocketSphinx's: `always`, or `unsure` (only when no
        /// skill is sure of PocketSphinx's reading, which answers sooner).
        public var whisperWhen = "unsure"
        /// The longest Whisper may take over a command, in ms; 0: the model's own limit
        /// (1.2 s for tiny.en, 3.5 s for base), longer for a slower box.
        public var whisperTimeoutMs = 0
        public var endSilenceMs = 600
        public var noSpeechTimeoutMs = 5000
        public var maxUtteranceMs = 10000
        /// speexdsp noise suppression in front of the recogniser and the wake word.
        public var noiseSuppression = false
        /// Hear open questions too (in `hybrid` and `remote` modes): the recogniser's model
        /// adds what people ask assistants, SUSI.AI's skill examples and generic English.
        public var openQuestions = true
    }

    /// Sound devices: `default`, a device name, or an index as `susi devices` lists them.
    public struct Audio: Sendable, Equatable {
        public var input = "default"
        public var output = "default"
    }

    /// The external media player.
    public struct Player: Sendable, Equatable {
        public var command = "mpv"
        public var args: [String] = []
        public var volume = 70
        public var duckVolume = 20
        public var volumeStep = 10
        /// Folders answers may play local files from (`MediaSourcePolicy`); empty: none, so
        /// answers play only streams and searches until the owner names a music folder.
        public var mediaDirectories: [String] = []
        /// Whether "play my music" also plays from media mounted under /media and /run/media
        /// (a USB stick).
        public var removableMedia = true
        /// Whether the music plays in sync with other speakers through Snapcast (`Multiroom`).
        public var multiroom = false
        /// The speaker whose music this one plays (`HOST` or `HOST:PORT`); empty: this one
        /// serves its own to the others.
        public var multiroomServer = ""
        /// The port a serving speaker streams on.
        public var multiroomPort = 1704
    }

    /// The setup and control HTTP server for the phone apps.
    public struct Setup: Sendable, Equatable {
        public var port = 5000
        public var bind = "0.0.0.0"
        /// Empty means `wpa_supplicant.conf` beside the config file.
        public var wpaSupplicantFile = ""
        /// Shell command run after Wi-Fi credentials were stored; empty for none.
        public var onWifi = ""
        /// Shell command run when the apps finish setup; empty for none.
        public var onComplete = ""
        /// The speaker's own Wi-Fi access point for first setup (`susi setup hotspot`).
        public var hotspot = Hotspot()
    }

    /// The first-setup hotspot: what the SUSI apps join to reach 10.0.0.1:5000.
    public struct Hotspot: Sendable, Equatable {
        /// The network name; the iOS app compares the phone's SSID with exactly "SUSI.AI".
        public var ssid = "SUSI.AI"
        /// WPA2 passphrase (8-63 characters), or empty for this speaker's own, made once and
        /// kept beside the config (`susi setup hotspot status` prints it). The apps' guides
        /// tell people to type "password": setting that restores their flow, for every
        /// speaker nearby alike.
        public var passphrase = ""
        /// An open hotspot, without a passphrase: anyone in range can join while it is up.
        public var open = false
        /// The Wi-Fi interface the access point runs on.
        public var interface = "wlan0"
        /// The 2.4 GHz channel.
        public var channel = 6
        /// Enter hotspot mode by itself when setup mode is on and no network is up in time.
        public var auto = true
        /// Seconds to wait for a known network after start before opening the hotspot.
        public var waitSeconds = 60
        /// Seconds the home network has to connect after leaving the hotspot, else back to it.
        public var joinTimeoutSeconds = 90
    }

    /// Where the speaker is, sent to the SUSI server when known.
    public struct Location: Sendable, Equatable {
        public var latitude: Double?
        public var longitude: Double?
        public var countryCode = ""
        public var countryName = ""
    }

    /// Web search for the `websearch` action.
    public struct WebSearch: Sendable, Equatable {
        public var url = "https://api.duckduckgo.com"
    }

    /// What the speaker keeps about what it heard.
    public struct Privacy: Sendable, Equatable {
        /// Privacy mode: keep no history of interactions (the web page's last 20 stay empty).
        public var mode = false
    }

    /// Alarms set by voice.
    public struct Alarms: Sendable, Equatable {
        /// Minutes a snoozed alarm waits before it rings again.
        public var snoozeMinutes = 9
    }

    /// A Home Assistant server reached over its REST API.
    public struct HomeAssistant: Sendable, Equatable {
        /// Its base URL (`http://homeassistant.local:8123`); empty: no Home Assistant.
        public var url = ""
        /// Whole-request limit for one call, in seconds.
        public var timeoutSeconds = 5.0
    }

    public var tts = TTS()
    public var brain = Brain()
    public var hotword = Hotword()
    public var stt = STT()
    public var audio = Audio()
    public var player = Player()
    public var setup = Setup()
    public var location = Location()
    public var websearch = WebSearch()
    public var privacy = Privacy()
    public var alarms = Alarms()
    /// The Home Assistant the speaker controls by voice (its token is kept apart, in
    /// `home-assistant-token` beside the config: `ConfigSecrets`).
    public var homeAssistant = HomeAssistant()
    /// Room name set by the phone app ("Kitchen").
    public var room = ""

    /// All defaults.
    public init() {}
}
