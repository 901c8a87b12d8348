#if RemoteAndStores
    import ResponderChain

    /// The event the stored-posts scenario posts: an order with about 100 bytes of JSON, the size
    /// `sqlite-store-measure` writes.
    struct StoredOrder: Event, Codable {
        var number: Int
        var note: String

        /// An order with the scenario's note.
        init(number: Int) {
            self.number = number
            self.note = Self.note
        }

        /// About 80 bytes, so that an order encodes to about 100 bytes of JSON.
        static let note = String(repeating: "n", count: 80)
    }
#endif
