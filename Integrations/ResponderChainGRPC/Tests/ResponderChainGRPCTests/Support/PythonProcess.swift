import Foundation

/// A program of the package's `Interop/` folder (a client and a server of the RemoteChain service
/// written in Python from the .proto alone), run with `python3` (or `$RESPONDERCHAIN_PYTHON`),
/// which needs grpcio and grpcio-tools (`.ci/run` installs them).
///
/// ```swift
/// let reply = try await PythonProcess.output(of: "client.py", ["handled", "--port", "\(port)"])
/// let server = try await PythonProcess.launch("server.py")
/// defer { server.kill() }
/// ```
final class PythonProcess {
    /// The port it said it listens on (`listening <port>`, its first line).
    let port: Int
    private let process: Process
    /// Held for the process's lifetime: the server ends when this pipe's writing end closes.
    private let input: Pipe

    /// What went wrong with a Python program.
    enum Failure: Error, CustomStringConvertible {
        case exited(String, Int32, stderr: String)
        case noListeningLine(String)

        var description: String {
            switch self {
            case .exited(let script, let status, let stderr):
                "python3 \(script) exited with status \(status) (status 3: grpcio or grpcio-tools is missing: "
                    + "python3 -m pip install grpcio grpcio-tools protobuf); its standard error: \(stderr)"
            case .noListeningLine(let line):
                "the Python server did not say `listening <port>` (it said \"\(line)\"; its standard error is the "
                    + "tests'; status 3: python3 -m pip install grpcio grpcio-tools protobuf)"
            }
        }
    }

    /// The folder of the Python programs: `Interop/` beside `Tests/` in the package.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ResponderChainGRPCTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()
        .appendingPathComponent("Interop")

    private static func process(_ script: String, _ arguments: [String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var environment = ProcessInfo.processInfo.environment
        let python = environment["RESPONDERCHAIN_PYTHON"] ?? "python3"
        process.arguments = [python, folder.appendingPathComponent(script).path] + arguments
        process.currentDirectoryURL = folder
        environment["PYTHONDONTWRITEBYTECODE"] = "1"  // no __pycache__ in the source tree
        process.environment = environment
        return process
    }

    /// Runs `script` to its end and returns its standard output.
    ///
    /// - Throws: ``Failure/exited(_:_:stderr:)`` when it exits with a status other than 0.
    static func output(of script: String, _ arguments: [String]) async throws -> String {
        let process = process(script, arguments)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        async let written = read(output.fileHandleForReading)
        async let said = read(errors.fileHandleForReading)
        let (stdout, stderr) = await (written, said)
        process.waitUntilExit()  // its output has ended: it has exited, or is about to
        guard process.terminationStatus == 0 else {
            throw Failure.exited(script, process.terminationStatus, stderr: stderr)
        }
        return stdout
    }

    /// Launches `script` and returns once it says `listening <port>`. Its standard error is the
    /// tests'.
    static func launch(_ script: String, _ arguments: [String] = []) async throws -> PythonProcess {
        let process = process(script, arguments)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let reading = output.fileHandleForReading
        let first = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread.detachNewThread {
                var line = Data()
                while case let byte = reading.readData(ofLength: 1), let character = byte.first,
                    character != UInt8(ascii: "\n")
                {
                    line.append(character)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }
        }
        guard first.hasPrefix("listening "), let port = Int(first.dropFirst("listening ".count)) else {
            process.terminate()
            throw Failure.noListeningLine(first)
        }
        return PythonProcess(port: port, process: process, input: input)
    }

    private init(port: Int, process: Process, input: Pipe) {
        self.port = port
        self.process = process
        self.input = input
    }

    /// Ends it (SIGTERM), if it still runs.
    func kill() {
        if process.isRunning { process.terminate() }
    }

    /// Everything `handle` gives until its end, read on a thread of its own.
    private static func read(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(returning: String(decoding: handle.readDataToEndOfFile(), as: UTF8.self))
            }
        }
    }
}
