#if os(Linux)
    @testable import ResponderChain
    import Glibc
    import Testing

    /// What one queued plain post holds, counted in glibc's heap chunks: its entry inline in its
    /// lane's queue, its ticket and the ticket's cancellation signal. The queue's doubling growth
    /// adds up to one more entry per post; Docs/Benchmarks.md has the figure measured from outside.
    @Suite("Queued post footprint")
    struct QueuedPostFootprintTests {
        /// An event that fits in an existential's inline buffer, as the benchmark's does.
        struct Probe: Event {
            let a: Int
            let b: Int
            let c: Int
        }

        actor Sender: Responder {
            nonisolated let eventSystem: EventSystem
            init(system: EventSystem) { self.eventSystem = system }
            var next: (any Responder)? { nil }
        }

        /// The heap chunk glibc gives `object`: its usable size plus the chunk's 8-byte header.
        static func chunk(of object: AnyObject) throws -> Int {
            typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
            let symbol = try #require(dlsym(nil, "malloc_usable_size"))
            let usableSize = unsafeBitCast(symbol, to: UsableSize.self)
            return usableSize(Unmanaged.passUnretained(object).toOpaque()) + 8
        }

        @Test(
            "a queued plain post keeps 72 bytes inline in its queue, and an 80-byte ticket with a 32-byte signal on the heap"
        )
        func plainPostFootprint() async throws {
            let system = EventSystem()
            let sender = Sender(system: system)
            let ticket = await sender.post(Probe(a: 1, b: 2, c: 3))

            // The event (40), where delivery starts (16), the ticket (8), the rest if any (8).
            #expect(MemoryLayout<PendingPost?>.stride == 72)
            // Header (16), identifier (16: epoch and sequence), signal, system, lane and the
            // outcome's record, made late: 72 bytes, in an 80-byte chunk.
            let ticketChunk = try Self.chunk(of: ticket.state)
            #expect(ticketChunk == 80)
            #expect(try Self.chunk(of: ticket.state.signal) == 32)
            _ = await ticket.outcome
        }
    }
#endif
