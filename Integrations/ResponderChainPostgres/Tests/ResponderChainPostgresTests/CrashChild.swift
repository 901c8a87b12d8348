import Foundation
import ResponderChainTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a crash child executable (`postgres-crash-child`, `postgres-redrive-child`: built with the
/// tests) to its end, spawned with
/// `posix_spawn` and reaped with `waitpid` by this process alone, its output going through files
/// (never a pipe that could fill up).
struct CrashChild {
    let executable: URL

    /// The child beside the test bundle.
    init(named name: String = "postgres-crash-child") throws {
        executable = try CrashTakeOverTests.child(named: name)
    }

    /// Runs the child with `arguments` and returns how it ended and what it wrote.
    func run(_ arguments: [String]) async throws -> CrashSuite.Output {
        let stem = FileManager.default.temporaryDirectory.appending(
            path: "postgres-crash-child-\(UInt64.random(in: 0...UInt64.max))")
        let output = stem.appendingPathExtension("out")
        let errors = stem.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, nil, &argv, environ)
        guard spawned == 0 else { throw TestServer.ClusterFailed(message: "posix_spawn failed: \(spawned)") }
        let status = await Self.waitForExit(of: pid)
        let signal = status & 0x7f
        return CrashSuite.Output(
            ending: signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xff),
            standardOutput: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// The status `waitpid` reports for `pid`, waited for on a thread of its own (the wait
    /// blocks).
    private static func waitForExit(of pid: pid_t) async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
                continuation.resume(returning: status)
            }.start()
        }
    }
}
