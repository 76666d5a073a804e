import Foundation

/// A TCP socket bound to 127.0.0.1 on a free port, listening when `listenBacklog` is given:
/// its descriptor (the caller closes it) and port.
public func loopbackSocket(listenBacklog: Int32? = nil) throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
        }
    }
    guard bound, listenBacklog.map({ listen(descriptor, $0) == 0 }) ?? true else {
        close(descriptor)
        throw POSIXError(.EADDRINUSE)
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
}

/// Runs `process` to the end and returns what it printed; its standard error is dropped.
public func standardOutput(of process: Process) throws -> String {
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
