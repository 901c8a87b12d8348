import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `example-http-service` executable running as a child process on free ports of 127.0.0.1,
/// its standard output and error read as they come.
final class ServiceProcess: Sendable {
    /// How the child ended.
    struct Exit: Sendable, Equatable, CustomStringConvertible {
        /// Whether a signal ended it (`status` is the signal's number) or it exited (`status` is
        /// its exit code).
        let bySignal: Bool
        let status: Int32

        var description: String { bySignal ? "killed by signal \(status)" : "exited with \(status)" }
    }

    enum Failure: Error, CustomStringConvertible {
        case executableNotFound([String])
        case endedBeforeListening(Exit, output: String)

        var description: String {
            switch self {
            case .executableNotFound(let places):
                "example-http-service not found (looked in \(places.joined(separator: ", "))); build it with `swift build`"
            case .endedBeforeListening(let exit, let output):
                "the service \(exit) before it listened; its output:\n\(output)"
            }
        }
    }

    /// What the child wrote, kept as it comes.
    final class Output: Sendable {
        let text = Mutex("")
    }

    let process: Process
    /// The port of the order routes.
    let port: Int
    /// The port of `GET /metrics`.
    let metricsPort: Int
    private let output: Output
    private let exit: AsyncStream<Exit>

    private init(process: Process, port: Int, metricsPort: Int, output: Output, exit: AsyncStream<Exit>) {
        self.process = process
        self.port = port
        self.metricsPort = metricsPort
        self.output = output
        self.exit = exit
    }

    /// What the child wrote so far (its log).
    var log: String { output.text.withLock { $0 } }

    /// The executable: `EXAMPLE_HTTP_SERVICE` if set, else a sibling of the test binary (the
    /// build products' directory) or of one of its enclosing directories (a macOS test bundle).
    static func executable() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["EXAMPLE_HTTP_SERVICE"] { return URL(fileURLWithPath: path) }
        var starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()]
        if let url = Bundle.main.executableURL { starts.append(url.resolvingSymlinksInPath()) }
        starts += Bundle.allBundles.map(\.bundleURL)
        var looked: [String] = []
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("example-http-service")
                looked.append(directory.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw Failure.executableNotFound(looked)
    }

    /// Starts the service with `environment` added to this process's, and returns once it
    /// listens (it says so in its log: `orders listening on 127.0.0.1:<port>`, and `metrics
    /// listening on 127.0.0.1:<port>`).
    static func start(environment: [String: String]) async throws -> ServiceProcess {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["0", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        let output = Output()
        let (lines, linesContinuation) = AsyncStream.makeStream(of: String.self)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                linesContinuation.finish()
                return
            }
            let text = String(decoding: data, as: UTF8.self)
            output.text.withLock { $0 += text }
            linesContinuation.yield(text)
        }
        let (exit, exitContinuation) = AsyncStream.makeStream(of: Exit.self)
        process.terminationHandler = { process in
            exitContinuation.yield(
                Exit(
                    bySignal: process.terminationReason == .uncaughtSignal, status: process.terminationStatus)
            )
            exitContinuation.finish()
            linesContinuation.finish()
        }
        try process.run()
        var seen = ""
        for await text in lines {
            seen += text
            if let port = listeningPort(in: seen), let metricsPort = listeningPort(in: seen, of: "metrics") {
                return ServiceProcess(
                    process: process, port: port, metricsPort: metricsPort, output: output, exit: exit)
            }
        }
        let ended = await exit.first { _ in true } ?? Exit(bySignal: false, status: -1)
        throw Failure.endedBeforeListening(ended, output: output.text.withLock { $0 })
    }

    /// The port in the log's `<server> listening on 127.0.0.1:<port>` line, once it is whole.
    static func listeningPort(in log: String, of server: String = "orders") -> Int? {
        guard let range = log.range(of: "\(server) listening on 127.0.0.1:") else { return nil }
        let digits = log[range.upperBound...].prefix { $0.isNumber }
        guard digits.endIndex < log.endIndex else { return nil }  // the line may not have ended
        return Int(digits)
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// How the child ended, once it has.
    func exited() async -> Exit? {
        await exit.first { _ in true }
    }
}
