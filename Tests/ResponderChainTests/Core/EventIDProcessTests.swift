import Foundation
import ResponderChain
import Testing

/// Set in a child process's environment: its ``EventIDProcessTests/reportsOneIdentifier()``
/// prints the full form of a new identifier of that process.
private let childVariable = "RESPONDERCHAIN_EVENTID_CHILD"

/// The marker before the identifier a child prints.
private let marker = "event-id="

/// This test binary, when it can be run again as a child process (it can when `swift test` runs
/// the `.xctest` executable itself, as on Linux).
private let testBinary: URL? = {
    guard let path = CommandLine.arguments.first, path.hasSuffix(".xctest"),
        FileManager.default.isExecutableFile(atPath: path)
    else { return nil }
    return URL(fileURLWithPath: path)
}()

@Suite("Event identifiers of different processes")
struct EventIDProcessTests {
    @Test("are reported by a child process when asked (the helper the next test runs)")
    func reportsOneIdentifier() {
        guard ProcessInfo.processInfo.environment[childVariable] != nil else { return }
        print(marker + EventID().debugDescription)
    }

    @Test("never meet: each new process draws its own epoch", .enabled(if: testBinary != nil))
    func eachProcessDrawsItsOwnEpoch() throws {
        let here = EventID()
        let first = try Self.identifierOfNewProcess()
        let second = try Self.identifierOfNewProcess()
        #expect(Set([here.epoch, first.epoch, second.epoch]).count == 3)
        #expect(![first, second].contains(here))
        #expect(first != second)
    }

    /// Runs this test binary again, as a child, with only ``reportsOneIdentifier()``, and reads
    /// the identifier it printed.
    private static func identifierOfNewProcess() throws -> EventID {
        let binary = try #require(testBinary)
        let child = Process()
        child.executableURL = binary
        child.arguments = ["--testing-library", "swift-testing", "--filter", "reportsOneIdentifier"]
        child.environment = ProcessInfo.processInfo.environment.merging([childVariable: "1"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        #expect(child.terminationReason == .exit && child.terminationStatus == 0)
        let line = try #require(
            String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(marker) },
            "the child printed no identifier")
        return try #require(EventID(debugDescription: line.dropFirst(marker.count)))
    }
}
