import ResponderChainTesting
import ResponderUI
import Testing

private typealias RecordingView = UIFixtures.RecordingView

/// A window with two views side by side and a panel holding two more, each of which handles
/// every pointer event it gets (so nothing bubbles and each log is that view's own).
///
/// Window coordinates: `left` 0…100 × 0…100, `right` 200…300 × 0…100, `panel` 0…300 × 200…400
/// holding `knob` 10…60 × 210…260 and `dial` 100…150 × 210…260.
@MainActor
private struct ReentrantScene {
    let scene = UIFixtures.Scene()
    let left = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), label: "left")
    let right = RecordingView(frame: Rect(x: 200, y: 0, width: 100, height: 100), label: "right")
    let panel = RecordingView(frame: Rect(x: 0, y: 200, width: 300, height: 200), label: "panel")
    let knob = RecordingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), label: "knob")
    let dial = RecordingView(frame: Rect(x: 100, y: 10, width: 50, height: 50), label: "dial")

    /// The scene's window.
    var window: Window { scene.window }

    init() {
        scene.controller.view.addSubview(left)
        scene.controller.view.addSubview(right)
        scene.controller.view.addSubview(panel)
        panel.addSubview(knob)
        panel.addSubview(dial)
        for view in [left, right, panel, knob, dial] { view.pointerDisposition = .handled }
    }

    /// Begins `pointer`'s sequence at the middle of `view` and checks it is bound there.
    func begin(_ pointer: Int, on view: View) async throws {
        let middle = view.convert(Point(x: view.bounds.width / 2, y: view.bounds.height / 2), to: nil)
        let delivery = try #require(await window.dispatch(.began, at: middle, pointer: PointerID(pointer)))
        try #require(delivery.target === view)
    }

    /// Sends `phase` for each of `pointers` and expects nothing to be sent: their sequences are
    /// over.
    func expectNoSequence(_ pointers: [Int], phase: PointerPhase = .ended) async {
        for pointer in pointers {
            let delivery = await window.dispatch(phase, at: Point(x: 20, y: 20), pointer: PointerID(pointer))
            #expect(delivery == nil, "pointer \(pointer) still had a sequence")
        }
    }
}

/// What is wrong with `log` (a ``UIFixtures/RecordingView`` log of views that handle every
/// pointer event): each pointer's entries must read `began`, any number of `moved`, then exactly
/// one `ended` or `cancelled`, and nothing after it. Empty when the log is right.
private func sequenceProblems(in log: [String], of view: String) -> [String] {
    var problems: [String] = []
    for (pointer, phases) in phasesByPointer(in: log) {
        let terminals = phases.filter { $0 == "ended" || $0 == "cancelled" }.count
        let wellFormed =
            phases.first == "began" && phases.dropFirst().dropLast().allSatisfy { $0 == "moved" }
            && terminals == 1 && (phases.last == "ended" || phases.last == "cancelled")
        if !wellFormed {
            problems.append("\(view), pointer \(pointer): \(phases.joined(separator: ", "))")
        }
    }
    return problems
}

/// A panel holding a knob, both passing every pointer event (so each phase bubbles from the knob
/// through the panel and on up), in an application whose dead letters are recorded. The knob's
/// handler can park one phase on a ``Gate``: that event is then in flight, parked at hop 1, while
/// the test changes the world.
///
/// Window coordinates: `panel` 0…300 × 200…400 holding `knob` 10…60 × 210…260.
@MainActor
private struct InFlightScene {
    /// The application system's dead letters.
    let letters: DeadLetterRecorder
    /// The application (with its delegate), window and root controller.
    let scene: UIFixtures.Scene
    /// The knob's superview, under the root view.
    let panel = RecordingView(frame: Rect(x: 0, y: 200, width: 300, height: 200), label: "panel")
    /// The view the tests' pointer sequences are bound to.
    let knob = RecordingView(frame: Rect(x: 10, y: 10, width: 50, height: 50), label: "knob")

    /// The scene's window.
    var window: Window { scene.window }

    init() {
        let letters = DeadLetterRecorder()
        self.letters = letters
        scene = UIFixtures.Scene(deadLetters: letters.sink)
        scene.controller.view.addSubview(panel)
        panel.addSubview(knob)
    }

    /// Makes the knob's handler park every `phase` event at `gate`, then pass.
    func park(_ phase: PointerPhase, at gate: Gate) {
        knob.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == phase { try await gate.pass() }
            return .pass
        }
    }

    /// Dispatches `phase` of the primary pointer at `location` from a task of its own, so the
    /// test goes on while the event is parked.
    func dispatchInTask(_ phase: PointerPhase, at location: Point) -> Task<PointerDelivery?, Never> {
        let window = window
        return Task { @MainActor in await window.dispatch(phase, at: location) }
    }
}

/// Every `began` gets exactly one `ended` or `cancelled`, and nothing after it, when the views'
/// own pointer calls remove bound views or detach the window while the window is cancelling or
/// delivering.
@Suite("Pointer cancellation under re-entrant tree changes", .timeLimit(.minutes(2)))
@MainActor
struct PointerCancellationTests {
    @Test(
        "a view whose cancellation removes another bound view while the window is detached: that view is told once"
    )
    func cancellationRemovesAnotherBoundView() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.left)
        try await ui.begin(2, on: ui.right)
        let right = ui.right
        ui.left.onPointer = { pointer in
            if pointer.phase == .cancelled { right.removeFromSuperview() }
        }

        ui.scene.app.removeWindow(ui.window)

        #expect(ui.left.log == ["began 1", "cancelled 1"])
        #expect(ui.right.log == ["began 2", "cancelled 2"])
        #expect(ui.left.cancellations == [.windowDetached])
        #expect(ui.right.cancellations == [.windowDetached])
        #expect(ui.window.activePointers.isEmpty)
        await ui.expectNoSequence([1, 2])
        #expect(ui.right.log == ["began 2", "cancelled 2"])
    }

    @Test(
        "a view whose cancellation detaches the window while a common ancestor is removed: its sibling is told once"
    )
    func cancellationDetachesTheWindow() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.knob)
        try await ui.begin(2, on: ui.dial)
        try await ui.begin(3, on: ui.left)
        let scene = ui.scene
        ui.knob.onPointer = { pointer in
            if pointer.phase == .cancelled { scene.app.removeWindow(scene.window) }
        }

        ui.panel.removeFromSuperview()

        #expect(ui.knob.log == ["began 1", "cancelled 1"])
        #expect(ui.dial.log == ["began 2", "cancelled 2"])
        #expect(ui.left.log == ["began 3", "cancelled 3"])
        #expect(ui.knob.cancellations == [.viewLeftWindow])
        #expect(ui.dial.cancellations == [.viewLeftWindow])
        #expect(ui.left.cancellations == [.windowDetached])
        #expect(ui.panel.log.isEmpty)
        #expect(ui.window.activePointers.isEmpty)
        await ui.expectNoSequence([1, 2, 3])
    }

    @Test(
        "a view whose cancellation removes its own ancestor while the window is detached: the bound views under it are told once"
    )
    func cancellationRemovesItsAncestor() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.knob)
        try await ui.begin(2, on: ui.dial)
        let panel = ui.panel
        ui.knob.onPointer = { pointer in
            if pointer.phase == .cancelled { panel.removeFromSuperview() }
        }

        ui.scene.app.removeWindow(ui.window)

        #expect(ui.knob.log == ["began 1", "cancelled 1"])
        #expect(ui.dial.log == ["began 2", "cancelled 2"])
        #expect(ui.dial.cancellations == [.windowDetached])
        #expect(ui.panel.log.isEmpty)
        #expect(ui.window.activePointers.isEmpty)
        await ui.expectNoSequence([1, 2])
    }

    @Test("cancellations nested three deep tell each bound view once, lowest pointer first within each")
    func nestedThreeDeep() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.knob)
        try await ui.begin(2, on: ui.dial)
        try await ui.begin(3, on: ui.left)
        try await ui.begin(4, on: ui.right)
        var told: [String] = []
        let scene = ui.scene
        let left = ui.left
        ui.knob.onPointer = { pointer in
            if pointer.phase == .cancelled {
                told.append("knob")
                scene.app.removeWindow(scene.window)
            }
        }
        ui.dial.onPointer = { pointer in
            if pointer.phase == .cancelled { told.append("dial") }
        }
        ui.left.onPointer = { pointer in
            if pointer.phase == .cancelled {
                told.append("left")
                left.removeFromSuperview()
            }
        }
        ui.right.onPointer = { pointer in
            if pointer.phase == .cancelled { told.append("right") }
        }

        ui.panel.removeFromSuperview()

        // The panel's sequences (1, 2) are claimed first; knob's call detaches the window, which
        // claims what is left (3, 4) and tells those before the outer loop goes on to dial.
        #expect(told == ["knob", "left", "right", "dial"])
        for view in [ui.knob, ui.dial, ui.left, ui.right] {
            #expect(view.log.filter { $0.hasPrefix("cancelled") }.count == 1, "\(view.label): \(view.log)")
        }
        #expect(ui.window.activePointers.isEmpty)
    }

    @Test(
        "an ended whose handler removes views bound to other sequences: each is told once, the ended view never"
    )
    func endedRemovesOtherBoundViews() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.left)
        try await ui.begin(2, on: ui.knob)
        try await ui.begin(3, on: ui.dial)
        let panel = ui.panel
        let scene = ui.scene
        ui.left.onPointer = { pointer in
            if pointer.phase == .ended { panel.removeFromSuperview() }
        }
        ui.knob.onPointer = { pointer in
            if pointer.phase == .cancelled { scene.app.removeWindow(scene.window) }
        }

        let ended = await ui.window.dispatch(.ended, at: Point(x: 20, y: 20), pointer: PointerID(1))

        #expect(ended?.target === ui.left)
        #expect(ui.left.log == ["began 1", "ended 1"])
        #expect(ui.knob.log == ["began 2", "cancelled 2"])
        #expect(ui.dial.log == ["began 3", "cancelled 3"])
        #expect(ui.window.activePointers.isEmpty)
        await ui.expectNoSequence([1, 2, 3])
    }

    @Test("a moved whose handler removes other bound views and its own view: each sequence ends once")
    func movedRemovesBoundViews() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.left)
        try await ui.begin(2, on: ui.knob)
        try await ui.begin(3, on: ui.dial)
        let panel = ui.panel
        let left = ui.left
        let scene = ui.scene
        ui.left.onPointer = { pointer in
            if pointer.phase == .moved {
                panel.removeFromSuperview()
                left.removeFromSuperview()
            }
        }
        ui.knob.onPointer = { pointer in
            if pointer.phase == .cancelled { scene.app.removeWindow(scene.window) }
        }

        let moved = await ui.window.dispatch(.moved, at: Point(x: 30, y: 30), pointer: PointerID(1))

        #expect(moved?.target === ui.left)
        #expect(ui.left.log == ["began 1", "moved 1", "cancelled 1"])
        #expect(ui.knob.log == ["began 2", "cancelled 2"])
        #expect(ui.dial.log == ["began 3", "cancelled 3"])
        #expect(ui.window.activePointers.isEmpty)
        await ui.expectNoSequence([1, 2, 3], phase: .moved)
        await ui.expectNoSequence([1, 2, 3])
        #expect(ui.left.log == ["began 1", "moved 1", "cancelled 1"])
    }

    @Test("an ended whose handler removes its own view: the view gets no cancellation after it")
    func endedRemovesItsOwnView() async throws {
        let ui = ReentrantScene()
        try await ui.begin(1, on: ui.knob)
        let panel = ui.panel
        ui.knob.onPointer = { pointer in
            if pointer.phase == .ended { panel.removeFromSuperview() }
        }

        await ui.window.dispatch(.ended, at: Point(x: 20, y: 220), pointer: PointerID(1))

        #expect(ui.knob.log == ["began 1", "ended 1"])
        #expect(ui.knob.cancellations.isEmpty)
        #expect(ui.window.activePointers.isEmpty)
    }

    @Test("random tree changes from inside pointer calls: every began gets exactly one ended or cancelled")
    func randomReentrantChanges() async {
        var failures: [String] = []
        for seed in UInt64(1)...300 {
            let storm = Storm(seed: seed)
            await storm.run()
            let problems = storm.problems()
            if !problems.isEmpty {
                failures.append("seed \(seed): \(problems) after \(storm.script)")
            }
            storm.tearDown()
        }
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
    }

    // MARK: Events in flight

    @Test(
        "a began parked in its handler when the bound view's ancestor is removed is withdrawn: cancelled is the last thing anyone sees"
    )
    func inFlightBeganWithdrawnOnRemoval() async throws {
        let ui = InFlightScene()
        let gate = Gate()
        ui.park(.began, at: gate)
        let dispatching = ui.dispatchInTask(.began, at: Point(x: 20, y: 220))
        try await gate.waitForArrivals(1)

        ui.panel.removeFromSuperview()
        #expect(ui.knob.log == ["cancelled 0"])
        #expect(ui.panel.log == ["cancelled 0"])
        gate.open()
        let delivery = try #require(await dispatching.value)

        // Nobody sees the began after its cancellation: not the knob (its handler passed, but its
        // `pointerBegan` is not called), not the panel above it.
        #expect(ui.knob.log == ["cancelled 0"])
        #expect(ui.panel.log == ["cancelled 0"])
        #expect(ui.scene.recorder.labels == ["knob"])
        #expect(delivery.target === ui.knob)
        let stop = try #require(delivery.outcome.cancelledDetails, "\(delivery.outcome)")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(ui.panel))
        #expect(stop.hop == 2)
        #expect(!stop.whileHandling)
        #expect(ui.letters.count == 0)
        #expect(ui.knob.cancellations == [.viewLeftWindow])
    }

    @Test(
        "a moved parked in its handler when the bound view moves to another window is withdrawn: its new ancestors see cancelled last"
    )
    func inFlightMovedWithdrawnOnMoveToAnotherWindow() async throws {
        let ui = InFlightScene()
        let other = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400), label: "other")
        let holder = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 200), label: "holder")
        other.addSubview(holder)
        ui.scene.app.addWindow(other)
        let gate = Gate()
        ui.park(.moved, at: gate)
        try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220))?.target === ui.knob)
        let moving = ui.dispatchInTask(.moved, at: Point(x: 30, y: 230))
        try await gate.waitForArrivals(1)

        holder.addSubview(ui.knob)
        gate.open()
        let delivery = try #require(await moving.value)

        #expect(ui.knob.log == ["began 0", "cancelled 0"])
        #expect(holder.log == ["cancelled 0"])
        #expect(ui.panel.log == ["began 0"])
        let stop = try #require(delivery.outcome.cancelledDetails, "\(delivery.outcome)")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(holder))
        // Only the began (unhandled at the delegate) was dead-lettered.
        #expect(ui.letters.outcomes.map(\.kind) == [.unhandled])
        #expect(other.activePointers.isEmpty)
    }

    @Test(
        "an ended sent while a moved of its sequence is parked withdraws the moved: no responder sees it after the ended"
    )
    func endedWithdrawsMovedInFlight() async throws {
        let ui = InFlightScene()
        let gate = Gate()
        ui.park(.moved, at: gate)
        try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220)) != nil)
        let moving = ui.dispatchInTask(.moved, at: Point(x: 30, y: 230))
        try await gate.waitForArrivals(1)

        let ended = try #require(await ui.window.dispatch(.ended, at: Point(x: 40, y: 240)))
        #expect(ended.outcome.kind == .unhandled)
        gate.open()
        let moved = try #require(await moving.value)

        #expect(ui.knob.log == ["began 0", "ended 0"])
        #expect(ui.panel.log == ["began 0", "ended 0"])
        let stop = try #require(moved.outcome.cancelledDetails, "\(moved.outcome)")
        #expect(stop.reason == .withdrawn)
        #expect(stop.responder == ResponderID(ui.panel))
        // The began and the ended reached the delegate (unhandled); the withdrawn moved did not,
        // and was not dead-lettered.
        #expect(ui.letters.outcomes.map(\.kind) == [.unhandled, .unhandled])
        #expect(await ui.scene.delegate.seen == ["PointerEvent.began", "PointerEvent.ended"])
        #expect(ui.window.activePointers.isEmpty)
    }

    @Test("a moved sent while an earlier moved of its sequence is parked withdraws it: moves arrive in order")
    func laterMoveWithdrawsEarlierMove() async throws {
        let ui = InFlightScene()
        let gate = Gate()
        ui.knob.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == .moved, pointer.location.x == 30 { try await gate.pass() }
            return .pass
        }
        var panelMoves: [Double] = []
        ui.panel.handlers.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == .moved { panelMoves.append(pointer.location.x) }
            return .pass
        }
        try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220)) != nil)
        let first = ui.dispatchInTask(.moved, at: Point(x: 30, y: 230))
        try await gate.waitForArrivals(1)

        let second = try #require(await ui.window.dispatch(.moved, at: Point(x: 40, y: 240)))
        gate.open()
        let withdrawn = try #require(await first.value)

        #expect(second.outcome.kind == .unhandled)
        #expect(withdrawn.outcome.cancelledDetails?.reason == .withdrawn)
        #expect(panelMoves == [40])
        #expect(ui.knob.log == ["began 0", "moved 0"])
        #expect(ui.panel.log == ["began 0", "moved 0"])
        // The sequence goes on: the withdrawn move does not end it.
        #expect(ui.window.activePointers == [.primary])
        try #require(await ui.window.dispatch(.ended, at: Point(x: 40, y: 240)) != nil)
        #expect(ui.panel.log == ["began 0", "moved 0", "ended 0"])
    }

    @Test("a send that finished leaves nothing to withdraw: a later cancellation does not touch its outcome")
    func finishedSendsAreForgotten() async throws {
        let ui = InFlightScene()
        let began = try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220)))
        let moved = try #require(await ui.window.dispatch(.moved, at: Point(x: 30, y: 230)))
        ui.panel.removeFromSuperview()
        #expect(began.outcome.kind == .unhandled)
        #expect(moved.outcome.kind == .unhandled)
        #expect(ui.knob.log == ["began 0", "moved 0", "cancelled 0"])
        #expect(ui.panel.log == ["began 0", "moved 0", "cancelled 0"])
    }

    @Test(
        "random tree changes and input while handlers are parked mid-flight: no responder sees a phase out of order or after the end",
        .timeLimit(.minutes(2))
    )
    func randomInFlightChanges() async {
        var failures: [String] = []
        for seed in UInt64(1)...300 {
            let storm = InFlightStorm(seed: seed)
            await storm.run()
            let problems = storm.problems()
            if !problems.isEmpty {
                failures.append("seed \(seed): \(problems) after \(storm.script)")
            }
            storm.tearDown()
        }
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
    }
}

/// One seeded run of pointer input over a ``RandomViewTree``, where every pointer call a view
/// gets may change the tree: remove a cell or a group, move a cell to another group or another
/// window, or detach the window.
@MainActor
private final class Storm {
    /// The grid, the generator and the script.
    let tree: RandomViewTree
    /// What happened, in order, for failure messages.
    var script: [String] { tree.script }
    /// The id of the next pointer to begin: each sequence has its own.
    private var nextPointer = 1

    /// The grid, attached, with every view handling pointer events and possibly interfering.
    init(seed: UInt64) {
        tree = RandomViewTree(seed: seed)
        for view in tree.views {
            view.pointerDisposition = .handled
            view.onPointer = { [unowned tree] _ in
                if tree.random.chance(50) { tree.interfere() }
            }
        }
    }

    /// Random input (began, moved, ended, input cancellation) and direct tree changes, then a
    /// final detach that cancels whatever is left.
    func run() async {
        let window = tree.scene.window
        for _ in 0..<tree.random.int(in: 3...14) {
            let active = window.activePointers
            let choice = active.isEmpty ? 0 : tree.random.int(in: 0...5)
            switch choice {
            case 0, 1:
                let pointer = PointerID(nextPointer)
                nextPointer += 1
                let location = tree.randomPlace()
                tree.script.append("began \(pointer.rawValue)")
                await window.dispatch(.began, at: location, pointer: pointer)
            case 2:
                let pointer = tree.random.pick(active)
                tree.script.append("moved \(pointer.rawValue)")
                await window.dispatch(.moved, at: Point(x: 1, y: 1), pointer: pointer)
            case 3:
                let pointer = tree.random.pick(active)
                tree.script.append("ended \(pointer.rawValue)")
                await window.dispatch(.ended, at: Point(x: 1, y: 1), pointer: pointer)
            case 4:
                let pointer = tree.random.pick(active)
                tree.script.append("cancelled \(pointer.rawValue)")
                await window.dispatch(.cancelled, at: Point(x: 1, y: 1), pointer: pointer)
            default:
                tree.interfere()
            }
        }
        tree.finalDetach()
    }

    /// Every view's sequences that are not `began`, `moved`…, one `ended` or `cancelled`; and
    /// sequences still in progress after the final detach.
    func problems() -> [String] {
        tree.views.flatMap { sequenceProblems(in: $0.log, of: $0.label) } + tree.stillActive()
    }

    /// Drops the views' hooks (they hold the tree).
    func tearDown() {
        for view in tree.views { view.onPointer = nil }
    }
}

/// What is wrong with `log` (a ``UIFixtures/RecordingView`` log) when phases may be withdrawn
/// mid-flight and may bubble past some views: for each pointer, whatever part of the sequence the
/// view saw must be in order (at most one `began`, first; at most one `ended` or `cancelled`,
/// last; `moved` in between), and the view the sequence was bound to, if it saw the `began`, must
/// have seen exactly one end. Empty when the log is right.
private func inFlightProblems(in log: [String], of view: String, bound: [String: String]) -> [String] {
    var problems: [String] = []
    for (pointer, phases) in phasesByPointer(in: log) {
        let isTerminal = { (phase: String) in phase == "ended" || phase == "cancelled" }
        let terminals = phases.filter(isTerminal).count
        let beganCount = phases.filter { $0 == "began" }.count
        var wellFormed =
            beganCount <= 1 && (beganCount == 0 || phases.first == "began")
            && terminals <= 1 && (terminals == 0 || isTerminal(phases.last ?? ""))
        if bound[pointer] == view, beganCount == 1, terminals != 1 { wellFormed = false }
        if !wellFormed {
            problems.append("\(view), pointer \(pointer): \(phases.joined(separator: ", "))")
        }
    }
    return problems
}

/// One seeded run of pointer input over a ``RandomViewTree`` where, besides the tree changes of
/// ``Storm``, any view's handler may park a pointer event mid-flight on a gate of its own: the
/// storm then sends more input, changes the tree, and opens parked gates in a random order, so
/// phases of one sequence overlap and sequences are cancelled or ended while some of their
/// events are parked.
@MainActor
private final class InFlightStorm {
    /// The grid, the generator and the script.
    let tree: RandomViewTree
    /// What happened, in order, for failure messages.
    var script: [String] { tree.script }
    /// The view each sequence was bound to (the one its `began` entered at hop 1), by pointer.
    var bound: [String: String] = [:]
    /// Sends the input, parks and lets go.
    private let driver: ParkingStormDriver

    /// The grid, attached; each view handles or passes pointer events (chosen by the seed),
    /// may park them, and may change the tree from its pointer methods.
    init(seed: UInt64) {
        tree = RandomViewTree(seed: seed)
        driver = ParkingStormDriver(tree: tree)
        for view in tree.views {
            view.pointerDisposition = tree.random.chance(40) ? .handled : .pass
            view.onPointer = { [unowned tree] _ in
                if tree.random.chance(25) { tree.interfere() }
            }
            view.handlers.on(PointerEvent.self) { [unowned self] view, pointer, context in
                if pointer.phase == .began, context.hop == 1 {
                    self.bound["\(pointer.pointer.rawValue)"] = view.label
                }
                if self.tree.random.chance(35) { try await self.driver.park(pointer, at: view) }
                return .pass
            }
        }
    }

    /// Random input, gate openings and direct tree changes; then a final detach that cancels
    /// whatever is left, and every parked event let go.
    func run() async {
        await driver.run()
    }

    /// Every view's sequences seen out of order or after their end, bound views left without an
    /// end, and sequences still in progress after the final detach.
    func problems() -> [String] {
        tree.views.flatMap { inFlightProblems(in: $0.log, of: $0.label, bound: bound) } + tree.stillActive()
    }

    /// Drops the views' hooks and handlers (they hold the tree and the storm).
    func tearDown() {
        for view in tree.views {
            view.onPointer = nil
            view.handlers.remove(PointerEvent.self)
        }
    }
}
