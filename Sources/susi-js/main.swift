// susi-js: runs one `!javascript:` script of a SUSI skill in its own short-lived process, so a
// runaway script can always be stopped (mujs, like duktape, has no interrupt hook).
//
//   susi-js TIME_MS MEMORY_BYTES < script
//   susi-js TIME_MS MEMORY_BYTES --serve
//
// Prints "ok\n" and the script's completion value ("number\n" and its exact value when it
// is a number), or "error\n" and the message. With
// --serve it stays and runs one script after another, each in a fresh interpreter: a request
// is its length in decimal, a newline and the script; the reply is framed the same way; end
// of input ends the process (the brain keeps a started helper for the next script, which
// saves the process start on every answer). Limits: the
// script's CPU time (a virtual timer; SIGVTALRM ends the process), its heap (mujs's allocator
// refuses past MEMORY_BYTES), no new descriptors (RLIMIT_NOFILE 3: no file or socket can be
// opened), no new processes (RLIMIT_NPROC 0). mujs itself offers scripts no file, network or
// process API; `print` writes into the result, as Nashorn's does for SUSI. mujs was chosen over duktape by measurement: a fresh interpreter in 0.10-0.19
// against 0.23-0.42 ms, a million-step loop in 960 against 1,215 ms, in one run.
// Glibc only, no Foundation: the process must start in a few milliseconds.
import CMuJS
import Glibc

func emit(_ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return -1 }
            return write(1, base + offset, raw.count - offset)
        }
        guard written > 0 else { return }
        offset += written
    }
}

func limit(_ resource: __rlimit_resource, _ value: rlim_t) {
    var bounds = rlimit(rlim_cur: value, rlim_max: value)
    _ = setrlimit(__rlimit_resource_t(resource.rawValue), &bounds)
}

let arguments = CommandLine.arguments
let timeMilliseconds = arguments.count > 1 ? max(1, min(Int(arguments[1]) ?? 50, 10_000)) : 50
let memoryBytes = arguments.count > 2 ? max(1 << 16, min(Int(arguments[2]) ?? (16 << 20), 1 << 30)) : 16 << 20
let serving = arguments.count > 3 && arguments[3] == "--serve"
let maxScript = 65_536

/// Reads exactly `count` bytes of standard input; nil at its end.
func readBytes(_ count: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    var offset = 0
    while offset < count {
        let got = bytes.withUnsafeMutableBytes { read(0, $0.baseAddress.map { $0 + offset }, count - offset) }
        guard got > 0 else { return nil }
        offset += got
    }
    return bytes
}

/// One framed request's script; nil at the end of input or on a malformed frame.
func readRequest() -> [UInt8]? {
    var digits = 0
    var length = 0
    while let byte = readBytes(1)?.first, byte != 10 {
        guard byte >= 48, byte <= 57, digits < 6 else { return nil }
        length = length * 10 + Int(byte - 48)
        digits += 1
    }
    guard digits > 0, length <= maxScript else { return nil }
    return readBytes(length)
}

/// Runs one script in a fresh interpreter, under the CPU timer; "ok\n" or "error\n" first.
func runScript(_ source: [UInt8]) -> String {
    var budget = susi_js_budget(used: 0, limit: memoryBytes)
    guard let state = susi_js_new(&budget) else { return "error\ncannot create the interpreter" }
    defer { susi_js_free(state) }
    // mujs keeps this pointer as the state's context, so it must outlive the run.
    let output = UnsafeMutablePointer<susi_js_output>.allocate(capacity: 1)
    output.initialize(to: susi_js_output())
    defer { output.deallocate() }
    susi_js_install_print(state, output)
    // Nashorn's Annex B date method, which skills use and mujs leaves out.
    _ = susi_js_run(
        state, "if (!Date.prototype.getYear) Date.prototype.getYear = function () { return this.getFullYear() - 1900; };")
    var timer = itimerval(
        it_interval: timeval(tv_sec: 0, tv_usec: 0),
        it_value: timeval(tv_sec: timeMilliseconds / 1000, tv_usec: __suseconds_t((timeMilliseconds % 1000) * 1000)))
    _ = setitimer(__itimer_which_t(ITIMER_VIRTUAL.rawValue), &timer, nil)
    let failed = (source + [0]).withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { susi_js_run(state, $0.baseAddress) != 0 }
    }
    var stop = itimerval()
    _ = setitimer(__itimer_which_t(ITIMER_VIRTUAL.rawValue), &stop, nil)
    // A number goes back as "number" and its exact value: SUSI writes numbers the way Java
    // prints Nashorn's result (ScriptNumber in SusiBrain), not as JavaScript does.
    if !failed, js_isnumber(state, -1) != 0 {
        return "number\n" + js_tonumber(state, -1).description
    }
    // As SUSI: the completion value, or what was printed when there is none.
    let value = susi_js_top_is_empty(state) != 0 ? "" : susi_js_top_string(state).map { String(cString: $0) } ?? ""
    let printed = withUnsafeBytes(of: output.pointee.text) { String(decoding: $0.prefix(output.pointee.length), as: UTF8.self) }
    return (failed ? "error\n" : "ok\n") + (failed || !value.isEmpty ? value : printed)
}

limit(__RLIMIT_NPROC, 0)
limit(RLIMIT_NOFILE, 3)
if serving {
    // A backstop only: the brain retires a helper after a few dozen scripts.
    limit(RLIMIT_CPU, 30)
    while let script = readRequest() {
        let reply = runScript(script)
        emit("\(reply.utf8.count)\n" + reply)
    }
    exit(0)
}

// The script, at most 64 KiB.
var script: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 4096)
while script.count <= maxScript {
    let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
    guard count > 0 else { break }
    script += chunk[0..<count]
}
guard script.count <= maxScript else {
    emit("error\nscript longer than 64 KiB")
    exit(0)
}
limit(RLIMIT_CPU, rlim_t(timeMilliseconds / 1000 + 1))
emit(runScript(script))
exit(0)
