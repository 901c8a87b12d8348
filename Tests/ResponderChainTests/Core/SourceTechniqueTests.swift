import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    /// The flows of the iOS techniques ResponderChain grew from (numbered M1–M8, M15 and M16 in Docs/Semantics.md), each
    /// rebuilt with the library's types.
    @Suite("Source techniques")
    struct SourceTechniqueTests {
        @Test("M1: an event sent from a nested view bubbles up to the controller that handles it")
        func bubblesToTheController() async throws {
            let journal = Journal()
            let delegate = Station(named: "AppDelegate", .handle, root: true, journal: journal)
            let controller = Station(named: "Controller", .handle, parent: delegate, journal: journal)
            let tableView = Station(named: "TableView", .pass, parent: controller, journal: journal)
            let cell = Station(named: "Cell", .pass, parent: tableView, journal: journal)
            let button = Station(named: "Button", .pass, parent: cell, journal: journal)

            let outcome = await button.send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.stoppedAt == ResponderID(controller))
            #expect(handled.hops == 4)
            #expect(journal.names == ["Button", "Cell", "TableView", "Controller"])
        }

        @Test("M2: a strategy table replaces an if/else chain over four event types")
        func strategyTable() async throws {
            let feed = FeedController()
            let cell = Station(named: "Cell", .pass, parent: feed)

            for event in [Like(post: 1), Share(post: 2), Comment(post: 3, text: "hi"), Follow(user: "ann")]
                as [any Event]
            {
                #expect(await cell.send(event).kind == .handled)
            }

            #expect(await feed.log == ["like 1", "share 2", "comment 3: hi", "follow ann"])
            #expect(FeedController.strategies.count == 4)
            #expect(FeedController.strategies.handles(Comment.self))
            #expect(!FeedController.strategies.handles(Ping.self))
        }

        @Test("M3: an event proxy beside the controller handles the controller's events")
        func eventProxyBesideTheController() async throws {
            let proxy = EventProxy(.handled)
            let controller = Controller(proxy: proxy, parent: RootSink())
            let view = Station(named: "View", .pass, parent: controller)

            let outcome = await view.send(Knock())

            #expect(outcome.handledDetails?.stoppedAt == ResponderID(controller))
            #expect(await proxy.seen == ["Knock"])
        }

        @Test("M4: stopTransferIfEventHandled — a handler decides whether a handled event goes on")
        func stopOrContinue() async throws {
            let delegate = RootSink(.handled)
            let controller = Gatekeeper(parent: delegate)
            let view = Station(named: "View", .pass, parent: controller)

            let stopped = await view.send(Purchase(stopTransferIfHandled: true))
            let continued = await view.send(Purchase(stopTransferIfHandled: false))

            #expect(stopped.handlers == [ResponderID(controller)])
            #expect(stopped.handledDetails?.stoppedAt == ResponderID(controller))
            #expect(continued.handlers == [ResponderID(controller), ResponderID(delegate)])
            #expect(await delegate.seen == ["Purchase"])
        }

        @Test("M5: insertInfo — several hops add typed parameters the controller reads")
        func insertInfo() async throws {
            let controller = Inbox()
            let section = Decorator<SectionNumber>(value: 2, parent: controller)
            let cell = Decorator<RowNumber>(value: 7, parent: section)

            let outcome = await cell.send(Ping())

            #expect(await controller.received == ["section 2, row 7"])
            #expect(outcome.info[RowNumber.self] == 7)
            #expect(outcome.info[SectionNumber.self] == 2)
        }

        @Test("M6: a handler knows the event's sender and, for a dynamic event, its name")
        func senderAndName() async throws {
            let controller = Inbox()
            let cell = Station(named: "Cell", .pass, parent: controller)

            await cell.send(.openProfile, payload: "ann")

            #expect(await controller.senders == [ResponderID(cell)])
            #expect(await controller.received == ["openProfile ann from Cell"])
        }

        @Test("M7: the app delegate at the root sees every event that is not stopped below it")
        func appDelegateSeesEverything() async throws {
            let deadLetters = DeadLetterRecorder()
            let delegate = RootSink(.handled)
            let controller = Controller(proxy: EventProxy(.handledAndContinue), parent: delegate)
            let view = Station(named: "View", .pass, parent: controller)

            await view.send(Knock())  // the proxy handles it and lets it continue
            await view.send(Ping())  // the controller stops it
            await view.send(.openProfile, payload: "ann")  // nobody below handles it
            let silentRoot = Station(named: "Quiet", .pass, root: true)
            let unreported = await silentRoot.send(
                Ping(), options: SendOptions(deadLetters: deadLetters.sink))

            #expect(await delegate.seen == ["Knock", "openProfile"])
            #expect(unreported.kind == .unhandled)
            #expect(deadLetters.outcomes.map(\.kind) == [.unhandled])
        }

        @Test(
            "M8: a missing handler fails clearly — a typed event passes, a dynamic one reports a typed error")
        func missingHandler() async throws {
            let deadLetters = DeadLetterRecorder()
            let cart = Cart(parent: Station(named: "App", .pass, root: true))

            let typed = await cart.send(Knock(), options: SendOptions(deadLetters: deadLetters.sink))
            let dynamic = await cart.send(.addToCart, payload: 3.5)

            #expect(typed.kind == .unhandled)
            #expect(deadLetters.count == 1)
            let mismatch = try #require(dynamic.failedError(as: ResponderChainError.self))
            #expect(mismatch.code == .payloadTypeMismatch)
            #expect(mismatch.message.contains("of type Double, but its handler expects String"))
            #expect(dynamic.failedDetails?.responder == ResponderID(cart))
        }

        @Test(
            "M15: a view added straight to a detached window skips the controller and is interrupted where it broke"
        )
        func viewAddedStraightToTheWindow() async throws {
            let deadLetters = DeadLetterRecorder()
            let app = Station(named: "Application", .pass, root: true)
            let window = Station(named: "Window", .pass, parent: app)
            let controller = Station(named: "Controller", .handle, parent: window)
            let popup = Station(named: "Popup", .pass, parent: window)  // added to the window, not the controller
            let button = Station(named: "Button", .pass, parent: popup, system: deadLetters.system)

            let attached = await button.send(Ping())
            await window.link(to: nil)  // the window is closed
            let detached = await button.send(Ping())

            #expect(attached.kind == .unhandled)
            let interrupted = try #require(detached.interruptedDetails)
            #expect(interrupted.lastReached == ResponderID(window))
            #expect(interrupted.hops == 3)
            #expect(await controller.sightings.isEmpty)
            #expect(deadLetters.outcomes.map(\.kind) == [.unhandled, .interrupted])
        }

        @Test("M16: an off-chain producer injects its events through a relay at a chosen responder")
        func offChainProducer() async throws {
            let session = Inbox()
            let monitor = NetworkMonitor(relay: Relay(entry: session, label: "NetworkMonitor"))

            let outcome = await monitor.connectionDropped()

            #expect(outcome.handledDetails?.stoppedAt == ResponderID(session))
            #expect(await session.received == ["connection lost from relay(NetworkMonitor)"])
            #expect(await session.senders.isEmpty)
        }
    }
}

// MARK: - Fixtures for the source techniques

private struct Like: Event { let post: Int }
private struct Share: Event { let post: Int }
private struct Comment: Event {
    let post: Int
    let text: String
}
private struct Follow: Event { let user: String }

/// M2: one table entry per event type instead of `if name == … else if …`.
private actor FeedController: Responder {
    private(set) var log: [String] = []
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    /// Logs what a handler did with its event, and handles it.
    private func handled(_ line: String) -> Disposition {
        log.append(line)
        return .handled
    }

    static let strategies = Strategies<FeedController> {
        $0.on(Like.self) { feed, like, _ in feed.handled("like \(like.post)") }
        $0.on(Share.self) { feed, share, _ in feed.handled("share \(share.post)") }
        $0.on(Comment.self) { feed, comment, _ in feed.handled("comment \(comment.post): \(comment.text)") }
        $0.on(Follow.self) { feed, follow, _ in feed.handled("follow \(follow.user)") }
    }
}

private struct Purchase: Event { let stopTransferIfHandled: Bool }

/// M4: handles every purchase; the event says whether it goes on.
private actor Gatekeeper: Responder {
    let parent: any Responder
    init(parent: any Responder) { self.parent = parent }
    var next: (any Responder)? { parent }

    static let strategies = Strategies<Gatekeeper> {
        $0.on(Purchase.self) { _, purchase, _ in
            purchase.stopTransferIfHandled ? .handled : .handledAndContinue
        }
    }
}

private enum RowNumber: InfoKey { typealias Value = Int }
private enum SectionNumber: InfoKey { typealias Value = Int }

/// M5: a hop that inserts one typed parameter and passes.
private actor Decorator<Key: InfoKey>: Responder {
    let value: Key.Value
    let parent: any Responder
    init(value: Key.Value, parent: any Responder) {
        self.value = value
        self.parent = parent
    }
    var next: (any Responder)? { parent }

    static var strategies: Strategies<Decorator> {
        Strategies {
            $0.on(Ping.self) { decorator, _, context in
                context.info[Key.self] = decorator.value
                return .pass
            }
        }
    }
}

extension NamedEvent.Name {
    fileprivate static let openProfile: NamedEvent.Name = "openProfile"
}

private struct ConnectionLost: Event {}

/// M5, M6, M16: a controller (or session) that reads what arrives.
private actor Inbox: Responder {
    private(set) var received: [String] = []
    private(set) var senders: [ResponderID] = []
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Inbox> {
        $0.on(Ping.self) { inbox, _, context in
            let section = context.info[SectionNumber.self].map(String.init) ?? "?"
            let row = context.info[RowNumber.self].map(String.init) ?? "?"
            inbox.received.append("section \(section), row \(row)")
            return .handled
        }
        $0.on(.openProfile, payload: String.self) { inbox, user, context in
            inbox.senders += context.source.responderID.map { [$0] } ?? []
            inbox.received.append("\(NamedEvent.Name.openProfile) \(user) from \(context.source)")
            return .handled
        }
        $0.on(ConnectionLost.self) { inbox, _, context in
            inbox.senders += context.source.responderID.map { [$0] } ?? []
            inbox.received.append("connection lost from \(context.source)")
            return .handled
        }
    }
}

/// M16: not a responder; it reaches the chain only through its relay.
private struct NetworkMonitor {
    let relay: Relay
    func connectionDropped() async -> Outcome { await relay.send(ConnectionLost()) }
}
