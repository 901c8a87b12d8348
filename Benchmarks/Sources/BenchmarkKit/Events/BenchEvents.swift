import ResponderChain

/// The event every chain scenario sends: a 24-byte value (it fits an existential's inline buffer,
/// so neither the library nor the baselines box it). Every responder has a handler for it; only
/// the top one says it is handled.
struct Probe: Event {
    var a: Int
    var b: Int
    var c: Int
}

/// Three other events every table also holds, so that a lookup scans a realistic 4-entry table
/// (``Probe`` is registered last, in the library's table and in the baselines').
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
