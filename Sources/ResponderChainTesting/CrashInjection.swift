#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a crash suite's child process reports and kills itself: with one `write(2)` per line
/// (nothing buffered, so a line is out before the process dies) and SIGKILL (no handler, no
/// flush, no `deinit` runs: what the database holds is what a crash leaves).
///
/// ```swift
/// CrashInjection.writeLine("accepted \(seq) \(ticket.eventID.debugDescription)", to: 1)
/// CrashInjection.crash(at: .insideHandler)  // writes `reached insideHandler` to standard error
/// ```
public enum CrashInjection {
    /// Writes `reached <point>` to standard error, then kills this process with SIGKILL.
    public static func crash(at point: CrashPoint) -> Never {
        writeLine("reached \(point.rawValue)", to: 2)
        kill(getpid(), SIGKILL)
        while true { pause() }
    }

    /// Writes `line` and a newline to the file descriptor `descriptor` with one `write(2)`: a
    /// short line reaches a pipe or a file whole, even if the process is killed right after.
    public static func writeLine(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
