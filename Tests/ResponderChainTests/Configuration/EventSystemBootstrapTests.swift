import ResponderChain
import Testing

/// The rules of `EventSystem.bootstrap`, on slots of their own: the process-wide slot can be set
/// once, and this test process never sets it.
@Suite("Bootstrapping the process-wide event system")
struct EventSystemBootstrapTests {
    @Test("a system bootstrapped before any use becomes the default, and stays it")
    func bootstrapBeforeUse() throws {
        let slot = DefaultEventSystem()
        let configured = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 7))

        try slot.bootstrap(configured)

        #expect(slot.current === configured)
        #expect(slot.current === slot.current)
    }

    @Test("a second bootstrap is refused as already bootstrapped, and the first system stays")
    func secondBootstrap() throws {
        let slot = DefaultEventSystem()
        let first = EventSystem()
        try slot.bootstrap(first)

        #expect(throws: EventSystem.BootstrapError.alreadyBootstrapped) {
            try slot.bootstrap(EventSystem())
        }
        #expect(slot.current === first)
    }

    @Test("a bootstrap after the default was used is refused as too late, and the default in use stays")
    func lateBootstrap() {
        let slot = DefaultEventSystem()
        let inUse = slot.current

        #expect(throws: EventSystem.BootstrapError.defaultAlreadyInUse) {
            try slot.bootstrap(EventSystem())
        }
        #expect(slot.current === inUse)
        #expect(inUse.tracer == nil && inUse.deadLetters == nil)
    }

    @Test("of bootstraps and reads racing on an empty slot, one system wins and everyone sees it")
    func racingBootstraps() async {
        let slot = DefaultEventSystem()
        let candidates = (0..<8).map { _ in EventSystem() }

        let results = await withTaskGroup(of: (won: Bool, seen: ObjectIdentifier).self) { group in
            for (index, candidate) in candidates.enumerated() {
                group.addTask {
                    if index.isMultiple(of: 4) { return (false, ObjectIdentifier(slot.current)) }
                    let won = (try? slot.bootstrap(candidate)) != nil
                    return (won, ObjectIdentifier(slot.current))
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(results.filter(\.won).count <= 1)
        #expect(Set(results.map(\.seen)).count == 1)
        #expect(results.allSatisfy { $0.seen == ObjectIdentifier(slot.current) })
    }

    @Test("each refusal says what went wrong and what to do")
    func errorDescriptions() {
        #expect(EventSystem.BootstrapError.alreadyBootstrapped.description.contains("once"))
        #expect(EventSystem.BootstrapError.defaultAlreadyInUse.description.contains("before sending"))
    }
}
