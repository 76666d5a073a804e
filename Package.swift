// swift-tools-version:6.0
import PackageDescription

/// System libraries from Debian, found with pkg-config. Each has a module map and a
/// `shim.h` holding typed `static inline` wrappers for variadic calls and macros.
let systemLibraries: [Target] = [
    .systemLibrary(
        name: "CPocketSphinx", pkgConfig: "pocketsphinx",
        providers: [.apt(["libpocketsphinx-dev", "pocketsphinx-en-us"])]),
    .systemLibrary(name: "CESpeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
    .systemLibrary(name: "CPortAudio", pkgConfig: "portaudio-2.0", providers: [.apt(["portaudio19-dev"])]),
    .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CSpeexDSP", pkgConfig: "speexdsp", providers: [.apt(["libspeexdsp-dev"])]),
    .systemLibrary(name: "CCrypto", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
    .systemLibrary(name: "CMuJS", pkgConfig: "mujs", providers: [.apt(["libmujs-dev"])]),
    // Declarations only: libwhisper comes from a pinned wheel (scripts/whisper-deps.sh) and is
    // loaded with dlopen, so nothing is linked.
    .systemLibrary(name: "CWhisper"),
]

var swiftTargets: [Target] = [
    // Core is split in three layers. SusiCore: audio buffers and WAV, errors, logging, child
    // processes, atomic files. SusiModel: what the parts exchange (config, chat answers and
    // actions, transcripts, Home Assistant's model, the stage protocols, events, status, the
    // interaction log and planned answers). SusiPipeline: the voice pipeline that runs the stages
    // (wake gate, endpointer, command listener) and the Wyoming satellite protocol.
    .target(name: "SusiCore"),
    .target(name: "SusiModel", dependencies: ["SusiCore"]),
    .target(name: "SusiPipeline", dependencies: ["SusiCore", "SusiModel"]),
    .target(name: "SusiSpeech", dependencies: ["SusiCore", "SusiModel", "CPocketSphinx", "CESpeakNG", "CSpeexDSP", "CWhisper"]),
    .target(name: "SusiAudio", dependencies: ["SusiCore", "SusiModel", "CPortAudio", "CSpeexDSP"]),
    .target(name: "SusiNet", dependencies: ["SusiCore", "SusiModel", "CCurl", "CCrypto"]),
    // The settings page's files are compiled in as byte arrays (`PackageResources`): nothing to
    // find at run time, nothing for `make install` to copy.
    .target(
        name: "SusiServer", dependencies: ["SusiCore", "SusiModel", "CMicroHTTPD", "CCrypto"],
        resources: [
            .embedInCode("Setup/Page/settings.html"), .embedInCode("Setup/Page/settings.css"),
            .embedInCode("Setup/Page/settings.js"),
        ]),
    .target(name: "SusiBrain", dependencies: ["SusiCore", "SusiModel"]),
    .target(name: "SusiPlayer", dependencies: ["SusiCore", "SusiModel"]),
    // The runtime: the components wired into a speaker (pipeline assembly, actions, control,
    // account link, the brain's HTTP glue). The executable only parses arguments and prints.
    .target(
        name: "SusiSpeaker",
        dependencies: [
            "SusiCore", "SusiModel", "SusiPipeline", "SusiSpeech", "SusiAudio", "SusiNet", "SusiServer", "SusiBrain",
            "SusiPlayer",
        ]),
    .executableTarget(name: "susi", dependencies: ["SusiSpeaker", "SusiCore", "SusiModel"]),

    // Runs one skill's !javascript in its own process, so a runaway script can be stopped.
    .executableTarget(name: "susi-js", dependencies: ["CMuJS"]),
    .executableTarget(
        name: "susi-bench", dependencies: ["SusiCore", "SusiModel", "SusiPipeline", "SusiSpeech", "SusiAudio", "SusiBrain"],
        path: "bench/Sources/susi-bench"),
    // Helpers shared by the test targets (one copy, not one per target).
    .target(
        name: "SusiTestSupport", dependencies: ["SusiCore", "SusiModel", "SusiBrain", "SusiServer", "SusiNet"],
        path: "Tests/SusiTestSupport"),
    .testTarget(name: "SusiCoreTests", dependencies: ["SusiCore", "SusiTestSupport"]),
    .testTarget(name: "SusiModelTests", dependencies: ["SusiModel", "SusiCore", "SusiTestSupport"]),
    .testTarget(name: "SusiPipelineTests", dependencies: ["SusiPipeline", "SusiModel", "SusiCore", "SusiTestSupport"]),
    .testTarget(name: "SusiSpeechTests", dependencies: ["SusiSpeech", "SusiAudio", "SusiCore", "SusiModel"]),
    .testTarget(name: "SusiAudioTests", dependencies: ["SusiAudio", "SusiCore", "SusiModel"]),
    .testTarget(name: "SusiNetTests", dependencies: ["SusiCore", "SusiModel", "SusiNet", "SusiServer", "SusiTestSupport"]),
    .testTarget(name: "SusiServerTests", dependencies: ["SusiCore", "SusiModel", "SusiServer", "SusiNet", "SusiTestSupport"]),
    .testTarget(name: "SusiBrainTests", dependencies: ["SusiCore", "SusiModel", "SusiBrain", "SusiTestSupport"]),
    .testTarget(name: "SusiPlayerTests", dependencies: ["SusiCore", "SusiModel", "SusiPlayer", "SusiTestSupport"]),
    .testTarget(
        name: "SusiSpeakerTests",
        dependencies: [
            "SusiSpeaker", "SusiCore", "SusiModel", "SusiPipeline", "SusiNet", "SusiServer", "SusiBrain", "SusiPlayer",
            "SusiAudio", "SusiSpeech",
            "SusiTestSupport",
        ]),
    .testTarget(
        name: "susiTests",
        dependencies: ["susi", "SusiCore", "SusiModel", "SusiAudio", "SusiServer", "SusiSpeaker", "SusiTestSupport"]),
]

// One place for the strictness every Swift target shares.
for index in swiftTargets.indices {
    var settings = swiftTargets[index].swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    swiftTargets[index].swiftSettings = settings
}

let package = Package(
    name: "SusiSpeaker",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "susi", targets: ["susi"]), .executable(name: "susi-js", targets: ["susi-js"])],
    targets: systemLibraries + swiftTargets,
    swiftLanguageModes: [.v6]
)
