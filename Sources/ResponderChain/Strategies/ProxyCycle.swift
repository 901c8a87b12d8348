/// The error in a ``Outcome/failed(_:)`` outcome when a table's proxy leads back, through proxies,
/// to a responder whose table is already being run at this hop (`A` delegates to `B`, which
/// delegates to `A`). Without this check the hop would recurse until the stack overflows.
///
/// ```swift
/// if case .failed(let failure) = outcome, let cycle = failure.error as? ProxyCycle {
///     print(cycle)   // proxy Editor leads back to a table already running at this hop
/// }
/// ```
public struct ProxyCycle: Error, Sendable, Equatable, CustomStringConvertible {
    /// The proxy reached a second time.
    public let proxy: ResponderID

    /// A readable explanation.
    public var description: String {
        "proxy \(proxy.label) leads back to a table already running at this hop"
    }
}
