#if os(Linux)
    @testable import ResponderChain
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

        /// The bytes Swift asks the allocator for when it makes an instance of `object`'s class:
        /// the class metadata's instance size (Swift's stable class-metadata layout without
        /// Objective-C interop: kind, superclass, flags, instance address point, then the size).
        ///
        /// Read from the metadata, not from `malloc_usable_size`: glibc may hand a request a
        /// larger free chunk when what would be left over is too small to split off, so the
        /// chunk an object lands in depends on the heap's history.
        static func instanceSize(of object: AnyObject) -> Int {
            let metadata = unsafeBitCast(type(of: object), to: UnsafeRawPointer.self)
            return Int(metadata.load(fromByteOffset: 24, as: UInt32.self))
        }

        /// The chunk glibc's `malloc` carves for a request of `size` bytes on a 64-bit machine:
        /// the size plus the chunk's 8-byte header, rounded up to 16, and never under 32.
        static func chunk(forRequest size: Int) -> Int {
            max(32, (size + 8 + 15) & ~15)
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
            // Header (16), identifier (16: epoch and sequence), signal, system, the outcome's
            // record (made late), and the lane last (9: a sender's, or a key's boxed name):
            // 65 bytes, in an 80-byte chunk.
            let ticketSize = Self.instanceSize(of: ticket.state)
            #expect(ticketSize == 65)
            #expect(Self.chunk(forRequest: ticketSize) == 80)
            let signalSize = Self.instanceSize(of: ticket.state.signal)
            #expect(Self.chunk(forRequest: signalSize) == 32)
            _ = await ticket.outcome
        }
    }
#endif
