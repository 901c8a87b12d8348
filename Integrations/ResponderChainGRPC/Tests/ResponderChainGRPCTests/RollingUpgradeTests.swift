import Foundation
import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import Testing

/// Three `remote-chain-test-server` processes of two binaries (see ``ShipmentSchema``): the old
/// one writes shipments in schema version 1 and reads ahead to 2; the new one writes version 2
/// and reads version 1 through its upcast.
@Suite("A rolling upgrade: old and new binaries exchange events both ways", .timeLimit(.minutes(3)))
struct RollingUpgradeTests {
    /// Events each way: 1,000 in the package's suite, whose timing tests run beside it; CI runs
    /// this suite again alone at the full 10,000 (`RESPONDERCHAIN_ROLLING_UPGRADE_EVENTS`).
    static let count =
        ProcessInfo.processInfo.environment["RESPONDERCHAIN_ROLLING_UPGRADE_EVENTS"].flatMap(Int.init)
        ?? 1_000

    @Test(
        "Shipments each way between old and new processes at once (10,000 in CI's own step): every one handled, in its sender's order, none unreadable"
    )
    func bothWays() async throws {
        let old = try await BackendProcess.launch(arguments: ["--schema", "old"])
        defer { old.kill() }
        // The new process ships to the old one; a second old process ships to the new one.
        let new = try await BackendProcess.launch(
            arguments: ["--schema", "new", "--ship-to", "\(old.port)", "--count", "\(Self.count)"])
        defer { new.kill() }
        let oldShipper = try await BackendProcess.launch(
            arguments: ["--schema", "old", "--ship-to", "\(new.port)", "--count", "\(Self.count)"])
        defer { oldShipper.kill() }

        let received = "received \(Self.count)"
        let shipped = "shipped handled=\(Self.count) other=0"
        // Required in turn: once a process has failed, the next would wait for what never comes.
        try #require(try await Self.lines(of: new, until: [received, shipped]) == [received, shipped])
        try #require(try await Self.lines(of: oldShipper, until: [shipped]) == [shipped])
        #expect(try await Self.lines(of: old, until: [received]) == [received])
    }

    /// The lines among `wanted` that `process` says, in the order of `wanted`, once it has said
    /// them all or something that ends the wait: a line `shipped` with other figures, one
    /// `out of order`, or the failure of its link's registry check.
    static func lines(of process: BackendProcess, until wanted: Set<String>) async throws -> [String] {
        var seen: Set<String> = []
        while seen != wanted {
            let line = try await process.line { line in
                wanted.contains(line) || line.hasPrefix("shipped") || line.hasPrefix("out of order")
                    || line.hasPrefix("registry check failed")
            }
            guard wanted.contains(line) else { return [line] }
            seen.insert(line)
        }
        return wanted.sorted()
    }
}
