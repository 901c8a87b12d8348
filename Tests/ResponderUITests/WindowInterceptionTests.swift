import ResponderChainTesting
import ResponderUI
import Testing

private typealias Ping = UIFixtures.Ping
private typealias RecordingView = UIFixtures.RecordingView

/// A system wrapper that records each hop it is around, as "label.phase", in order.
private final class HopJournal: HopMiddleware {
    private let entries = Locked<[String]>([])

    var hops: [String] { entries.withLock { $0 } }

    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        entries.withLock { $0.append("\(responder.label).\(context.phase)") }
        return try await next(&context)
    }
}

/// A scene whose root view holds one recording view, "target", at (10, 10, 50 × 50).
@MainActor
private struct TargetScene {
    let scene: UIFixtures.Scene
    let target = RecordingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), label: "target")
    let onTarget = Point(x: 20, y: 20)

    init(runsCapturePhase: Bool = true, middleware: [any HopMiddleware] = []) {
        scene = UIFixtures.Scene(runsCapturePhase: runsCapturePhase, middleware: middleware)
        scene.controller.view.addSubview(target)
    }

    var began: String { "began \(PointerID.primary.rawValue)" }
}

@Suite("Capture and wrappers in the window layer")
@MainActor
struct WindowInterceptionTests {
    @Test("a controller's capture handler sees a pointer before the view it hit, which sees it after")
    func captureBeforeTheHitView() async throws {
        let shop = TargetScene()
        shop.scene.controller.strategies.on(PointerEvent.self, phase: .capture) {
            [target = shop.target] _, pointer, _ in
            target.log.append("captured \(pointer.phase)")
            return .pass
        }

        let delivery = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        #expect(shop.target.log == ["captured began", shop.began])
        #expect(delivery.outcome.unhandledDetails != nil)
        #expect(shop.scene.recorder.labels.first == "controller")  // the capture hop
        #expect(
            Array(shop.scene.recorder.labels.dropFirst().prefix(3)) == ["target", "rootView", "controller"])
    }

    @Test(
        "a capture handler that handles a pointer stops it before the view it hit: the view's methods never run"
    )
    func captureStopsThePointer() async throws {
        let shop = TargetScene()
        shop.scene.controller.strategies.on(PointerEvent.self, phase: .capture) { _, _, _ in .handled }

        let delivery = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        let handled = try #require(delivery.outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(shop.scene.controller))
        #expect(handled.wasIntercepted)
        #expect(handled.phase == .capture)
        #expect(shop.target.log.isEmpty)
        #expect(shop.scene.recorder.labels == ["controller"])
        #expect(shop.scene.window.boundView(for: .primary) === shop.target)  // hit testing is unchanged
    }

    @Test("a view's capture handlers run only its table in the capture pass, never its pointer methods")
    func captureRunsTheTableOnly() async throws {
        let shop = TargetScene()
        let outer = shop.scene.add(
            RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "outer"))
        shop.target.removeFromSuperview()
        outer.addSubview(shop.target)
        outer.strategies.on(PointerEvent.self, phase: .capture) { outer, pointer, _ in
            outer.log.append("captured \(pointer.phase)")
            return .pass
        }

        _ = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        // Its pointerBegan ran once, in the bubble, after the target's.
        #expect(outer.log == ["captured began", shop.began])
        #expect(shop.target.log == [shop.began])
    }

    @Test(
        "a capture handler reached through an application whose system runs no capture pass ends the delivery failed, before any of that responder's handlers run"
    )
    func captureWithoutThePass() async throws {
        let shop = TargetScene(runsCapturePhase: false)
        shop.scene.controller.strategies.on(PointerEvent.self, phase: .capture) {
            [target = shop.target] _, _, _ in
            target.log.append("captured")
            return .handled
        }
        shop.scene.controller.strategies.on(PointerEvent.self) { [target = shop.target] _, _, _ in
            target.log.append("controller bubble")
            return .handled
        }

        let delivery = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        let failure = try #require(delivery.outcome.failedDetails)
        let error = try #require(failure.error as? ResponderChainError)
        #expect(error.code == .capturePhaseDisabled)
        #expect(error.responder == ResponderID(shop.scene.controller))
        #expect(failure.phase == .bubble)
        #expect(shop.target.log == [shop.began])  // the target's hop ran; the controller's did not
    }

    @Test("a view's wrapper runs around its handlers; its pointer methods run after, when the table passes")
    func viewWrapperOrder() async throws {
        let shop = TargetScene(runsCapturePhase: false)
        shop.target.strategies.use { target, _, context, next in
            target.log.append("wrapper in")
            let disposition = try await next(&context)
            target.log.append("wrapper out")
            return disposition
        }
        shop.target.strategies.on(PointerEvent.self) { target, _, _ in
            target.log.append("handler")
            return .pass
        }

        _ = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        #expect(shop.target.log == ["wrapper in", "handler", "wrapper out", shop.began])
    }

    @Test(
        "a view's wrapper that returns handled without calling next stops the pointer there: neither its handlers nor its methods run"
    )
    func viewWrapperDenies() async throws {
        let shop = TargetScene(runsCapturePhase: false)
        shop.target.strategies.use { _, _, _, _ in .handled }
        shop.target.strategies.on(PointerEvent.self) { target, _, _ in
            target.log.append("handler")
            return .pass
        }

        let delivery = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        #expect(try #require(delivery.outcome.handledDetails).stoppedAt == ResponderID(shop.target))
        #expect(shop.target.log.isEmpty)
        #expect(shop.scene.recorder.labels == ["target"])
    }

    @Test("a system wrapper is around every hop of a pointer delivery, the capture hops first")
    func systemWrapperSeesEveryHop() async throws {
        let journal = HopJournal()
        let shop = TargetScene(middleware: [journal])
        shop.scene.controller.strategies.on(PointerEvent.self, phase: .capture) { _, _, _ in .pass }

        _ = try #require(await shop.scene.window.dispatch(.began, at: shop.onTarget))

        let labels = shop.scene.recorder.labels
        #expect(journal.hops.map { $0.split(separator: ".").first.map(String.init) } == labels)
        #expect(journal.hops.first == "controller.capture")
        #expect(journal.hops.dropFirst().allSatisfy { $0.hasSuffix(".bubble") })
        #expect(journal.hops.count == labels.count && labels.count > 3)
    }
}
