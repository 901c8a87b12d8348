// swift-format-ignore-file
// Docs/WindowLayer.md's first Swift block, verbatim but for its `import` (this file imports the
// modules once, above): the block is marked `<!-- compiled: … -->` in the document, and
// `.ci/docs.py check-code-blocks` checks that its lines are here. Its statements sit in a
// function that the suite below runs.

import ResponderUI
import Testing

enum WindowLayerFirstExample {
    struct AddToCart: Event { let sku: String }

    actor AppDelegate: Responder {                            // the root of every window's chain
        private(set) var seen: [String] = []
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        static let strategies = Strategies<AppDelegate> {
            $0.onAnyEvent { delegate, event, context in       // analytics: every event that gets here
                delegate.seen.append(event.traceName)
                return .handled
            }
        }
    }

    /// The block's statements; returns the application, so that the test can read its delegate.
    @MainActor
    static func run() async -> Application {
        let app = Application(delegate: AppDelegate())           // the delegate is an actor, the root
        let window = Window(frame: Rect(x: 0, y: 0, width: 390, height: 844))
        let controller = ViewController()
        window.rootController = controller
        app.addWindow(window)

        let add = Button(frame: Rect(x: 20, y: 100, width: 80, height: 36), title: "Add")
        add.addChainEvent(for: .tap) { _ in AddToCart(sku: "A-1") }
        controller.view.addSubview(add)

        controller.strategies.on(AddToCart.self) { controller, event, context in
            print("add", event.sku)
            return .handledAndContinue                            // the delegate sees it too
        }

        await window.tap(at: Point(x: 30, y: 110))                // hit test → Add → AddToCart up the chain
        return app
    }
}

@Suite("The window layer's first example")
struct WindowLayerFirstExampleTests {
    @Test("a tap on Add sends AddToCart through the controller to the app delegate it defines")
    @MainActor
    func tapReachesTheDelegate() async throws {
        let app = await WindowLayerFirstExample.run()
        let delegate = try #require(app.delegate as? WindowLayerFirstExample.AppDelegate)
        #expect(await delegate.seen.contains("AddToCart"))
    }
}
