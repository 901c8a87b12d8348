import Foundation

/// The backend, started as a child process: this program again, with `backend` on its command
/// line.
struct BackendProcess {
    let process: Process
    let output: Pipe
    let port: Int
    var pid: Int32 { process.processIdentifier }

    /// Starts the backend and waits for its `listening <port>` line.
    static func launch() throws -> BackendProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments = ["backend"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        guard let line = readLine(from: output.fileHandleForReading),
            line.hasPrefix("listening "), let port = Int(line.dropFirst("listening ".count))
        else {
            process.terminate()
            throw DemoError("the backend did not say where it listens")
        }
        return BackendProcess(process: process, output: output, port: port)
    }

    /// Asks the backend to stop (SIGTERM: its graceful shutdown), waits for it to exit, and
    /// returns what it printed meanwhile.
    func stop() throws -> [String] {
        process.terminate()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DemoError("the backend exited with status \(process.terminationStatus)")
        }
        return String(decoding: rest, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// This program's own path.
    private static func executablePath() -> String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return path
            }
        #endif
        return CommandLine.arguments[0]
    }

    /// One line from `handle`, read a byte at a time so that nothing after it is consumed.
    private static func readLine(from handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while let byte = try? handle.read(upToCount: 1)?.first {
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }
}

/// Why the demo could not go on.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
