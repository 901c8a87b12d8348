import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

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
private func takeOverScene(runsCapturePhase: Bool = false) -> LabelledPointerScene {
    LabelledPointerScene(
        [
            .init(label: "outer", frame: Rect(x: 0, y: 0, width: 400, height: 400), parent: nil),
            .init(label: "side", frame: Rect(x: 0, y: 0, width: 400, height: 100), parent: "outer"),
            .init(label: "scroll", frame: Rect(x: 0, y: 100, width: 400, height: 300), parent: "outer"),
            .init(label: "row", frame: Rect(x: 0, y: 0, width: 400, height: 100), parent: "scroll"),
            .init(label: "other", frame: Rect(x: 0, y: 150, width: 400, height: 100), parent: "scroll"),
            .init(label: "button", frame: Rect(x: 10, y: 10, width: 80, height: 80), parent: "row"),
        ], runsCapturePhase: runsCapturePhase)
}

/// One row of the take-over tables: a script of steps over ``takeOverScene()``, with the checks
/// among the steps, and what the views do from inside the window layer's calls.
struct TakeOverScript: Sendable, CustomTestStringConvertible {
    /// One step of the script. Pointer events are the primary pointer's; sent ones at (50, 150).
    enum Step: Sendable {
        /// Begins the sequence on the button.
        case begin
        /// Sends `phase`; the view labelled `to` must get it (with `cancellation` `.system` for
        /// a `cancelled`, `nil` otherwise).
        case send(PointerPhase, to: String)
        /// Sends `phase` as ``send(_:to:)`` does; it must come back withdrawn so.
        case sendWithdrawn(PointerPhase, to: String, Withdrawal)
        /// Sends `phase` at the button's middle from a task of its own, and waits until the
        /// button's handler parked it (with ``Hook/oldViewParks(_:)``).
        case sendParked(PointerPhase)
        /// Lets the parked event go; it must come back to the button, withdrawn so.
        case letGo(Withdrawal)
        /// The view labelled so takes the sequence over, which must succeed.
        case takeOver(by: String)
        /// The view labelled so tries to take the sequence over, which must throw `error`.
        case refused(by: String, PointerTakeOverError)
        case change(TreeChange)
        /// Every view's phases; views not named saw nothing.
        case expectPhases([String: String])
        /// Every view's cancellation reasons; views not named were never told.
        case expectReasons([String: [PointerCancellation]])
        /// The view the sequence is bound to (and the only active pointer), or `nil`: no
        /// sequence.
        case expectBound(String?)
        /// The phases that reached the application's delegate, in order.
        case expectDelegate([PointerPhase])
        /// The kinds of the application's dead letters.
        case expectLetters([Outcome.Kind])
        /// Sends `phase`, which must find no sequence.
        case expectNoSequence(PointerPhase)
    }

    /// What a view does from inside the window layer's calls.
    enum Hook: Sendable {
        case none
        /// The button's `cancelled` call with reason `.takenOver` makes the change.
        case oldViewToldChanges(TreeChange)
        /// The button's `cancelled` call with reason `.takenOver` has the view labelled so take
        /// the sequence over.
        case oldViewToldTakeOver(by: String)
        /// The scroll view's handler of a `moved` not yet its own takes the sequence over, then
        /// returns the disposition.
        case takersHandler(Disposition)
        /// The button's `pointerMoved` has the scroll view take the sequence over.
        case oldViewsPointerMethod
        /// The button's handler parks every event of the phase until ``Step/letGo(_:)``.
        case oldViewParks(PointerPhase)
    }

    let name: String
    /// The view that handles the `cancelled` it is told, if any.
    var handlesCancelled: String? = nil
    var hook: Hook = .none
    let steps: [Step]

    var testDescription: String { name }

    // MARK: The tables

    /// An ancestor takes the sequence over, once or twice.
    static let takingOver: [TakeOverScript] = [
        // The button handles its cancelled: no one above it is told. The cancelled is a direct
        // call, not a chain event: nothing was sent up the chain.
        TakeOverScript(
            name: "the old view is told cancelled once, with reason takenOver; the taker is bound",
            handlesCancelled: "button",
            steps: [
                .begin, .takeOver(by: "scroll"),
                .expectPhases([
                    "button": "began cancelled", "row": "began", "scroll": "began", "outer": "began",
                ]),
                .expectReasons(["button": [.takenOver]]), .expectBound("scroll"), .expectDelegate([.began]),
                .send(.moved, to: "scroll"), .send(.ended, to: "scroll"),
                .expectPhases([
                    "button": "began cancelled", "row": "began", "scroll": "began moved ended",
                    "outer": "began moved ended",
                ]),
                .expectReasons(["button": [.takenOver]]),
            ]),
        rest(ending: .ended),
        rest(ending: .cancelled),
        // Nothing below the taker can take it back, and the taker has it already.
        TakeOverScript(
            name:
                "a further ancestor takes over from the first taker, which is then told cancelled once; the original view is not told again",
            steps: [
                .begin, .send(.moved, to: "button"), .takeOver(by: "scroll"), .send(.moved, to: "scroll"),
                .takeOver(by: "outer"), .expectBound("outer"),
                .expectReasons(["scroll": [.takenOver], "button": [.takenOver], "row": [.takenOver]]),
                .refused(by: "scroll", .notAnAncestor), .refused(by: "button", .notAnAncestor),
                .refused(by: "outer", .alreadyBound),
                .send(.moved, to: "outer"), .send(.ended, to: "outer"),
                .expectPhases([
                    "button": "began moved cancelled", "row": "began moved cancelled",
                    "scroll": "began moved moved cancelled", "outer": "began moved moved moved ended",
                ]),
            ]),
    ]

    /// The scroll view takes over; the sequence then ends with `ending` there.
    private static func rest(ending: PointerPhase) -> TakeOverScript {
        TakeOverScript(
            name:
                "every later phase goes to the taker and up the chain from it; the sequence ends there with \(ending)",
            steps: [
                .begin, .takeOver(by: "scroll"), .send(.moved, to: "scroll"), .send(ending, to: "scroll"),
                .expectPhases([
                    "button": "began cancelled", "row": "began cancelled", "scroll": "began moved \(ending)",
                    "outer": "began moved \(ending)",
                ]),
                .expectDelegate([.began, .moved, ending]), .expectBound(nil), .expectNoSequence(.moved),
            ])
    }

    /// What the old view and the views told with it see: the sequence up to the take-over, then
    /// its `cancelled`.
    static let told = "began moved cancelled"
    /// What a view below the taker that is not told sees (a view below it handled the cancelled).
    static let notTold = "began moved"
    /// What the taker and the views above it see: the whole sequence, no `cancelled`.
    static let whole = "began moved moved ended"

    /// Who takes the sequence over, who (if anyone) handles the `cancelled` it causes, and the
    /// phases each view then sees for began, moved, take-over, moved, ended. Every phase reaches
    /// the delegate; the cancelled, a direct call below the taker, does not.
    static let ordering: [TakeOverScript] = [
        ordering(taker: "row", expected: ["button": told, "row": whole, "scroll": whole, "outer": whole]),
        ordering(taker: "scroll", expected: ["button": told, "row": told, "scroll": whole, "outer": whole]),
        ordering(taker: "outer", expected: ["button": told, "row": told, "scroll": told, "outer": whole]),
        ordering(taker: "window", expected: ["button": told, "row": told, "scroll": told, "outer": told]),
        ordering(
            taker: "outer", handlesCancelled: "button",
            expected: ["button": told, "row": notTold, "scroll": notTold, "outer": whole]),
        ordering(
            taker: "outer", handlesCancelled: "row",
            expected: ["button": told, "row": told, "scroll": notTold, "outer": whole]),
        // The taker would handle a cancelled, but it is not told one.
        ordering(
            taker: "scroll", handlesCancelled: "scroll",
            expected: ["button": told, "row": told, "scroll": whole, "outer": whole]),
    ]

    private static func ordering(
        taker: String, handlesCancelled: String? = nil, expected: [String: String]
    ) -> TakeOverScript {
        TakeOverScript(
            name: "taken over by \(taker)" + (handlesCancelled.map { ", \($0) handles the cancelled" } ?? ""),
            handlesCancelled: handlesCancelled,
            steps: [
                .begin, .send(.moved, to: "button"), .takeOver(by: taker), .send(.moved, to: taker),
                .send(.ended, to: taker), .expectPhases(expected),
                .expectReasons(expected.filter { $0.value == told }.mapValues { _ in [.takenOver] }),
                .expectDelegate([.began, .moved, .moved, .ended]),
            ])
    }

    /// After the take-over, the taker or the original view leaves, or the window is detached.
    static let afterTheTakeOver: [TakeOverScript] = [
        takerLeaves(
            "the taker removed", .remove("scroll"),
            phases: [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began",
            ],
            reasons: ["scroll": [.viewLeftWindow], "button": [.takenOver], "row": [.takenOver]]),
        takerLeaves(
            "an ancestor of the taker removed", .remove("outer"),
            phases: [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began cancelled",
            ],
            reasons: [
                "scroll": [.viewLeftWindow], "button": [.takenOver], "row": [.takenOver],
                "outer": [.viewLeftWindow],
            ]),
        takerLeaves(
            "the taker moved to another window", .move("scroll", into: "another"),
            phases: [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began",
            ],
            reasons: ["scroll": [.viewLeftWindow], "button": [.takenOver], "row": [.takenOver]]),
        // The taker passes, so its cancellation bubbles on up to the detached window.
        takerLeaves(
            "the window detached", .detachWindow,
            phases: [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                "outer": "began cancelled",
            ],
            reasons: [
                "scroll": [.windowDetached], "button": [.takenOver], "row": [.takenOver],
                "outer": [.windowDetached],
            ]),
        originalLeaves("button"),
        originalLeaves("row"),
    ]

    private static func takerLeaves(
        _ what: String, _ change: TreeChange, phases: [String: String],
        reasons: [String: [PointerCancellation]]
    ) -> TakeOverScript {
        TakeOverScript(
            name:
                "\(what): the sequence is cancelled and the taker told; the original view is not told again",
            steps: [
                .begin, .takeOver(by: "scroll"), .change(change), .expectReasons(reasons),
                .expectPhases(phases),
                .expectBound(nil), .expectNoSequence(.ended),
            ])
    }

    private static func originalLeaves(_ removed: String) -> TakeOverScript {
        TakeOverScript(
            name: "\(removed) removed: nothing changes, the sequence goes on with the taker",
            steps: [
                .begin, .takeOver(by: "scroll"), .change(.remove(removed)),
                .expectReasons(["button": [.takenOver], "row": [.takenOver]]), .expectBound("scroll"),
                .send(.moved, to: "scroll"), .send(.ended, to: "scroll"),
                .expectPhases([
                    "button": "began cancelled", "row": "began cancelled", "scroll": "began moved ended",
                    "outer": "began moved ended",
                ]),
            ])
    }

    /// A take-over while an event of the sequence is under way.
    static let midFlight: [TakeOverScript] = [
        oldViewParked(.began),
        oldViewParked(.moved),
        // The button and the row saw the moved on its way up, then were told cancelled; the
        // scroll view's pointer method did not get it, and nothing above the scroll view saw it.
        takersHandler(.pass, withdrawn: Withdrawal(at: "outer", hop: 4, whileHandling: false, handlers: [])),
        takersHandler(
            .handled, withdrawn: Withdrawal(at: "scroll", hop: 3, whileHandling: true, handlers: ["scroll"])),
        TakeOverScript(
            name:
                "from the old view's own pointer method: its event stops at that hop, and the views told with it never see it",
            hook: .oldViewsPointerMethod,
            steps: [
                .begin, .sendWithdrawn(.moved, to: "button", Withdrawal(at: "row", hop: 2)),
                .expectPhases([
                    "button": "began moved cancelled", "row": "began cancelled", "scroll": "began",
                    "outer": "began",
                ]),
                .send(.ended, to: "scroll"),
            ]),
    ]

    /// The button's handler parks `phase`; the scroll view takes over meanwhile. The parked event
    /// stops where its hop ends: the button's pointer method is not called after its handler
    /// passes, and no one above sees it. The withdrawn event is not dead-lettered; every other one
    /// ends unhandled at the root.
    private static func oldViewParked(_ phase: PointerPhase) -> TakeOverScript {
        let told: [String: String] =
            phase == .moved
            ? ["button": "began cancelled", "row": "began cancelled", "scroll": "began", "outer": "began"]
            : ["button": "cancelled", "row": "cancelled"]
        let taker = phase == .moved ? "began moved ended" : "moved ended"
        var after = told
        after["scroll"] = taker
        after["outer"] = taker
        return TakeOverScript(
            name:
                "while the old view's handler is parked on the \(phase): that event is withdrawn, the old view sees nothing after its cancelled",
            hook: .oldViewParks(phase),
            steps: (phase == .moved ? [.begin] : []) + [
                .sendParked(phase), .takeOver(by: "scroll"), .expectPhases(told),
                .letGo(Withdrawal(at: "row", hop: 2, whileHandling: false)), .expectPhases(told),
                .send(.moved, to: "scroll"), .send(.ended, to: "scroll"), .expectPhases(after),
                .expectLetters(Array(repeating: .unhandled, count: phase == .moved ? 3 : 2)),
            ])
    }

    private static func takersHandler(_ disposition: Disposition, withdrawn: Withdrawal) -> TakeOverScript {
        TakeOverScript(
            name:
                "from the taker's own handler of the phase being delivered, which returns \(disposition): that phase stops at the taker's hop, the next one comes to the taker",
            hook: .takersHandler(disposition),
            steps: [
                .begin, .sendWithdrawn(.moved, to: "button", withdrawn),
                .expectPhases([
                    "button": "began moved cancelled", "row": "began moved cancelled", "scroll": "began",
                    "outer": "began",
                ]),
                .expectBound("scroll"),
                .send(.moved, to: "scroll"), .send(.ended, to: "scroll"),
                .expectPhases([
                    "button": "began moved cancelled", "row": "began moved cancelled",
                    "scroll": "began moved ended",
                    "outer": "began moved ended",
                ]),
                .expectReasons(["button": [.takenOver], "row": [.takenOver]]),
            ])
    }

    /// The old view's `cancelled` call changes the tree or takes over again.
    static let fromTheCancelledCall: [TakeOverScript] = [
        // The take-over's cancelled goes on from the button to the row, still below the taker.
        TakeOverScript(
            name: "it removes the taker: the sequence, now the taker's, is cancelled and the taker told once",
            hook: .oldViewToldChanges(.remove("scroll")),
            steps: [
                .begin, .takeOver(by: "scroll"),
                .expectReasons(["button": [.takenOver], "scroll": [.viewLeftWindow], "row": [.takenOver]]),
                .expectPhases([
                    "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                    "outer": "began",
                ]),
                .expectBound(nil),
            ]),
        TakeOverScript(
            name:
                "it lets a further ancestor take over: the first taker is told once, the old view not again",
            hook: .oldViewToldTakeOver(by: "outer"),
            steps: [
                .begin, .takeOver(by: "scroll"), .expectBound("outer"),
                .expectReasons(["button": [.takenOver], "row": [.takenOver], "scroll": [.takenOver]]),
                .send(.ended, to: "outer"),
                .expectPhases([
                    "button": "began cancelled", "row": "began cancelled", "scroll": "began cancelled",
                    "outer": "began ended",
                ]),
            ]),
    ]

    // MARK: The driver

    /// Runs the script: sets the hook up, then does and checks each step in order.
    @MainActor
    func run() async throws {
        let ui = takeOverScene()
        if let handler = handlesCancelled { ui[handler].cancelledDisposition = .handled }
        // Where the old view parks, when it does.
        var gate = Gate()
        // Whether each take-over a hook tried succeeded.
        var hookTookOver: [Bool] = []
        switch hook {
        case .none: break
        case .oldViewToldChanges(let change):
            ui["button"].onPointer = { [unowned ui] pointer in
                if pointer.cancellation == .takenOver { ui.apply(change) }
            }
        case .oldViewToldTakeOver(let taker):
            ui["button"].onPointer = { [unowned ui] pointer in
                if pointer.cancellation == .takenOver {
                    hookTookOver.append((try? ui.view(taker).takeOver(pointer.pointer)) != nil)
                }
            }
        case .takersHandler(let disposition):
            ui["scroll"].strategies.on(PointerEvent.self) { scroll, pointer, _ in
                guard pointer.phase == .moved, scroll.window?.boundView(for: pointer.pointer) !== scroll
                else {
                    return .pass
                }
                try scroll.takeOver(pointer.pointer)
                return disposition
            }
        case .oldViewsPointerMethod:
            ui["button"].onPointer = { [unowned ui] pointer in
                if pointer.phase == .moved {
                    hookTookOver.append((try? ui["scroll"].takeOver(pointer.pointer)) != nil)
                }
            }
        case .oldViewParks(let phase):
            gate = ui["button"].parkPointerEvents(phase)
        }
        var parked: Task<PointerDelivery?, Never>?

        for step in steps {
            switch step {
            case .begin:
                try await ui.begin(on: ui["button"])
            case .send(let phase, let target):
                _ = try await send(phase, to: target, in: ui)
            case .sendWithdrawn(let phase, let target, let withdrawal):
                try ui.expectWithdrawn(try await send(phase, to: target, in: ui), withdrawal)
            case .sendParked(let phase):
                parked = ui.window.dispatchInTask(phase, at: ui.middle(of: ui["button"]))
                try await gate.waitForArrivals(1)
            case .letGo(let withdrawal):
                gate.open()
                let delivery = try #require(await parked?.value)
                #expect(delivery.target === ui["button"])
                try ui.expectWithdrawn(delivery, withdrawal)
            case .takeOver(let taker):
                try ui.view(taker).takeOver(.primary)
            case .refused(let taker, let error):
                #expect(throws: error) { try ui.view(taker).takeOver(.primary) }
            case .change(let change):
                ui.apply(change)
            case .expectPhases(let phases):
                #expect(ui.phases() == phases)
            case .expectReasons(let reasons):
                #expect(ui.reasons() == reasons)
            case .expectBound(let label):
                if let label {
                    #expect(ui.window.boundView(for: .primary) === ui.view(label))
                    #expect(ui.window.activePointers == [.primary])
                } else {
                    #expect(ui.window.boundView(for: .primary) == nil)
                    #expect(ui.window.activePointers.isEmpty)
                }
            case .expectDelegate(let phases):
                #expect(await ui.scene.delegate.seen == phases.map { "PointerEvent.\($0)" })
            case .expectLetters(let kinds):
                #expect(ui.letters.outcomes.map(\.kind) == kinds)
            case .expectNoSequence(let phase):
                #expect(await ui.window.dispatch(phase, at: .zero) == nil)
            }
        }

        #expect(hookTookOver.allSatisfy { $0 })
        switch hook {
        case .oldViewToldTakeOver, .oldViewsPointerMethod:
            #expect(!hookTookOver.isEmpty, "the hook never took over")
        default: break
        }
        #expect(ui.another.activePointers.isEmpty)
    }

    /// Sends `phase` of the primary pointer and checks where it went.
    @MainActor
    private func send(_ phase: PointerPhase, to target: String, in ui: LabelledPointerScene) async throws
        -> PointerDelivery
    {
        let delivery = try #require(await ui.window.dispatch(phase, at: Point(x: 50, y: 150)))
        #expect(delivery.target === ui.view(target), "\(phase)")
        #expect(delivery.event.cancellation == (phase == .cancelled ? .system : nil))
        return delivery
    }
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

/// An ancestor of the view a pointer sequence is bound to takes the sequence over
/// (``View/takeOver(_:)``): the old view is told `cancelled` (`.takenOver`) once and sees nothing
/// after it; the rest of the sequence goes to the taker.
@Suite("Taking over a pointer sequence", .timeLimit(.minutes(2)))
@MainActor
struct PointerTakeOverTests {
    @Test(
        "an ancestor takes the sequence over, once or twice: the view it was bound to is told cancelled once, with reason takenOver, and every later phase goes to the taker",
        arguments: TakeOverScript.takingOver)
    func takingOver(_ script: TakeOverScript) async throws {
        try await script.run()
    }

    @Test("what each view sees, in order", arguments: TakeOverScript.ordering)
    func orderingTable(_ script: TakeOverScript) async throws {
        try await script.run()
    }

    @Test("a take-over that cannot be done throws and changes nothing", arguments: BadTakeOver.allCases)
    func badInput(_ bad: BadTakeOver) async throws {
        let ui = takeOverScene()
        let pointer: PointerID = bad == .pointerNeverBegan ? PointerID(7) : .primary
        let bound: View = bad == .takerIsBelowTheBoundView ? ui["row"] : ui["button"]
        // The row's middle is the button: begin where the row is alone.
        let start = bad == .takerIsBelowTheBoundView ? Point(x: 200, y: 150) : ui.middle(of: ui["button"])
        try #require(await ui.window.dispatch(.began, at: start)?.target === bound)
        let taker: View
        switch bad {
        case .pointerNeverBegan: taker = ui["scroll"]
        case .sequenceEnded:
            _ = try #require(await ui.window.dispatch(.ended, at: Point(x: 50, y: 150)))
            taker = ui["scroll"]
        case .sequenceCancelled:
            _ = try #require(await ui.window.dispatch(.cancelled, at: Point(x: 50, y: 150)))
            taker = ui["scroll"]
        case .takerIsTheBoundView: taker = ui["button"]
        case .takerIsASibling: taker = ui["other"]
        case .takerIsOutsideTheBoundViewsAncestors: taker = ui["side"]
        case .takerIsBelowTheBoundView: taker = ui["button"]
        case .takerInNoWindow: taker = View(label: "loose")
        case .takerInAnotherWindow:
            taker = UIFixtures.RecordingView(label: "there")
            ui.another.addSubview(taker)
        }
        let before = ui.phases()
        let boundBefore = ui.window.boundView(for: .primary)

        #expect(throws: bad.error) { try taker.takeOver(pointer) }

        #expect(ui.phases() == before)
        #expect(ui.views.allSatisfy { $0.cancellations.filter { $0 == .takenOver }.isEmpty })
        #expect(ui.window.boundView(for: .primary) === boundBefore)
        #expect(ui.another.activePointers.isEmpty)
        if boundBefore != nil {
            // The sequence goes on where it was bound.
            #expect(await ui.window.dispatch(.moved, at: Point(x: 50, y: 150))?.target === bound)
            #expect(await ui.window.dispatch(.ended, at: Point(x: 50, y: 150))?.target === bound)
        }
    }

    @Test(
        "after a take-over, the taker leaving the window or the window detached cancels the sequence and tells the taker, the original view leaving changes nothing; the original view is never told again",
        arguments: TakeOverScript.afterTheTakeOver)
    func afterTheTakeOver(_ script: TakeOverScript) async throws {
        try await script.run()
    }

    // MARK: Events in flight

    @Test(
        "a take-over while an event of the sequence is under way withdraws it at the end of the hop it is in: the views told cancelled never see it, the next phase is the taker's",
        arguments: TakeOverScript.midFlight)
    func midFlight(_ script: TakeOverScript) async throws {
        try await script.run()
    }

    // MARK: Several pointers, re-entrant changes

    @Test("with several pointers down, only the named pointer's sequence is taken over")
    func onlyTheNamedPointer() async throws {
        let ui = takeOverScene()
        let (button, scroll, other, side) = (ui["button"], ui["scroll"], ui["other"], ui["side"])
        let one = PointerID(1)
        let two = PointerID(2)
        let three = PointerID(3)
        try await ui.begin(one, on: button)
        try await ui.begin(two, on: other)
        try await ui.begin(three, on: side)

        try scroll.takeOver(one)

        #expect(ui.window.activePointers == [one, two, three])
        #expect(ui.window.boundView(for: one) === scroll)
        #expect(ui.window.boundView(for: two) === other)
        #expect(ui.window.boundView(for: three) === side)
        #expect(button.log == ["began 1", "cancelled 1"])
        #expect(other.log == ["began 2"])
        #expect(side.log == ["began 3"])
        #expect(throws: PointerTakeOverError.notAnAncestor) { try scroll.takeOver(three) }
        for (pointer, view) in [(one, scroll), (two, other), (three, side)] as [(PointerID, View)] {
            #expect(
                await ui.window.dispatch(.moved, at: Point(x: 50, y: 150), pointer: pointer)?.target === view)
            #expect(
                await ui.window.dispatch(.ended, at: Point(x: 50, y: 150), pointer: pointer)?.target === view)
        }
        #expect(other.log == ["began 2", "moved 2", "ended 2"])
        #expect(side.log == ["began 3", "moved 3", "ended 3"])
        #expect(button.log == ["began 1", "cancelled 1"])
        #expect(ui.views.allSatisfy { $0.cancellations.count <= 1 })
    }

    @Test(
        "an old view whose cancelled call changes the tree or takes over again: each view is told once, the old view not again",
        arguments: TakeOverScript.fromTheCancelledCall)
    func fromTheCancelledCall(_ script: TakeOverScript) async throws {
        try await script.run()
    }

    @Test(
        "a scroll view claims a drag begun on a button: the button drops its highlight and the release does not trigger it"
    )
    func scrollViewClaimsAButtonDrag() async throws {
        let ui = takeOverScene()
        let buy = Button(frame: Rect(x: 200, y: 10, width: 80, height: 80), title: "Buy")
        ui["row"].addSubview(buy)
        buy.addChainEvent(for: .tap) { _ in UIFixtures.AddToCart(sku: "A-1") }
        let inside = ui.middle(of: buy)
        try await ui.begin(on: buy)
        try #require(await ui.window.dispatch(.moved, at: inside) != nil)
        #expect(buy.isHighlighted)

        try ui["scroll"].takeOver(.primary)

        #expect(!buy.isHighlighted)
        // The button handles its cancelled (and stopped every phase before): the row hears nothing.
        #expect(ui["row"].log.isEmpty)
        let released = try #require(await ui.window.dispatch(.ended, at: inside))
        #expect(released.target === ui["scroll"])
        #expect(released.triggered.isEmpty)
        #expect(buy.lastOutcomes.isEmpty)
        #expect(!buy.isHighlighted)
        #expect(ui["scroll"].log == ["ended 0"])
    }

    @Test(
        "the take-over's cancelled is a send from the old view: the handlers below the taker see it hop by hop, capture ones too; the taker's hop ends it handled, running nothing"
    )
    func cancelledThroughTheChain() async throws {
        let ui = takeOverScene(runsCapturePhase: true)
        var seen: [String] = []
        for label in ["button", "row", "scroll", "outer"] {
            ui[label].strategies.on(PointerEvent.self) { view, pointer, context in
                seen.append("\(view.label) \(pointer.phase) hop \(context.hop)")
                return .pass
            }
        }
        for label in ["row", "outer"] {
            ui[label].strategies.on(PointerEvent.self, phase: .capture) { view, pointer, context in
                seen.append("\(view.label) captures \(pointer.phase) hop \(context.hop)")
                return .pass
            }
        }
        try await ui.begin(on: ui["button"])
        seen.removeAll()
        ui.scene.recorder.reset()

        try ui["scroll"].takeOver(.primary)

        // The capture pass reads the chain up to the delegate, an actor, before the first hop:
        // the send goes on after `takeOver` returns. Wait for its end.
        try await waitUntil("the cancelled ended") { !ui.scene.recorder.finished.isEmpty }
        // The capture pass visits outer (above the taker: skipped, its handler unrun), then row;
        // the bubble goes button, row, then ends at the taker, whose handlers and method never
        // run.
        #expect(seen == ["row captures cancelled hop 2", "button cancelled hop 3", "row cancelled hop 4"])
        #expect(
            ui.phases() == [
                "button": "began cancelled", "row": "began cancelled", "scroll": "began", "outer": "began",
            ])
        #expect(ui.scene.recorder.labels == ["outer", "row", "button", "row", "scroll"])
        let outcome = try #require(ui.scene.recorder.finished.last)
        #expect(outcome.handledDetails?.stoppedAt == ResponderID(ui["scroll"]))
        #expect(outcome.handlers == [ResponderID(ui["scroll"])])
        #expect(await ui.scene.delegate.seen == ["PointerEvent.began"])
        // The began, unhandled at the delegate, is the only letter.
        #expect(ui.letters.outcomes.map(\.kind) == [.unhandled])
    }

    @Test(
        "a subtree that handles its own pointer events hides the drag from a bubble handler above it; a capture handler, in a system with the capture pass, sees it first and takes it over",
        arguments: [false, true])
    func takeOverFromCapture(inCapture: Bool) async throws {
        let ui = takeOverScene(runsCapturePhase: inCapture)
        var scrollSaw: [String] = []
        // The row handles its own began, moved and ended: none bubbles on. (Its recording
        // `pointerCancelled` runs for the cancelled it passes.)
        ui["row"].strategies.on(PointerEvent.self) { _, pointer, _ in
            pointer.phase == .cancelled ? .pass : .handled
        }
        let takeOver: (View, PointerEvent) throws -> Disposition = { scroll, pointer in
            scrollSaw.append("\(pointer.phase)")
            guard pointer.phase == .moved else { return .pass }
            try scroll.takeOver(pointer.pointer)  // the row is told `cancelled` (.takenOver)
            return .handled
        }
        if inCapture {
            ui["scroll"].strategies.on(PointerEvent.self, phase: .capture) { scroll, pointer, _ in
                try takeOver(scroll, pointer)
            }
        } else {
            ui["scroll"].strategies.on(PointerEvent.self) { scroll, pointer, _ in
                try takeOver(scroll, pointer)
            }
        }
        try await ui.begin(on: ui["button"])
        let moved = try #require(await ui.window.dispatch(.moved, at: Point(x: 60, y: 160)))

        if inCapture {
            #expect(scrollSaw == ["began", "moved"])  // the capture pass visits it first
            // The moved that called takeOver is withdrawn, as every phase under way is.
            #expect(moved.outcome.cancelledDetails?.reason == .withdrawn, "\(moved.outcome)")
            // The row's cancelled is a send of its own: wait for its end.
            try await waitUntil("the row was told cancelled") { ui.reasons()["row"] != nil }
            #expect(ui.reasons()["row"] == [.takenOver])
            let next = try #require(await ui.window.dispatch(.moved, at: Point(x: 70, y: 170)))
            #expect(next.target === ui["scroll"])
        } else {
            #expect(scrollSaw.isEmpty, "the row handled every phase: none bubbled to the scroll view")
            #expect(moved.outcome.handledDetails?.stoppedAt == ResponderID(ui["row"]), "\(moved.outcome)")
            #expect(ui.reasons()["row"] == nil)
        }
    }

    @Test(
        "random take-overs, tree changes and parked handlers: each view sees its phases in order, every view a sequence was bound to sees exactly one end",
        .timeLimit(.minutes(2)))
    func randomTakeOvers() async {
        var takeOvers = 0
        var refusals = 0
        let failures = await failuresOfStorms(TakeOverStorm.self) { storm in
            takeOvers += storm.takeOvers
            refusals += storm.refusals
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
private final class TakeOverStorm: SeededStorm {
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
        driver.rig(
            parkChance: 30,
            bound: { [unowned self] pointer, view in bound[pointer, default: []].insert(view) },
            onPointer: { [unowned self] pointer in
                if tree.random.chance(20) { tree.interfere() }
                if tree.random.chance(25) { takeOver(near: pointer.pointer) }
            },
            inHandler: { [unowned self] pointer in
                if tree.random.chance(20) { takeOver(near: pointer.pointer) }
            })
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
        driver.tearDown()
    }
}
