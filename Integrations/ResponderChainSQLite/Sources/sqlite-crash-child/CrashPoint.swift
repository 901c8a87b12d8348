#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A place where the child kills itself with SIGKILL: each is a moment where a crash could lose
/// or double an accepted post if the store, the post office or the inbox were wrong.
enum CrashPoint: String, CaseIterable, Sendable {
    /// In the store's `store(_:)`, before the batch reaches SQLite: nothing of it is written and
    /// no `post` of it has returned.
    case beforeCommit
    /// After SQLite committed the batch, before the post office hears so: the posts are durable
    /// but no `post` of them has returned.
    case afterCommitBeforeReturn
    /// In the handler, before the inbox transaction: the effect is not applied.
    case insideHandler
    /// In the store's `finish(_:)`, before it writes: the effects are applied and marked in the
    /// inbox, the posts are not marked finished, so they are delivered again.
    case afterHandlerBeforeDone
    /// In the handler of a post the run recovered from the store (a redelivery).
    case duringRedelivery
}

/// Writes `reached <point>` to standard error with one `write(2)` (nothing buffered, so the line
/// is out before the process dies), then kills this process with SIGKILL.
func crash(at point: CrashPoint) -> Never {
    writeLine("reached \(point.rawValue)", to: 2)
    kill(getpid(), SIGKILL)
    while true { pause() }
}

/// Writes `line` and a newline to the file descriptor `descriptor` with one `write(2)`: a short
/// line reaches a pipe or a file whole, even if the process is killed right after.
func writeLine(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
