import ResponderChainTesting
import ResponderUI
import Testing

private typealias Ping = UIFixtures.Ping
private typealias Share = UIFixtures.Share
private typealias RecordingView = UIFixtures.RecordingView

extension NamedEvent.Name {
    fileprivate static let rename: NamedEvent.Name = "rename"
}

/// A cell with state its handlers read, to check that they get it typed as `Cell`.
@MainActor
private final class Cell: View {
    var row = 0
    var renamed: [String] = []
}

/// A view outside every chain, used as another view's proxy: only its handlers run.
@MainActor
private final class ProxyView: View {
    var seen: [String] = []
}

@Suite("Handlers on interface responders")
@MainActor
struct HandlerRegistrarTests {
    @Test("a handler gets the responder typed as the class it was registered on")
    func typedOwner() async throws {
        let scene = UIFixtures.Scene()
        let cell = Cell(label: "cell")
        cell.row = 3
        scene.controller.view.addSubview(cell)
        cell.strategies.on(Ping.self) { cell, ping, context in
            cell.renamed.append("row \(cell.row) \(ping.tag)")
            return .handled
        }

        let outcome = await cell.send(Ping(tag: "a"), options: scene.options)

        #expect(try #require(outcome.handledDetails).stoppedAt == ResponderID(cell))
        #expect(cell.renamed == ["row 3 a"])
        #expect(cell.strategies.count == 1)
        #expect(!cell.strategies.isEmpty)
        #expect(View().strategies.isEmpty)
    }

    @Test("removing a handler by type lets that event pass on; the other handlers stay")
    func removalByType() async throws {
        let scene = UIFixtures.Scene()
        let view = scene.add(View(label: "view"))
        view.strategies.on(Ping.self) { _, _, _ in .handled }
        view.strategies.on(Share.self) { _, _, _ in .handled }

        view.strategies.remove(Ping.self)

        #expect(!view.strategies.handles(Ping.self))
        #expect(view.strategies.handles(Share.self))
        #expect(view.strategies.count == 1)
        let ping = await view.send(Ping(), options: scene.options)
        #expect(try #require(ping.unhandledDetails).root == ResponderID(scene.delegate))
        let share = await view.send(Share(), options: scene.options)
        #expect(try #require(share.handledDetails).stoppedAt == ResponderID(view))
        view.strategies.remove(Ping.self)  // removing what is not there does nothing
        #expect(view.strategies.count == 1)
    }

    @Test("removal keeps a large table's lookup right: entries before and after the removed one still run")
    func removalFromALargeTable() async throws {
        let view = View(label: "view")
        for tag in 0..<12 {
            view.strategies.on(.init("event \(tag)"), payload: Int.self) { _, _, context in
                context.info[Tag.self] = tag  // which handler ran
                return .handled
            }
        }
        view.strategies.remove(NamedEvent.Name("event 3"))

        #expect(view.strategies.count == 11)
        #expect(!view.strategies.handles(NamedEvent.Name("event 3")))
        for tag in [0, 2, 4, 10, 11] {
            let outcome = await view.send(NamedEvent.Name("event \(tag)"), payload: 0)
            #expect(try #require(outcome.handledDetails).info[Tag.self] == tag)
        }
        #expect(await view.send(NamedEvent.Name("event 3"), payload: 0).kind == .interrupted)
    }

    @Test(
        "a named event reaches the handler registered for its name with its payload typed; removed by name, it passes"
    )
    func namedEvents() async throws {
        let scene = UIFixtures.Scene()
        let cell = scene.add(Cell(label: "cell"))
        cell.strategies.on(.rename, payload: String.self) { cell, name, _ in
            cell.renamed.append(name)
            return .handled
        }

        let renamed = await cell.send(.rename, payload: "Socks", options: scene.options)
        #expect(try #require(renamed.handledDetails).stoppedAt == ResponderID(cell))
        #expect(cell.renamed == ["Socks"])

        let wrongPayload = await cell.send(.rename, payload: 42, options: scene.options)
        let mismatch = try #require(wrongPayload.failedError(as: ResponderChainError.self))
        #expect(mismatch.code == .payloadTypeMismatch)
        #expect(mismatch.message.hasSuffix("its handler expects String"))

        #expect(cell.strategies.handles(.rename))
        cell.strategies.remove(.rename)
        #expect(!cell.strategies.handles(.rename))
        let passed = await cell.send(.rename, payload: "Hats", options: scene.options)
        #expect(passed.kind == .unhandled)
        #expect(cell.renamed == ["Socks"])
    }

    @Test(
        "the catch-all sees what no entry handles, before the pointer and key methods; removed, they run again"
    )
    func catchAll() async throws {
        let (scene, view) = Self.keyHandlingScene()
        view.strategies.on(Ping.self) { view, _, _ in
            view.log.append("entry Ping")
            return .handled
        }
        view.strategies.onAnyEvent { view, event, _ in
            view.log.append("catch-all \(event.traceName)")
            return event is KeyEvent ? .pass : .handled
        }

        await view.send(Ping(), options: scene.options)
        let share = await view.send(Share(), options: scene.options)
        await view.send(KeyEvent("a"), options: scene.options)
        let tap = await scene.window.tap(at: Point(x: 10, y: 10))

        #expect(try #require(share.handledDetails).stoppedAt == ResponderID(view))
        #expect(
            view.log == [
                "entry Ping", "catch-all Share", "catch-all KeyEvent.down", "keyDown a",
                "catch-all PointerEvent.began", "catch-all PointerEvent.ended",
            ])
        #expect(tap?.outcome.handlers == [ResponderID(view)])

        view.log.removeAll()
        view.strategies.removeAnyEventHandler()
        let unclaimed = await view.send(Share(), options: scene.options)
        await scene.window.tap(at: Point(x: 10, y: 10))
        #expect(unclaimed.kind == .unhandled)
        #expect(view.log == ["began 0", "ended 0"])
    }

    @Test(
        "one way in: the pointer and key methods are the class table's entries, below the instance's own table"
    )
    func oneWayIn() async throws {
        // The class's table, the core's type-level `strategies`, holds the methods' entries.
        #expect(View.strategies.handles(PointerEvent.self))
        #expect(View.strategies.handles(KeyEvent.self))
        #expect(!View.strategies.handles(Ping.self))

        let (scene, view) = Self.keyHandlingScene()
        // The instance's entry for KeyEvent runs first; passing, the class's entry (keyDown) runs.
        view.strategies.on(KeyEvent.self) { view, key, _ in
            view.log.append("own \(key.key)")
            return key.key == "x" ? .handled : .pass
        }

        let passed = await view.send(KeyEvent("a"), options: scene.options)
        let stopped = await view.send(KeyEvent("x"), options: scene.options)

        #expect(view.log == ["own a", "keyDown a", "own x"])
        #expect(try #require(passed.handledDetails).stoppedAt == ResponderID(view))
        #expect(try #require(stopped.handledDetails).stoppedAt == ResponderID(view))
    }

    @Test("a view's own table is the core's instance table, read from any isolation")
    func instanceTableIsTheCores() async throws {
        let view = View(label: "view")
        view.strategies.on(Ping.self) { _, _, _ in .handled }

        // `Responder.strategies`, read off the main actor as the core may read it.
        let handles = await Task.detached { () -> Bool in
            let responder: any Responder = view
            return Self.handlesPing(responder)
        }.value

        #expect(handles)
        view.strategies.remove(Ping.self)
        #expect(!Self.handlesPing(view))
    }

    /// A scene whose controller's view holds one recording view, labelled `view`, at 0…100 ×
    /// 0…100, whose `keyDown` handles every key.
    private static func keyHandlingScene() -> (UIFixtures.Scene, RecordingView) {
        let scene = UIFixtures.Scene()
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "view")
        view.keyDisposition = .handled
        scene.controller.view.addSubview(view)
        return (scene, view)
    }

    /// Whether `responder`'s instance table has an entry for ``Ping``, read nonisolated.
    private nonisolated static func handlesPing(_ responder: some Responder) -> Bool {
        responder.strategies.handles(Ping.self)
    }

    @Test(
        "a proxy beside a view handles what the view's entries lack; when it passes the catch-all runs; its next is never used"
    )
    func proxy() async throws {
        let scene = UIFixtures.Scene()
        let view = scene.add(RecordingView(label: "view"))
        let proxy = ProxyView(label: "proxy")
        proxy.strategies.on(Share.self) { proxy, _, _ in
            proxy.seen.append("Share")
            return .handled
        }
        proxy.strategies.onAnyEvent { proxy, event, _ in
            proxy.seen.append("passed \(event.traceName)")
            return .pass
        }
        let outside = View(label: "outside")
        outside.addSubview(proxy)  // the proxy has a `next`, which must not be followed
        view.strategies.on(Ping.self) { view, _, _ in
            view.log.append("entry Ping")
            return .handled
        }
        view.strategies.proxy { _ in proxy }
        view.strategies.onAnyEvent { view, event, _ in
            view.log.append("catch-all \(event.traceName)")
            return .pass
        }

        let ping = await view.send(Ping(), options: scene.options)
        let share = await view.send(Share(), options: scene.options)
        let copy = await view.send(UIFixtures.Copy(), options: scene.options)

        #expect(try #require(ping.handledDetails).stoppedAt == ResponderID(view))
        #expect(try #require(share.handledDetails).handlers == [ResponderID(view)])
        #expect(copy.kind == .unhandled)
        #expect(view.log == ["entry Ping", "catch-all Copy"])
        #expect(proxy.seen == ["Share", "passed Copy"])
        #expect(scene.recorder.labels.filter { $0 == "outside" || $0 == "proxy" }.isEmpty)

        view.strategies.removeProxy()
        let unproxied = await view.send(Share(), options: scene.options)
        #expect(unproxied.kind == .unhandled)
        #expect(proxy.seen == ["Share", "passed Copy"])
    }

    @Test("a controller's event proxy is its table's proxy: nil removes it, proxy(_:) replaces it")
    func eventProxyIsTheTableProxy() async throws {
        let scene = UIFixtures.Scene()
        let shareProxy = UIFixtures.ShareProxy()
        #expect(scene.controller.strategies.isEmpty)

        scene.controller.eventProxy = shareProxy
        #expect(!scene.controller.strategies.isEmpty)
        #expect(
            await scene.controller.send(Share(), options: scene.options).handlers == [
                ResponderID(scene.controller)
            ])
        #expect(await shareProxy.shared == 1)

        scene.controller.eventProxy = nil
        #expect(scene.controller.strategies.isEmpty)
        #expect(await scene.controller.send(Share(), options: scene.options).kind == .unhandled)

        scene.controller.eventProxy = shareProxy
        let other = ProxyView(label: "other")
        other.strategies.on(Share.self) { other, _, _ in
            other.seen.append("Share")
            return .handled
        }
        scene.controller.strategies.proxy { _ in other }
        await scene.controller.send(Share(), options: scene.options)
        #expect(other.seen == ["Share"])
        #expect(await shareProxy.shared == 1)
    }
}

/// The value a handler of the large-table test records.
private enum Tag: InfoKey { typealias Value = Int }
