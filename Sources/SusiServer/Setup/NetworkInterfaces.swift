import Foundation
import SusiCore

/// The machine's network interfaces as Linux shows them in `/sys/class/net` and
/// `/proc/net/route`: what `/mac` reports.
public struct NetworkInterfaces: Sendable {
    /// The directory with one entry per interface (`/sys/class/net`).
    public let classDirectory: String
    /// The kernel's IPv4 routing table (`/proc/net/route`).
    public let routeTable: String

    /// Interfaces read from `classDirectory` and `routeTable` (the real ones by default; tests
    /// give a scratch tree).
    public init(classDirectory: String = "/sys/class/net", routeTable: String = "/proc/net/route") {
        self.classDirectory = classDirectory
        self.routeTable = routeTable
    }

    /// The MAC address (`aa:bb:cc:dd:ee:ff`, lower-case) of the primary interface: the one the
    /// default route leaves through, else the first physical interface (one with a device)
    /// in name order. Nil when there is none with a real address.
    public func primaryMAC() -> String? {
        if let interface = defaultRouteInterface(), let mac = address(of: interface) {
            return mac
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: classDirectory)) ?? []).sorted()
        for name in names where name != "lo" {
            let device = (classDirectory as NSString).appendingPathComponent(name + "/device")
            if FileManager.default.fileExists(atPath: device), let mac = address(of: name) {
                return mac
            }
        }
        return nil
    }

    /// The interface of the first default route (destination 0.0.0.0) in the routing table.
    func defaultRouteInterface() -> String? {
        guard let data = KernelFile.read(routeTable) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            if fields.count > 1, fields[1] == "00000000" {
                return String(fields[0])
            }
        }
        return nil
    }

    /// The interface's hardware address, when it is a well-formed, non-zero MAC.
    func address(of interface: String) -> String? {
        guard !interface.contains("/"), !interface.hasPrefix(".") else { return nil }
        let path = (classDirectory as NSString).appendingPathComponent(interface + "/address")
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isHexDigit) }),
            text != "00:00:00:00:00:00"
        else { return nil }
        return text
    }
}
