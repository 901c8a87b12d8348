import Testing

/// The parent of the core behaviour suites (Tests/ResponderChainTests/Core/).
///
/// Serialized: each core test is a few microseconds of work, so running them one at a time costs
/// nothing measurable and keeps them from crowding the cooperative pool that timing-sensitive
/// suites beside them (deadlines, tracing) run on.
@Suite("Core behaviour", .serialized)
enum CoreSuites {}
