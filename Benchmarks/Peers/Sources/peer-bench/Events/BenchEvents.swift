import ResponderChain

/// The event every side sends: a 24-byte value (it fits an existential's inline buffer, so neither
/// the library, a `NIOAny` nor an `any Event` boxes it). Every stage on every side has a handler for
/// it; only the top one consumes it. The same type as responder-bench's.
struct Probe: Event {
    var a: Int
    var b: Int
    var c: Int
}

/// One of three other events every table also holds, so that a lookup scans a realistic 4-entry
/// table (``Probe`` is registered last, in the library's table and in the peers').
struct DecoyA: Event {
    var a: Int
    var b: Int
    var c: Int
}

/// See ``DecoyA``.
struct DecoyB: Event {
    var a: Int
    var b: Int
    var c: Int
}

/// See ``DecoyA``.
struct DecoyC: Event {
    var a: Int
    var b: Int
    var c: Int
}
