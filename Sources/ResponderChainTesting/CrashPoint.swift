/// A place where a crash suite's child process kills itself with SIGKILL: each is a moment where
/// a crash could lose or double an accepted post if the store, the post office or the inbox were
/// wrong.
///
/// The store's points are passed by a ``CrashingPostStore`` around the wrapped store's calls,
/// the handler's by the child's handler (``CrashTrigger/passHandler(of:)``): a store needs no
/// hook of its own. ``CrashSuite`` describes the suite that kills a child at each of them.
public enum CrashPoint: String, CaseIterable, Sendable {
    /// In the store's `store(_:)`, before the batch reaches the database: nothing of it is
    /// written and no `post` of it has returned.
    case beforeCommit
    /// After the database committed the batch, before the post office hears so: the posts are
    /// durable but no `post` of them has returned.
    case afterCommitBeforeReturn
    /// In the handler, before the inbox transaction: the effect is not applied.
    case insideHandler
    /// In the store's `finish(_:)`, before it writes: the effects are applied and marked in the
    /// inbox, the posts are not marked finished, so they are delivered again.
    case afterHandlerBeforeDone
    /// In the handler of a post that an earlier run left unfinished (a redelivery).
    case duringRedelivery
}
