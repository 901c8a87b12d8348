// The old `handlesOneEventAtATime: Bool` must not compile into a reentrant responder. A type that
// declares it makes associated type inference pick `Bool` for `_HandlesOneEventAtATime` (its own
// declaration beats the default below, wherever it is declared: body, conforming extension, other
// extension, a refined protocol's extension), and `Bool`'s conformance to the marker protocol is
// unavailable: the compiler reports an error whose message names the replacement. A type that does
// not declare it gets `HandlingLock._NotDeclared` and the default below, which nothing calls (the hop reads only
// `handlingLock`), so this costs nothing at run time. A read of the old property as a `Bool` finds
// the unavailable overload, whose error offers the rename.

@available(
    *, unavailable,
    message:
        "'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it"
)
extension Bool: HandlingLock._Replacement {}

extension Responder {
    /// Replaced by `Responder.handlingLock`: a read of the old property as a `Bool` is an error
    /// with a fix-it. (Unavailable, so it never satisfies the requirement, and nothing can call
    /// it; its body says what the old property meant.)
    @available(*, unavailable, renamed: "handlingLock")
    public nonisolated var handlesOneEventAtATime: Bool { handlingLock != nil }
}

extension Responder where _HandlesOneEventAtATime == HandlingLock._NotDeclared {
    /// Replaced by `Responder.handlingLock`; nothing in the library reads it, and a read gets a
    /// deprecation warning and an empty value.
    @_documentation(visibility: internal)
    @available(*, deprecated, renamed: "handlingLock")
    public nonisolated var handlesOneEventAtATime: HandlingLock._NotDeclared { .init() }
}
