import Foundation
import SusiNet
import SusiServer
@_exported import SusiTestSupport
import XCTest

/// Runs the `curl` command-line tool as the phone apps' HTTP stacks would be exercised:
/// returns the status code and body. `-s` keeps it quiet, `-w` appends the status.
func runCurl(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (
    status: Int, body: String
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    process.arguments = ["-s", "--max-time", "10", "-w", "\n%{http_code}"] + arguments
    let text = try standardOutput(of: process)
    guard let newline = text.lastIndex(of: "\n"),
        let status = Int(text[text.index(after: newline)...])
    else {
        XCTFail("curl printed no status: \(text)", file: file, line: line)
        return (0, text)
    }
    return (status, String(text[..<newline]))
}

/// A plain TCP client socket to 127.0.0.1, closed on deinit; used to hold connections open.
final class RawConnection {
    let descriptor: Int32

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Sends raw bytes.
    func send(_ text: String) {
        _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The reply's status line and headers, or what came within `timeoutSeconds`; the
    /// connection stays open (an event stream's reply never ends).
    func head(timeoutSeconds: Int = 2) -> String {
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !String(decoding: reply, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    deinit {
        close(descriptor)
    }
}
