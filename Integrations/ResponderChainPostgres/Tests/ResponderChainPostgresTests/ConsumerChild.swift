import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `postgres-consumer-child` process, spawned with `posix_spawn` so that this test process
/// alone reaps it (`waitpid`): a test sees how it ended, or that it stopped.
final class ConsumerChild: @unchecked Sendable {
    let name: String
    let pid: pid_t
    private let output: URL
    private let errors: URL
    private let input: Int32
    private var reaped = false

    /// Starts a consumer named `name` on `database` of `server` (the tests' server by default),
    /// with leases of `lease`; a `gated` one waits for a line on its standard input
    /// (``proceed()``) at the start of each handler.
    init(
        name: String, database: String, lease: Duration, gated: Bool = false,
        server: TestServer.Location? = nil
    ) async throws {
        self.name = name
        let location: TestServer.Location
        if let server { location = server } else { location = try await TestServer.location }
        let executable = try CrashTakeOverTests.child(named: "postgres-consumer-child")
        let folder = FileManager.default.temporaryDirectory
        let stem = "postgres-consumer-child-\(name)-\(UInt64.random(in: 0...UInt64.max))"
        output = folder.appending(path: stem + ".out")
        errors = folder.appending(path: stem + ".err")
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw TestServer.ClusterFailed(message: "pipe failed") }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        input = descriptors[1]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, descriptors[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments =
            [
                executable.path, location.host, "\(location.port)", location.username, database,
                "\(lease.milliseconds)", name,
            ] + (gated ? ["gated"] : [])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, nil, &argv, environ)
        close(descriptors[0])
        guard status == 0 else {
            close(descriptors[1])
            throw TestServer.ClusterFailed(message: "posix_spawn failed: \(status)")
        }
        self.pid = pid
    }

    /// The lines the child printed so far.
    var lines: [String] {
        ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// What the child logged (for a failure's message).
    var logged: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    /// Waits until the child consumes.
    func waitUntilConsuming() async throws {
        try await eventually("\(name) to consume") { lines.contains("consuming") ? true : nil }
    }

    /// Lets a gated child's waiting handler go on (the line waits in the pipe if it is stopped).
    func proceed() {
        let line = Array("go\n".utf8)
        _ = line.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Sends `signal`.
    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// SIGKILLs the child and returns the signal that ended it, as `waitpid` reports it.
    func killAndReap() -> Int32? {
        kill(pid, SIGKILL)
        return reap()
    }

    /// Waits for the child to end; the signal that ended it, `nil` if it exited.
    func reap() -> Int32? {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        reaped = true
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f ? signal : nil
    }

    /// SIGSTOPs the child and returns the signal that stopped it, as `waitpid` reports it.
    func stopAndConfirm() -> Int32? {
        kill(pid, SIGSTOP)
        var status: Int32 = 0
        while waitpid(pid, &status, WUNTRACED) == -1 && errno == EINTR {}
        guard status & 0xff == 0x7f else { return nil }
        return (status >> 8) & 0xff
    }

    /// The child's state letter in /proc (`T` while stopped).
    var processState: String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(input)
        try? FileManager.default.removeItem(at: output)
        try? FileManager.default.removeItem(at: errors)
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
