import ResponderChain

/// One unit of the crash suite's work: its sequence number decides its ordering key
/// (`key-<seq % 4>`), and its effect is one row of the `effect` table.
struct Work: Event, Codable, Hashable {
    let seq: Int

    /// The ordering key the child posts it under.
    var key: EventSystem.OrderingKey { EventSystem.OrderingKey("key-\(seq % 4)") }
}
