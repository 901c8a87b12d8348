import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `remote-chain-test-server` process (the backend of ``TwoProcessTests``), launched from the
/// directory the test bundle was built into, read line by line from its standard output.
///
/// ```swift
/// let backend = try await BackendProcess.launch()
/// defer { backend.kill() }
/// let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: backend.port)
/// …
/// _ = try await backend.line { $0 == "parked slow-1" }
/// await backend.killAndWait()
/// ```
final class BackendProcess {
    /// The port the server listens on.
    let port: Int
    private let process: Process
    /// Held for the process's lifetime: it was launched with `--exit-with-stdin`, so it ends
    /// when this pipe's writing end closes (this object is released, or the test process dies).
    private let input: Pipe
    /// The lines of its standard output, in order.
    private let lines: AsyncStream<String>
    /// Its exit status, once it has exited.
    private let exits: AsyncStream<Int32>

    /// What keeps a backend from starting.
    enum LaunchError: Error, CustomStringConvertible {
        case notBuilt(String)
        case noListeningLine(String?)
        case outputEnded

        var description: String {
            switch self {
            case .notBuilt(let path):
                "remote-chain-test-server is not built beside the tests (looked for \(path)); build it with "
                    + "`swift build --package-path Integrations/ResponderChainGRPC --product remote-chain-test-server` "
                    + "(with the same --scratch-path and configuration as the tests), or run the tests with plain "
                    + "`swift test`, which builds every target"
            case .noListeningLine(let line):
                "remote-chain-test-server did not say `listening <port>` (its first line: \(line ?? "none, it ended"))"
            case .outputEnded:
                "remote-chain-test-server's output ended before the line the test waited for"
            }
        }
    }

    /// The `remote-chain-test-server` executable beside the test bundle: SwiftPM builds every
    /// product of a package into the same directory.
    static var executable: URL {
        get throws {
            #if os(Linux)
                // The test runner is the test bundle itself (`…PackageTests.xctest`).
                let runner = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
                let directory = URL(fileURLWithPath: runner).deletingLastPathComponent()
            #else
                let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
                let directory = bundle.bundleURL.deletingLastPathComponent()
            #endif
            let executable = directory.appendingPathComponent("remote-chain-test-server")
            guard FileManager.default.isExecutableFile(atPath: executable.path) else {
                throw LaunchError.notBuilt(executable.path)
            }
            return executable
        }
    }

    /// Launches a backend on a port the system chooses and returns once it says it listens.
    /// `arguments` are added to its command line (`--send-to PORT` makes it a caller too).
    static func launch(arguments: [String] = []) async throws -> BackendProcess {
        let process = Process()
        process.executableURL = try executable
        process.arguments = ["--port", "0", "--exit-with-stdin"] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let (exits, exited) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exited.yield(process.terminationStatus)
            exited.finish()
        }
        let (lines, line) = AsyncStream.makeStream(of: String.self)
        let reading = output.fileHandleForReading
        Thread.detachNewThread {
            var buffer = Data()
            while case let chunk = reading.availableData, !chunk.isEmpty {
                buffer.append(chunk)
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    line.yield(String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self))
                    buffer.removeSubrange(buffer.startIndex...end)
                }
            }
            line.finish()
        }
        try process.run()

        var iterator = lines.makeAsyncIterator()
        let first = await iterator.next()
        guard let first, first.hasPrefix("listening "), let port = Int(first.dropFirst("listening ".count))
        else {
            signalKill(process.processIdentifier)
            throw LaunchError.noListeningLine(first)
        }
        return BackendProcess(port: port, process: process, input: input, lines: lines, exits: exits)
    }

    private init(
        port: Int, process: Process, input: Pipe, lines: AsyncStream<String>, exits: AsyncStream<Int32>
    ) {
        self.port = port
        self.process = process
        self.input = input
        self.lines = lines
        self.exits = exits
    }

    /// The next line of its output that satisfies `wanted` (skipping the others).
    ///
    /// - Throws: When its output ends first.
    @discardableResult
    func line(where wanted: (String) -> Bool) async throws -> String {
        for await line in lines where wanted(line) { return line }
        throw LaunchError.outputEnded
    }

    /// Freezes it (SIGSTOP): it keeps its sockets, and answers nothing.
    func freeze() {
        if process.isRunning { signal(process.processIdentifier, SIGSTOP) }
    }

    /// Kills it (SIGKILL) at once, if it still runs.
    func kill() {
        if process.isRunning { signalKill(process.processIdentifier) }
    }

    /// Kills it (SIGKILL) and returns once it has exited.
    func killAndWait() async {
        kill()
        for await _ in exits {}
    }
}

/// Sends SIGKILL to the process `pid`.
private func signalKill(_ pid: Int32) {
    signal(pid, SIGKILL)
}

private func signal(_ pid: Int32, _ signal: Int32) {
    #if canImport(Glibc)
        _ = Glibc.kill(pid, signal)
    #elseif canImport(Darwin)
        _ = Darwin.kill(pid, signal)
    #endif
}
