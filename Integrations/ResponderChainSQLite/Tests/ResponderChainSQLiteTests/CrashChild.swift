import Foundation
import ResponderChainTesting

/// Runs a crash child executable (`sqlite-crash-child`, `sqlite-redrive-child`: built with the
/// tests, which depend on their targets)
/// and reports how it ended.
///
/// The executable is found in the build products directory, which holds the test bundle too:
/// on Linux the tests run in the bundle's own executable (`Bundle.main`), on macOS in an
/// `.xctest` bundle loaded by a runner, whose parent directory is the products directory.
/// `RESPONDERCHAIN_CRASH_CHILD` names another path.
struct CrashChild {
    /// The child could not be found.
    struct NotBuilt: Error, CustomStringConvertible {
        let name: String
        let looked: [String]
        var description: String {
            "\(name) not found (looked in \(looked)); build it with "
                + "`swift build --build-tests --package-path Integrations/ResponderChainSQLite`"
        }
    }

    let executable: URL

    /// The child `name` in the build products directory (the crash suite's also at
    /// `RESPONDERCHAIN_CRASH_CHILD`).
    init(named name: String = "sqlite-crash-child") throws {
        var candidates: [URL] = []
        if name == "sqlite-crash-child",
            let path = ProcessInfo.processInfo.environment["RESPONDERCHAIN_CRASH_CHILD"]
        {
            candidates.append(URL(fileURLWithPath: path))
        }
        let products =
            Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }
            .map { $0.bundleURL.deletingLastPathComponent() }
            + [Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.bundleURL].compactMap {
                $0
            }
        candidates += products.map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw NotBuilt(name: name, looked: candidates.map(\.path)) }
        executable = found
    }

    /// Runs the child with `arguments` to its end; its output goes through files in `directory`
    /// (never a pipe that could fill up).
    func run(_ arguments: [String], in directory: String) async throws -> CrashSuite.Output {
        let out = URL(fileURLWithPath: directory + "/child.out")
        let err = URL(fileURLWithPath: directory + "/child.err")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        try process.run()
        for await _ in ended.stream {}
        return CrashSuite.Output(
            ending: process.terminationReason == .uncaughtSignal
                ? .signalled(process.terminationStatus) : .exited(process.terminationStatus),
            standardOutput: try String(contentsOf: out, encoding: .utf8),
            standardError: try String(contentsOf: err, encoding: .utf8))
    }
}
