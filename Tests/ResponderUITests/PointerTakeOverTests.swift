import ResponderChainTesting
import ResponderUI
import Testing

private typealias RecordingView = UIFixtures.RecordingView

/// A scroll view holding a row that holds a button, under an outer view; `other` beside the row
/// inside the scroll view, `side` beside the scroll view outside it. Every view records what it
/// is told and passes every pointer event, so each phase bubbles from where it starts up to the
/// application's delegate (which records it too); the application's dead letters are recorded.
///
/// Window coordinates: `outer` 0…400 × 0…400 holding `side` 0…400 × 0…100 and `scroll`
/// 0…400 × 100…400; `scroll` holds `row` 0…400 × 100…200 (holding `button` 10…90 × 110…190)
/// and `other` 0…400 × 250…350.
///
/// The chain from the button: button → row → scroll → outer → rootView → controller → window →
/// app → delegate.
@MainActor
private struct TakeOverScene {
    /// The application system's dead letters.
    let letters: DeadLetterRecorder
    /// The application (with its delegate), window and root controller.
    let scene: UIFixtures.Scene
    let outer = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "outer")
    let side = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 100), label: "side")
    let scroll = RecordingView(frame: Rect(x: 0, y: 100, width: 400, height: 300), label: "scroll")
    let row = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 100), label: "row")
    let button = RecordingView(frame: Rect(x: 10, y: 10, width: 80, height: 80), label: "button")
    let other = RecordingView(frame: Rect(x: 0, y: 150, width: 400, height: 100), label: "other")

    /// The scene's window.
    var window: Window { scene.window }

    /// Every recording view, from the button up the chain, then `other` and `side`.
    var views: [RecordingView] { [button, row, scroll, outer, other, side] }

    init() {
        let letters = DeadLetterRecorder()
        self.letters = letters
        scene = UIFixtures.Scene(deadLetters: letters.sink)
        scene.controller.view.addSubview(outer)
        outer.addSubview(side)
        outer.addSubview(scroll)
        scroll.addSubview(row)
        scroll.addSubview(other)
        row.addSubview(button)
    }

    /// The view (or the window) labelled `label`.
    func view(_ label: String) -> View {
        if label == "window" { return window }
        guard let view = views.first(where: { $0.label == label }) else {
            preconditionFailure("no view labelled \(label)")
        }
        return view
    }

    /// The middle of `view`, in window coordinates.
    func middle(of view: View) -> Point {
        view.convert(Point(x: view.bounds.width / 2, y: view.bounds.height / 2), to: nil)
    }

    /// Begins `pointer`'s sequence at the middle of `view` and checks it is bound there.
    func begin(_ pointer: PointerID = .primary, on view: View) async throws {
        let delivery = try #require(await window.dispatch(.began, at: middle(of: view), pointer: pointer))
        try #require(delivery.target === view)
    }

    /// Sends `phase` of `pointer` and returns its delivery, which must exist.
    func send(_ phase: PointerPhase, _ pointer: PointerID = .primary) async throws -> PointerDelivery {
        try #require(await window.dispatch(phase, at: Point(x: 50, y: 150), pointer: pointer))
    }

    /// Each view's phases, by label, with the pointer left out (`began moved cancelled`); views
    /// that saw nothing are left out.
    func phases() -> [String: String] {
        var phases: [String: String] = [:]
        for view in views where !view.log.isEmpty {
            phases[view.label] = view.log.map { $0.split(separator: " ")[0] }.joined(separator: " ")
        }
        return phases
    }

    /// Dispatches `phase` of the primary pointer from a task of its own, so the test goes on
    /// while the event is parked.
    func dispatchInTask(_ phase: PointerPhase, at location: Point) -> Task<PointerDelivery?, Never> {
        let window = window
        return Task { @MainActor in await window.dispatch(phase, at: location) }
    }
}

/// One row of the ordering table: who takes the sequence over, who (if anyone) handles the
/// `cancelled` it causes, and the phases each view then sees for began, moved, take-over, moved,
/// ended.
struct TakeOverOrdering: Sendable, CustomTestStringConvertible {
    let taker: String
    let handlesCancelled: String?
    let expected: [String: String]

    var testDescription: String {
        "taken over by \(taker)" + (handlesCancelled.map { ", \($0) handles the cancelled" } ?? "")
    }

    /// What the old view and the views told with it see: the sequence up to the take-over, then
    /// its `cancelled`.
    static let told = "began moved cancelled"
    /// What a view below the taker that is not told sees (a view below it handled the cancelled).
    static let notTold = "began moved"
    /// What the taker and the views above it see: the whole sequence, no `cancelled`.
    static let whole = "began moved moved ended"

    static let table: [TakeOverOrdering] = [
        TakeOverOrdering(
            taker: "row", handlesCancelled: nil,
            expected: ["button": told, "row": whole, "scroll": whole, "outer": whole]),
        TakeOverOrdering(
            taker: "scroll", handlesCancelled: nil,
            expected: ["button": told, "row": told, "scroll": whole, "outer": whole]),
        TakeOverOrdering(
            taker: "outer", handlesCancelled: nil,
            expected: ["button": told, "row": told, "scroll": told, "outer": whole]),
        TakeOverOrdering(
            taker: "window", handlesCancelled: nil,
            expected: ["button": told, "row": told, "scroll": told, "outer": told]),
        TakeOverOrdering(
            taker: "outer", handlesCancelled: "button",
            expected: ["button": told, "row": notTold, "scroll": notTold, "outer": whole]),
        TakeOverOrdering(
            taker: "outer", handlesCancelled: "row",
            expected: ["button": told, "row": told, "scroll": notTold, "outer": whole]),
        // The taker would handle a cancelled, but it is not told one.
        TakeOverOrdering(
            taker: "scroll", handlesCancelled: "scroll",
            expected: ["button": told, "row": told, "scroll": whole, "outer": whole]),
    ]
}

/// A take-over that must fail, the error it must throw, and where the sequence is bound.
enum BadTakeOver: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pointerNeverBegan
    case sequenceEnded
    case sequenceCancelled
    case takerIsTheBoundView
    case takerIsASibling
    case takerIsOutsideTheBoundViewsAncestors
    case takerIsBelowTheBoundView
    case takerInNoWindow
    case takerInAnotherWindow

    var testDescription: String { rawValue }

    var error: PointerTakeOverError {
        switch self {
        case .pointerNeverBegan, .sequenceEnded, .sequenceCancelled, .takerInAnotherWindow: .noSequence
        case .takerIsTheBoundView: .alreadyBound
        case .takerIsASibling, .takerIsOutsideTheBoundViewsAncestors, .takerIsBelowTheBoundView:
            .notAnAncestor
        case .takerInNoWindow: .notInWindow
        }
    }
}

/// How a taker leaves its window after taking a sequence over.
enum TakerLeaving: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case removed
    case ancestorRemoved
    case movedToAnotherWindow

    var testDescription: String { rawValue }
}

/// An ancestor of the view a pointer sequence is bound to takes the sequence over
/// (``View/takeOver(_:)``): the old view is told `cancelled` (`.takenOver`) once and sees nothing
/// after it; the rest of the sequence goes to the taker.
@Suite("Taking over a pointer sequence", .timeLimit(.minutes(2)))
@MainActor
struct PointerTakeOverTests {
    @Test(
        "the view the sequence was bound to is told cancelled once, with reason takenOver; the taker is bound"
    )
    func oldViewToldOnce() async throws {
        let ui = TakeOverScene()
        ui.button.cancelledDisposition = .handled
        try await ui.begin(on: ui.button)

        try ui.scroll.takeOver(.primary)

        #expect(ui.button.log == ["began 0", "cancelled 0"])
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.window.boundView(for: .primary) === ui.scroll)
        #expect(ui.window.activePointers == [.primary])
        // The button handled its cancelled: no one above it is told.
        #expect(ui.row.log == ["began 0"])
        #expect(ui.scroll.log == ["began 0"])
        // The cancelled is a direct call, not a chain event: nothing was sent up the chain.
        #expect(await ui.scene.delegate.seen == ["PointerEvent.began"])

        _ = try await ui.send(.moved)
        _ = try await ui.send(.ended)
        #expect(ui.button.log == ["began 0", "cancelled 0"])
        #expect(ui.button.cancellations == [.takenOver])
    }

    @Test(
        "every later phase goes to the taker and up the chain from it; the sequence ends there",
        arguments: [PointerPhase.ended, .cancelled])
    func restGoesToTheTaker(ending: PointerPhase) async throws {
        let ui = TakeOverScene()
        try await ui.begin(on: ui.button)
        try ui.scroll.takeOver(.primary)

        let moved = try await ui.send(.moved)
        let end = try await ui.send(ending)

        #expect(moved.target === ui.scroll)
        #expect(end.target === ui.scroll)
        #expect(end.event.cancellation == (ending == .cancelled ? .system : nil))
        #expect(ui.scroll.log == ["began 0", "moved 0", "\(ending) 0"])
        #expect(ui.outer.log == ["began 0", "moved 0", "\(ending) 0"])
        #expect(ui.button.log == ["began 0", "cancelled 0"])
        #expect(ui.row.log == ["began 0", "cancelled 0"])
        #expect(
            await ui.scene.delegate.seen == [
                "PointerEvent.began", "PointerEvent.moved", "PointerEvent.\(ending)",
            ])
        #expect(ui.window.activePointers.isEmpty)
        #expect(ui.window.boundView(for: .primary) == nil)
        #expect(await ui.window.dispatch(.moved, at: .zero) == nil)
    }

    @Test("what each view sees, in order", arguments: TakeOverOrdering.table)
    func orderingTable(_ ordering: TakeOverOrdering) async throws {
        let ui = TakeOverScene()
        if let handler = ordering.handlesCancelled {
            (ui.view(handler) as? RecordingView)?.cancelledDisposition = .handled
        }
        let taker = ui.view(ordering.taker)
        try await ui.begin(on: ui.button)
        #expect(try await ui.send(.moved).target === ui.button)

        try taker.takeOver(.primary)

        #expect(try await ui.send(.moved).target === taker)
        #expect(try await ui.send(.ended).target === taker)
        #expect(ui.phases() == ordering.expected)
        for view in ui.views {
            let told = ordering.expected[view.label] == TakeOverOrdering.told
            #expect(view.cancellations == (told ? [.takenOver] : []), "\(view.label)")
        }
        // Every phase reached the delegate; the cancelled, a direct call below the taker, did not.
        #expect(
            await ui.scene.delegate.seen == [
                "PointerEvent.began", "PointerEvent.moved", "PointerEvent.moved", "PointerEvent.ended",
            ])
    }

    @Test("a take-over that cannot be done throws and changes nothing", arguments: BadTakeOver.allCases)
    func badInput(_ bad: BadTakeOver) async throws {
        let ui = TakeOverScene()
        let pointer: PointerID = bad == .pointerNeverBegan ? PointerID(7) : .primary
        let bound: View = bad == .takerIsBelowTheBoundView ? ui.row : ui.button
        // The row's middle is the button: begin where the row is alone.
        let start = bad == .takerIsBelowTheBoundView ? Point(x: 200, y: 150) : ui.middle(of: ui.button)
        try #require(await ui.window.dispatch(.began, at: start)?.target === bound)
        let elsewhere = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "elsewhere")
        ui.scene.app.addWindow(elsewhere)
        let taker: View
        switch bad {
        case .pointerNeverBegan: taker = ui.scroll
        case .sequenceEnded:
            _ = try await ui.send(.ended)
            taker = ui.scroll
        case .sequenceCancelled:
            _ = try await ui.send(.cancelled)
            taker = ui.scroll
        case .takerIsTheBoundView: taker = ui.button
        case .takerIsASibling: taker = ui.other
        case .takerIsOutsideTheBoundViewsAncestors: taker = ui.side
        case .takerIsBelowTheBoundView: taker = ui.button
        case .takerInNoWindow: taker = View(label: "loose")
        case .takerInAnotherWindow:
            taker = RecordingView(label: "there")
            elsewhere.addSubview(taker)
        }
        let before = ui.phases()
        let boundBefore = ui.window.boundView(for: .primary)

        #expect(throws: bad.error) { try taker.takeOver(pointer) }

        #expect(ui.phases() == before)
        #expect(ui.views.allSatisfy { $0.cancellations.filter { $0 == .takenOver }.isEmpty })
        #expect(ui.window.boundView(for: .primary) === boundBefore)
        #expect(elsewhere.activePointers.isEmpty)
        if boundBefore != nil {
            // The sequence goes on where it was bound.
            #expect(try await ui.send(.moved).target === bound)
            #expect(try await ui.send(.ended).target === bound)
        }
    }

    @Test(
        "a further ancestor can take over from the first taker, which is then told cancelled once; the original view is not told again"
    )
    func takeOverTwice() async throws {
        let ui = TakeOverScene()
        try await ui.begin(on: ui.button)
        _ = try await ui.send(.moved)
        try ui.scroll.takeOver(.primary)
        _ = try await ui.send(.moved)

        try ui.outer.takeOver(.primary)

        #expect(ui.window.boundView(for: .primary) === ui.outer)
        #expect(ui.scroll.cancellations == [.takenOver])
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.row.cancellations == [.takenOver])
        #expect(ui.outer.cancellations.isEmpty)
        // Nothing below the taker can take it back, and the taker has it already.
        #expect(throws: PointerTakeOverError.notAnAncestor) { try ui.scroll.takeOver(.primary) }
        #expect(throws: PointerTakeOverError.notAnAncestor) { try ui.button.takeOver(.primary) }
        #expect(throws: PointerTakeOverError.alreadyBound) { try ui.outer.takeOver(.primary) }
        #expect(try await ui.send(.moved).target === ui.outer)
        #expect(try await ui.send(.ended).target === ui.outer)

        #expect(
            ui.phases() == [
                "button": "began moved cancelled",
                "row": "began moved cancelled",
                "scroll": "began moved moved cancelled",
                "outer": "began moved moved moved ended",
            ])
    }

    @Test(
        "when the taker leaves the window, the sequence is cancelled and the taker told; the original view is not told again",
        arguments: TakerLeaving.allCases)
    func takerLeavesTheWindow(_ leaving: TakerLeaving) async throws {
        let ui = TakeOverScene()
        let another = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "another")
        ui.scene.app.addWindow(another)
        try await ui.begin(on: ui.button)
        try ui.scroll.takeOver(.primary)

        switch leaving {
        case .removed: ui.scroll.removeFromSuperview()
        case .ancestorRemoved: ui.outer.removeFromSuperview()
        case .movedToAnotherWindow: another.addSubview(ui.scroll)
        }

        #expect(ui.scroll.cancellations == [.viewLeftWindow])
        #expect(ui.scroll.log == ["began 0", "cancelled 0"])
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.button.log == ["began 0", "cancelled 0"])
        #expect(ui.row.log == ["began 0", "cancelled 0"])
        #expect(ui.window.activePointers.isEmpty)
        #expect(another.activePointers.isEmpty)
        #expect(await ui.window.dispatch(.ended, at: .zero) == nil)
    }

    @Test(
        "removing the original view after the take-over changes nothing: the sequence goes on with the taker",
        arguments: ["button", "row"])
    func originalRemoved(_ removed: String) async throws {
        let ui = TakeOverScene()
        try await ui.begin(on: ui.button)
        try ui.scroll.takeOver(.primary)

        ui.view(removed).removeFromSuperview()

        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.row.cancellations == [.takenOver])
        #expect(ui.scroll.cancellations.isEmpty)
        #expect(ui.window.boundView(for: .primary) === ui.scroll)
        #expect(try await ui.send(.moved).target === ui.scroll)
        #expect(try await ui.send(.ended).target === ui.scroll)
        #expect(
            ui.phases() == [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began moved ended",
                "outer": "began moved ended",
            ])
    }

    @Test("detaching the window after the take-over tells the taker; the original view is not told again")
    func windowDetachedAfterTakeOver() async throws {
        let ui = TakeOverScene()
        try await ui.begin(on: ui.button)
        try ui.scroll.takeOver(.primary)

        ui.scene.app.removeWindow(ui.window)

        #expect(ui.scroll.cancellations == [.windowDetached])
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.row.cancellations == [.takenOver])
        // The taker passes, so its cancellation bubbles on up to the detached window.
        #expect(ui.outer.cancellations == [.windowDetached])
        #expect(
            ui.phases() == [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began cancelled",
            ])
        #expect(ui.window.activePointers.isEmpty)
    }

    // MARK: Events in flight

    @Test(
        "a take-over while the old view's handler is parked withdraws that event: the old view sees nothing after its cancelled",
        arguments: [PointerPhase.began, .moved])
    func oldViewParkedMidFlight(_ parkedPhase: PointerPhase) async throws {
        let ui = TakeOverScene()
        let gate = Gate()
        ui.button.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == parkedPhase { try await gate.pass() }
            return .pass
        }
        if parkedPhase == .moved { try await ui.begin(on: ui.button) }
        let parked = ui.dispatchInTask(parkedPhase, at: ui.middle(of: ui.button))
        try await gate.waitForArrivals(1)

        try ui.scroll.takeOver(.primary)
        let told: [String: String] =
            parkedPhase == .moved
            ? ["button": "began cancelled", "row": "began cancelled", "scroll": "began", "outer": "began"]
            : ["button": "cancelled", "row": "cancelled"]
        #expect(ui.phases() == told)
        gate.open()
        let delivery = try #require(await parked.value)

        // The parked event stopped where its hop ended: the button's pointer method was not
        // called after its handler passed, and no one above saw it.
        #expect(delivery.target === ui.button)
        let stop = try #require(delivery.outcome.cancelledDetails, "\(delivery.outcome)")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(ui.row))
        #expect(stop.hop == 2)
        #expect(!stop.whileHandling)
        #expect(ui.phases() == told)

        // The rest of the sequence is the taker's.
        #expect(try await ui.send(.moved).target === ui.scroll)
        #expect(try await ui.send(.ended).target === ui.scroll)
        #expect(ui.button.log.last == "cancelled 0")
        #expect(ui.row.log.last == "cancelled 0")
        let taker = parkedPhase == .moved ? "began moved ended" : "moved ended"
        #expect(ui.phases()["scroll"] == taker)
        #expect(ui.phases()["outer"] == taker)
        // The withdrawn event was not dead-lettered; every other one ended unhandled at the root.
        #expect(
            ui.letters.outcomes.map(\.kind)
                == Array(repeating: .unhandled, count: parkedPhase == .moved ? 3 : 2))
    }

    @Test(
        "a take-over from the taker's own handler of the phase being delivered: that phase stops at the taker's hop, withdrawn; the next one comes to the taker",
        arguments: [Disposition.pass, .handled])
    func fromTheTakersHandler(_ disposition: Disposition) async throws {
        let ui = TakeOverScene()
        ui.scroll.handlers.on(PointerEvent.self) { scroll, pointer, _ in
            guard pointer.phase == .moved, scroll.window?.boundView(for: pointer.pointer) !== scroll else {
                return .pass
            }
            try scroll.takeOver(pointer.pointer)
            return disposition
        }
        try await ui.begin(on: ui.button)

        let claimed = try await ui.send(.moved)

        // The button and the row saw the moved on its way up, then were told cancelled; the
        // scroll view's pointer method did not get it, and nothing above the scroll view saw it.
        #expect(claimed.target === ui.button)
        #expect(
            ui.phases() == [
                "button": "began moved cancelled", "row": "began moved cancelled", "scroll": "began",
                "outer": "began",
            ])
        #expect(ui.window.boundView(for: .primary) === ui.scroll)
        let stop = try #require(claimed.outcome.cancelledDetails, "\(claimed.outcome)")
        #expect(stop.reason == .withdrawn)
        if disposition == .handled {
            #expect(stop.responder == ResponderID(ui.scroll))
            #expect(stop.hop == 3)
            #expect(stop.whileHandling)
            #expect(claimed.outcome.handlers == [ResponderID(ui.scroll)])
        } else {
            #expect(stop.responder == ResponderID(ui.outer))
            #expect(stop.hop == 4)
            #expect(!stop.whileHandling)
            #expect(claimed.outcome.handlers.isEmpty)
        }

        #expect(try await ui.send(.moved).target === ui.scroll)
        #expect(try await ui.send(.ended).target === ui.scroll)
        #expect(ui.phases()["scroll"] == "began moved ended")
        #expect(ui.phases()["outer"] == "began moved ended")
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.scroll.cancellations.isEmpty)
    }

    @Test(
        "a take-over from the old view's own pointer method: its event stops at that hop, and the views told with it never see it"
    )
    func fromTheOldViewsPointerMethod() async throws {
        let ui = TakeOverScene()
        let scroll = ui.scroll
        var took = false
        ui.button.onPointer = { pointer in
            if pointer.phase == .moved { took = (try? scroll.takeOver(pointer.pointer)) != nil }
        }
        try await ui.begin(on: ui.button)

        let moved = try await ui.send(.moved)

        #expect(took)
        #expect(
            ui.phases() == [
                "button": "began moved cancelled", "row": "began cancelled", "scroll": "began",
                "outer": "began",
            ])
        let stop = try #require(moved.outcome.cancelledDetails, "\(moved.outcome)")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(ui.row))
        #expect(stop.hop == 2)
        #expect(try await ui.send(.ended).target === ui.scroll)
    }

    // MARK: Several pointers, re-entrant changes

    @Test("with several pointers down, only the named pointer's sequence is taken over")
    func onlyTheNamedPointer() async throws {
        let ui = TakeOverScene()
        let one = PointerID(1)
        let two = PointerID(2)
        let three = PointerID(3)
        try await ui.begin(one, on: ui.button)
        try await ui.begin(two, on: ui.other)
        try await ui.begin(three, on: ui.side)

        try ui.scroll.takeOver(one)

        #expect(ui.window.activePointers == [one, two, three])
        #expect(ui.window.boundView(for: one) === ui.scroll)
        #expect(ui.window.boundView(for: two) === ui.other)
        #expect(ui.window.boundView(for: three) === ui.side)
        #expect(ui.button.log == ["began 1", "cancelled 1"])
        #expect(ui.other.log == ["began 2"])
        #expect(ui.side.log == ["began 3"])
        #expect(throws: PointerTakeOverError.notAnAncestor) { try ui.scroll.takeOver(three) }
        for (pointer, view) in [(one, ui.scroll), (two, ui.other), (three, ui.side)] as [(PointerID, View)] {
            #expect(try await ui.send(.moved, pointer).target === view)
            #expect(try await ui.send(.ended, pointer).target === view)
        }
        #expect(ui.other.log == ["began 2", "moved 2", "ended 2"])
        #expect(ui.side.log == ["began 3", "moved 3", "ended 3"])
        #expect(ui.button.log == ["began 1", "cancelled 1"])
        #expect(ui.views.allSatisfy { $0.cancellations.count <= 1 })
    }

    @Test(
        "an old view whose cancelled call removes the taker: the sequence, now the taker's, is cancelled and the taker told once"
    )
    func cancelledCallRemovesTheTaker() async throws {
        let ui = TakeOverScene()
        let scroll = ui.scroll
        ui.button.onPointer = { pointer in
            if pointer.cancellation == .takenOver { scroll.removeFromSuperview() }
        }
        try await ui.begin(on: ui.button)

        try ui.scroll.takeOver(.primary)

        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.scroll.cancellations == [.viewLeftWindow])
        // The take-over's cancelled goes on from the button to the row, still below the taker.
        #expect(ui.row.cancellations == [.takenOver])
        #expect(
            ui.phases() == [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began",
            ])
        #expect(ui.window.activePointers.isEmpty)
    }

    @Test(
        "an old view whose cancelled call lets a further ancestor take over: the first taker is told once, the old view not again"
    )
    func cancelledCallTakesOverAgain() async throws {
        let ui = TakeOverScene()
        let outer = ui.outer
        var tookAgain = false
        ui.button.onPointer = { pointer in
            if pointer.cancellation == .takenOver {
                tookAgain = (try? outer.takeOver(pointer.pointer)) != nil
            }
        }
        try await ui.begin(on: ui.button)

        try ui.scroll.takeOver(.primary)

        #expect(tookAgain)
        #expect(ui.window.boundView(for: .primary) === ui.outer)
        #expect(ui.button.cancellations == [.takenOver])
        #expect(ui.row.cancellations == [.takenOver])
        #expect(ui.scroll.cancellations == [.takenOver])
        #expect(ui.outer.cancellations.isEmpty)
        #expect(try await ui.send(.ended).target === ui.outer)
        #expect(
            ui.phases() == [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began ended",
            ])
    }

    @Test(
        "a scroll view claims a drag begun on a button: the button drops its highlight and the release does not trigger it"
    )
    func scrollViewClaimsAButtonDrag() async throws {
        let ui = TakeOverScene()
        let buy = Button(frame: Rect(x: 200, y: 10, width: 80, height: 80), title: "Buy")
        ui.row.addSubview(buy)
        buy.addChainEvent(for: .tap) { _ in UIFixtures.AddToCart(sku: "A-1") }
        let inside = ui.middle(of: buy)
        try await ui.begin(on: buy)
        try #require(await ui.window.dispatch(.moved, at: inside) != nil)
        #expect(buy.isHighlighted)

        try ui.scroll.takeOver(.primary)

        #expect(!buy.isHighlighted)
        // The button handles its cancelled (and stopped every phase before): the row hears nothing.
        #expect(ui.row.log.isEmpty)
        let released = try #require(await ui.window.dispatch(.ended, at: inside))
        #expect(released.target === ui.scroll)
        #expect(released.triggered.isEmpty)
        #expect(buy.lastOutcomes.isEmpty)
        #expect(!buy.isHighlighted)
        #expect(ui.scroll.log == ["ended 0"])
    }

    @Test(
        "random take-overs, tree changes and parked handlers: each view sees its phases in order, every view a sequence was bound to sees exactly one end",
        .timeLimit(.minutes(2)))
    func randomTakeOvers() async {
        var failures: [String] = []
        var takeOvers = 0
        var refusals = 0
        for seed in UInt64(1)...300 {
            let storm = TakeOverStorm(seed: seed)
            await storm.run()
            takeOvers += storm.takeOvers
            refusals += storm.refusals
            let problems = storm.problems()
            if !problems.isEmpty {
                failures.append("seed \(seed): \(problems) after \(storm.script)")
            }
            storm.tearDown()
        }
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
        // The storms did take sequences over, and were refused too.
        #expect(takeOvers > 300, "\(takeOvers) take-overs")
        #expect(refusals > 300, "\(refusals) refusals")
    }
}

/// One seeded run of pointer input over a ``RandomViewTree`` where views and the storm take
/// sequences over at random — from the storm itself, from a handler while the phase is being
/// delivered, and from inside the window layer's pointer calls (a `cancelled` included) — while
/// the tree changes and handlers park mid-flight as in the in-flight storm.
@MainActor
private final class TakeOverStorm {
    /// The grid, the generator and the script.
    let tree: RandomViewTree
    /// What happened, in order, for failure messages.
    var script: [String] { tree.script }
    /// How many take-overs succeeded.
    private(set) var takeOvers = 0
    /// How many take-overs failed (threw).
    private(set) var refusals = 0
    /// Every view each sequence was bound to, by pointer: the one its `began` entered at hop 1,
    /// and each taker.
    private var bound: [String: Set<String>] = [:]
    /// Sends the input, parks and lets go.
    private let driver: ParkingStormDriver

    /// The views that may take a sequence over: the grid's, the root view and the window.
    private var candidates: [View] { tree.views + [tree.scene.controller.view, tree.scene.window] }

    init(seed: UInt64) {
        tree = RandomViewTree(seed: seed)
        driver = ParkingStormDriver(tree: tree)
        for view in tree.views {
            view.pointerDisposition = tree.random.chance(40) ? .handled : .pass
            view.onPointer = { [unowned self] pointer in
                if tree.random.chance(20) { tree.interfere() }
                if tree.random.chance(25) { takeOver(near: pointer.pointer) }
            }
            view.handlers.on(PointerEvent.self) { [unowned self] view, pointer, context in
                if pointer.phase == .began, context.hop == 1 {
                    bound["\(pointer.pointer.rawValue)", default: []].insert(view.label)
                }
                if tree.random.chance(20) { takeOver(near: pointer.pointer) }
                if tree.random.chance(30) { try await driver.park(pointer, at: view) }
                return .pass
            }
        }
    }

    /// Takes over `pointer`'s sequence half the time, another active pointer's otherwise, by an
    /// ancestor of the view it is bound to most of the time, by any candidate otherwise; a failure
    /// is part of the script, not a problem.
    private func takeOver(near pointer: PointerID) {
        let window = tree.scene.window
        let active = window.activePointers
        let chosen = active.isEmpty || tree.random.chance(50) ? pointer : tree.random.pick(active)
        var ancestors: [View] = []
        var current = window.boundView(for: chosen)?.superview
        while let view = current {
            ancestors.append(view)
            current = view.superview
        }
        let taker =
            !ancestors.isEmpty && tree.random.chance(70)
            ? tree.random.pick(ancestors) : tree.random.pick(candidates)
        do {
            try taker.takeOver(chosen)
            takeOvers += 1
            bound["\(chosen.rawValue)", default: []].insert(taker.label)
            tree.script.append("\(taker.label) takes \(chosen.rawValue)")
        } catch {
            refusals += 1
            tree.script.append("\(taker.label) cannot take \(chosen.rawValue): \(error)")
        }
    }

    /// Random input, take-overs, gate openings and direct tree changes; then a final detach that
    /// cancels whatever is left, and every parked event let go.
    func run() async {
        await driver.run(extra: { [unowned self] pointer in takeOver(near: pointer) })
    }

    /// For each view and pointer: phases out of order (more than one `began` or one not first,
    /// more than one `ended`/`cancelled` or one not last); for each view a sequence was ever
    /// bound to, not exactly one end; and sequences still in progress after the final detach.
    func problems() -> [String] {
        let isEnd = { (phase: String) in phase == "ended" || phase == "cancelled" }
        var problems: [String] = []
        for view in tree.views {
            let seen = phasesByPointer(in: view.log)
            for (pointer, phases) in seen {
                let began = phases.filter { $0 == "began" }.count
                let ends = phases.filter(isEnd).count
                let inOrder =
                    began <= 1 && (began == 0 || phases.first == "began") && ends <= 1
                    && (ends == 0 || isEnd(phases.last ?? ""))
                if !inOrder { problems.append("\(view.label), pointer \(pointer): \(phases)") }
            }
            for (pointer, views) in bound where views.contains(view.label) {
                let ends = seen.first { $0.pointer == pointer }?.phases.filter(isEnd).count ?? 0
                if ends != 1 { problems.append("\(view.label), bound to \(pointer), saw \(ends) ends") }
            }
        }
        return problems + tree.stillActive()
    }

    /// Drops the views' hooks and handlers (they hold the tree and the storm).
    func tearDown() {
        for view in tree.views {
            view.onPointer = nil
            view.handlers.remove(PointerEvent.self)
        }
    }
}
