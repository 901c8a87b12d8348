import ResponderChain
import ResponderChainTesting
import ResponderUI
import Testing

/// The window of every scenario here: two views side by side and a panel holding two more, and a
/// `holder` in the application's other window.
///
/// Window coordinates: `left` 0…100 × 0…100, `right` 200…300 × 0…100, `panel` 0…300 × 200…400
/// holding `knob` 10…60 × 210…260 and `dial` 100…150 × 210…260; `holder` 0…200 × 0…200 in
/// `another`.
@MainActor
private func cancellationScene() -> LabelledPointerScene {
    LabelledPointerScene([
        .init(label: "left", frame: Rect(x: 0, y: 0, width: 100, height: 100), parent: nil),
        .init(label: "right", frame: Rect(x: 200, y: 0, width: 100, height: 100), parent: nil),
        .init(label: "panel", frame: Rect(x: 0, y: 200, width: 300, height: 200), parent: nil),
        .init(label: "knob", frame: Rect(x: 10, y: 10, width: 50, height: 50), parent: "panel"),
        .init(label: "dial", frame: Rect(x: 100, y: 10, width: 50, height: 50), parent: "panel"),
        .init(label: "holder", frame: Rect(x: 0, y: 0, width: 200, height: 200), parent: "another"),
    ])
}

/// One row of the re-entrant table: pointers 1, 2, … begin on the views `begun` names, every view
/// handles every pointer event, some views change the tree from inside their pointer calls, then
/// the test sets it off; each sequence must end once, each bound view be told once.
struct ReentrantScenario: Sendable, CustomTestStringConvertible {
    /// A view's pointer call for `phase` makes `changes`, in order.
    struct Reaction: Sendable {
        let view: String
        let phase: PointerPhase
        let changes: [TreeChange]
    }

    /// What the test does once the sequences are under way.
    enum Trigger: Sendable {
        /// Changes the tree.
        case change(TreeChange)
        /// Sends `phase` of `pointer` at `location`; the view labelled `target` must get it.
        case send(PointerPhase, pointer: Int, at: Point, target: String)
    }

    let name: String
    /// The views pointers 1, 2, … begin on.
    let begun: [String]
    let reactions: [Reaction]
    let trigger: Trigger
    /// The views told `cancelled`, in the order they are told.
    let told: [String]
    /// Every view's log afterwards; views not named log nothing.
    let logs: [String: [String]]
    /// Every view's cancellation reasons; views not named are never told.
    let reasons: [String: [PointerCancellation]]
    /// The phases sent afterwards for each begun pointer, each of which must find no sequence.
    var probes: [PointerPhase] = [.ended]

    var testDescription: String { name }

    static let table: [ReentrantScenario] = [
        ReentrantScenario(
            name:
                "a view whose cancellation removes another bound view while the window is detached: that view is told once",
            begun: ["left", "right"],
            reactions: [Reaction(view: "left", phase: .cancelled, changes: [.remove("right")])],
            trigger: .change(.detachWindow),
            told: ["left", "right"],
            logs: ["left": ["began 1", "cancelled 1"], "right": ["began 2", "cancelled 2"]],
            reasons: ["left": [.windowDetached], "right": [.windowDetached]]),
        ReentrantScenario(
            name:
                "a view whose cancellation detaches the window while a common ancestor is removed: its sibling is told once",
            begun: ["knob", "dial", "left"],
            reactions: [Reaction(view: "knob", phase: .cancelled, changes: [.detachWindow])],
            trigger: .change(.remove("panel")),
            told: ["knob", "left", "dial"],
            logs: [
                "knob": ["began 1", "cancelled 1"], "dial": ["began 2", "cancelled 2"],
                "left": ["began 3", "cancelled 3"],
            ],
            reasons: ["knob": [.viewLeftWindow], "dial": [.viewLeftWindow], "left": [.windowDetached]]),
        ReentrantScenario(
            name:
                "a view whose cancellation removes its own ancestor while the window is detached: the bound views under it are told once",
            begun: ["knob", "dial"],
            reactions: [Reaction(view: "knob", phase: .cancelled, changes: [.remove("panel")])],
            trigger: .change(.detachWindow),
            told: ["knob", "dial"],
            logs: ["knob": ["began 1", "cancelled 1"], "dial": ["began 2", "cancelled 2"]],
            reasons: ["knob": [.windowDetached], "dial": [.windowDetached]]),
        // The panel's sequences (1, 2) are claimed first; knob's call detaches the window, which
        // claims what is left (3, 4) and tells those before the outer loop goes on to dial.
        ReentrantScenario(
            name:
                "cancellations nested three deep tell each bound view once, lowest pointer first within each",
            begun: ["knob", "dial", "left", "right"],
            reactions: [
                Reaction(view: "knob", phase: .cancelled, changes: [.detachWindow]),
                Reaction(view: "left", phase: .cancelled, changes: [.remove("left")]),
            ],
            trigger: .change(.remove("panel")),
            told: ["knob", "left", "right", "dial"],
            logs: [
                "knob": ["began 1", "cancelled 1"], "dial": ["began 2", "cancelled 2"],
                "left": ["began 3", "cancelled 3"], "right": ["began 4", "cancelled 4"],
            ],
            reasons: [
                "knob": [.viewLeftWindow], "dial": [.viewLeftWindow], "left": [.windowDetached],
                "right": [.windowDetached],
            ]),
        ReentrantScenario(
            name:
                "an ended whose handler removes views bound to other sequences: each is told once, the ended view never",
            begun: ["left", "knob", "dial"],
            reactions: [
                Reaction(view: "left", phase: .ended, changes: [.remove("panel")]),
                Reaction(view: "knob", phase: .cancelled, changes: [.detachWindow]),
            ],
            trigger: .send(.ended, pointer: 1, at: Point(x: 20, y: 20), target: "left"),
            told: ["knob", "dial"],
            logs: [
                "left": ["began 1", "ended 1"], "knob": ["began 2", "cancelled 2"],
                "dial": ["began 3", "cancelled 3"],
            ],
            reasons: ["knob": [.viewLeftWindow], "dial": [.viewLeftWindow]]),
        ReentrantScenario(
            name: "a moved whose handler removes other bound views and its own view: each sequence ends once",
            begun: ["left", "knob", "dial"],
            reactions: [
                Reaction(view: "left", phase: .moved, changes: [.remove("panel"), .remove("left")]),
                Reaction(view: "knob", phase: .cancelled, changes: [.detachWindow]),
            ],
            trigger: .send(.moved, pointer: 1, at: Point(x: 30, y: 30), target: "left"),
            told: ["knob", "left", "dial"],
            logs: [
                "left": ["began 1", "moved 1", "cancelled 1"], "knob": ["began 2", "cancelled 2"],
                "dial": ["began 3", "cancelled 3"],
            ],
            reasons: ["knob": [.viewLeftWindow], "left": [.windowDetached], "dial": [.viewLeftWindow]],
            probes: [.moved, .ended]),
        ReentrantScenario(
            name: "an ended whose handler removes its own view: the view gets no cancellation after it",
            begun: ["knob"],
            reactions: [Reaction(view: "knob", phase: .ended, changes: [.remove("panel")])],
            trigger: .send(.ended, pointer: 1, at: Point(x: 20, y: 220), target: "knob"),
            told: [],
            logs: ["knob": ["began 1", "ended 1"]],
            reasons: [:]),
    ]
}

/// One row of the in-flight table: the knob's handler parks the first `parked` event of the
/// primary pointer's sequence (begun on the knob first when `parked` is not `began`); while it is
/// parked the test interferes; once let go, the parked event must come back withdrawn, and no
/// responder may see it after the interference.
struct InFlightScenario: Sendable, CustomTestStringConvertible {
    /// What the test does while the event is parked.
    enum Interference: Sendable {
        /// Changes the tree.
        case change(TreeChange)
        /// Sends `phase` of the primary pointer at `location`; its outcome must be of `kind`.
        case send(PointerPhase, at: Point, kind: Outcome.Kind)
    }

    let name: String
    let parked: PointerPhase
    /// Where the parked event is sent.
    let location: Point
    let interference: Interference
    /// Every view's log right after the interference, before the parked event is let go, when
    /// checked; views not named log nothing.
    var logsWhileParked: [String: [String]]? = nil
    let withdrawal: Withdrawal
    /// Every view's log once the parked event came back; views not named log nothing.
    let logs: [String: [String]]
    /// Every view's cancellation reasons; views not named are never told.
    let reasons: [String: [PointerCancellation]]
    /// The locations of the `moved` events the panel's handler saw.
    var panelMoves: [Double] = []
    /// The kinds of the application's dead letters.
    let letters: [Outcome.Kind]
    /// The events that reached the application's delegate, when checked.
    var delegateSaw: [String]? = nil
    /// The responders the events visited, when checked.
    var hops: [String]? = nil
    /// Every view's log once an `ended` sent after the parked event came back was delivered, when
    /// the sequence goes on; `nil` when the sequence must be over.
    var thenEnded: [String: [String]]? = nil

    var testDescription: String { name }

    static let table: [InFlightScenario] = [
        // Nobody sees the began after its cancellation: not the knob (its handler passed, but its
        // `pointerBegan` is not called), not the panel above it.
        InFlightScenario(
            name:
                "a began parked in its handler when the bound view's ancestor is removed is withdrawn: cancelled is the last thing anyone sees",
            parked: .began, location: Point(x: 20, y: 220), interference: .change(.remove("panel")),
            logsWhileParked: ["knob": ["cancelled 0"], "panel": ["cancelled 0"]],
            withdrawal: Withdrawal(at: "panel", hop: 2, whileHandling: false),
            logs: ["knob": ["cancelled 0"], "panel": ["cancelled 0"]],
            reasons: ["knob": [.viewLeftWindow], "panel": [.viewLeftWindow]],
            letters: [], hops: ["knob"]),
        // The began ended unhandled at the delegate; so did the cancelled, which went up the
        // knob's new chain (holder, the other window, the application) to the delegate. The
        // withdrawn moved was not dead-lettered.
        InFlightScenario(
            name:
                "a moved parked in its handler when the bound view moves to another window is withdrawn: its new ancestors see cancelled last",
            parked: .moved, location: Point(x: 30, y: 230),
            interference: .change(.move("knob", into: "holder")),
            withdrawal: Withdrawal(at: "holder"),
            logs: ["knob": ["began 0", "cancelled 0"], "holder": ["cancelled 0"], "panel": ["began 0"]],
            reasons: ["knob": [.viewLeftWindow], "holder": [.viewLeftWindow]],
            letters: [.unhandled, .unhandled],
            delegateSaw: ["PointerEvent.began", "PointerEvent.cancelled"]),
        // The began and the ended reached the delegate (unhandled); the withdrawn moved did not,
        // and was not dead-lettered.
        InFlightScenario(
            name:
                "an ended sent while a moved of its sequence is parked withdraws the moved: no responder sees it after the ended",
            parked: .moved, location: Point(x: 30, y: 230),
            interference: .send(.ended, at: Point(x: 40, y: 240), kind: .unhandled),
            withdrawal: Withdrawal(at: "panel"),
            logs: ["knob": ["began 0", "ended 0"], "panel": ["began 0", "ended 0"]],
            reasons: [:],
            letters: [.unhandled, .unhandled], delegateSaw: ["PointerEvent.began", "PointerEvent.ended"]),
        // The sequence goes on: the withdrawn move does not end it.
        InFlightScenario(
            name:
                "a moved sent while an earlier moved of its sequence is parked withdraws it: moves arrive in order",
            parked: .moved, location: Point(x: 30, y: 230),
            interference: .send(.moved, at: Point(x: 40, y: 240), kind: .unhandled),
            withdrawal: Withdrawal(at: "panel"),
            logs: ["knob": ["began 0", "moved 0"], "panel": ["began 0", "moved 0"]],
            reasons: [:], panelMoves: [40],
            letters: [.unhandled, .unhandled],
            thenEnded: [
                "knob": ["began 0", "moved 0", "ended 0"], "panel": ["began 0", "moved 0", "ended 0"],
            ]),
    ]
}

/// Every `began` gets exactly one `ended` or `cancelled`, and nothing after it, when the views'
/// own pointer calls remove bound views or detach the window while the window is cancelling or
/// delivering.
@Suite("Pointer cancellation under re-entrant tree changes", .timeLimit(.minutes(2)))
@MainActor
struct PointerCancellationTests {
    @Test(
        "pointer calls that remove bound views or detach the window while the window cancels or delivers: each sequence ends once, each bound view is told once, in order",
        arguments: ReentrantScenario.table)
    func reentrantChanges(_ scenario: ReentrantScenario) async throws {
        let ui = cancellationScene()
        for view in ui.views { view.pointerDisposition = .handled }
        for (index, label) in scenario.begun.enumerated() {
            try await ui.begin(PointerID(index + 1), on: ui[label])
        }
        var told: [String] = []
        for view in ui.views {
            let label = view.label
            let reactions = scenario.reactions.filter { $0.view == label }
            view.onPointer = { [unowned ui] pointer in
                if pointer.phase == .cancelled { told.append(label) }
                for reaction in reactions where reaction.phase == pointer.phase {
                    for change in reaction.changes { ui.apply(change) }
                }
            }
        }

        switch scenario.trigger {
        case .change(let change): ui.apply(change)
        case .send(let phase, let pointer, let location, let target):
            let delivery = await ui.window.dispatch(phase, at: location, pointer: PointerID(pointer))
            #expect(delivery?.target === ui[target])
        }

        #expect(told == scenario.told)
        #expect(ui.logs() == scenario.logs)
        #expect(ui.reasons() == scenario.reasons)
        #expect(ui.views.flatMap { sequenceProblems(in: $0.log, of: $0.label) } == [])
        #expect(ui.window.activePointers.isEmpty)
        for phase in scenario.probes {
            for pointer in 1...scenario.begun.count {
                let delivery = await ui.window.dispatch(
                    phase, at: Point(x: 20, y: 20), pointer: PointerID(pointer))
                #expect(delivery == nil, "pointer \(pointer) still had a sequence")
            }
        }
        #expect(ui.logs() == scenario.logs, "a view was told something after its sequence ended")
    }

    @Test("random tree changes from inside pointer calls: every began gets exactly one ended or cancelled")
    func randomReentrantChanges() async {
        let failures = await failuresOfStorms(Storm.self)
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
    }

    // MARK: Events in flight

    @Test(
        "an event parked in its handler when its sequence is cancelled or a later phase is sent is withdrawn: no responder sees it after that",
        arguments: InFlightScenario.table)
    func inFlightWithdrawn(_ scenario: InFlightScenario) async throws {
        let ui = cancellationScene()
        let gate = Gate()
        var parkedOnce = false
        ui["knob"].strategies.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == scenario.parked, !parkedOnce {
                parkedOnce = true
                try await gate.pass()
            }
            return .pass
        }
        var panelMoves: [Double] = []
        ui["panel"].strategies.on(PointerEvent.self) { _, pointer, _ in
            if pointer.phase == .moved { panelMoves.append(pointer.location.x) }
            return .pass
        }
        if scenario.parked != .began {
            try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220))?.target === ui["knob"])
        }
        let parked = try await ui.window.dispatch(scenario.parked, at: scenario.location, parkingAt: gate)

        switch scenario.interference {
        case .change(let change): ui.apply(change)
        case .send(let phase, let location, let kind):
            let delivery = try #require(await ui.window.dispatch(phase, at: location))
            #expect(delivery.outcome.kind == kind)
        }
        if let logs = scenario.logsWhileParked { #expect(ui.logs() == logs) }
        gate.open()
        let delivery = try #require(await parked.value)

        #expect(delivery.target === ui["knob"])
        try ui.expectWithdrawn(delivery, scenario.withdrawal)
        #expect(ui.logs() == scenario.logs)
        #expect(ui.reasons() == scenario.reasons)
        #expect(panelMoves == scenario.panelMoves)
        // A cancellation's letter is delivered from its own send: wait for it.
        _ = try await ui.letters.waitForLetters(scenario.letters.count)
        #expect(ui.letters.outcomes.map(\.kind) == scenario.letters)
        if let seen = scenario.delegateSaw { #expect(await ui.scene.delegate.seen == seen) }
        if let hops = scenario.hops { #expect(ui.scene.recorder.labels == hops) }
        #expect(ui.another.activePointers.isEmpty)
        if let logs = scenario.thenEnded {
            #expect(ui.window.activePointers == [.primary])
            try #require(await ui.window.dispatch(.ended, at: Point(x: 40, y: 240)) != nil)
            #expect(ui.logs() == logs)
        } else {
            #expect(ui.window.activePointers.isEmpty)
        }
    }

    @Test("a send that finished leaves nothing to withdraw: a later cancellation does not touch its outcome")
    func finishedSendsAreForgotten() async throws {
        let ui = cancellationScene()
        let began = try #require(await ui.window.dispatch(.began, at: Point(x: 20, y: 220)))
        let moved = try #require(await ui.window.dispatch(.moved, at: Point(x: 30, y: 230)))
        ui.apply(.remove("panel"))
        #expect(began.outcome.kind == .unhandled)
        #expect(moved.outcome.kind == .unhandled)
        #expect(ui["knob"].log == ["began 0", "moved 0", "cancelled 0"])
        #expect(ui["panel"].log == ["began 0", "moved 0", "cancelled 0"])
    }

    @Test(
        "a cancellation is a send up the chain from the bound view: handlers see it hop by hop before the pointer methods, and it ends with an outcome"
    )
    func cancellationIsASend() async throws {
        let ui = cancellationScene()
        try await ui.begin(on: ui["knob"])
        var seen: [String] = []
        for label in ["knob", "panel"] {
            ui[label].strategies.on(PointerEvent.self) { view, pointer, context in
                seen.append("\(view.label) \(pointer.phase) hop \(context.hop)")
                return .pass
            }
        }
        ui.scene.recorder.reset()

        ui.apply(.detachWindow)

        #expect(seen == ["knob cancelled hop 1", "panel cancelled hop 2"])
        #expect(ui.logs() == ["knob": ["began 0", "cancelled 0"], "panel": ["began 0", "cancelled 0"]])
        // Nobody handled it: it went up to the detached window, where the chain ends.
        #expect(ui.scene.recorder.labels == ["knob", "panel", "rootView", "controller", "window"])
        // Its dead letter is delivered, then its end traced.
        let letters = try await ui.letters.waitForLetters(2)
        try await waitUntil("the cancelled ended") { !ui.scene.recorder.finished.isEmpty }
        #expect(ui.scene.recorder.finished.map(\.kind) == [.interrupted])
        #expect(ui.scene.recorder.finished.first?.interruptedDetails?.lastReached == ResponderID(ui.window))
        #expect(letters.map(\.outcome.kind) == [.unhandled, .interrupted])
        #expect(
            letters.last?.event as? PointerEvent
                == PointerEvent(
                    phase: .cancelled, location: ui.middle(of: ui["knob"]), cancellation: .windowDetached))
    }

    @Test(
        "a cancellation parked in a handler: the sequence is over at once, and the cancellation goes on up the chain when the handler resumes"
    )
    func parkedCancellation() async throws {
        let ui = cancellationScene()
        let gate = ui["knob"].parkPointerEvents(.cancelled)
        try await ui.begin(on: ui["knob"])

        ui.apply(.remove("panel"))

        try await gate.waitForArrivals(1)
        #expect(ui.window.activePointers.isEmpty)
        #expect(await ui.window.dispatch(.ended, at: Point(x: 20, y: 220)) == nil)
        #expect(ui.logs() == ["knob": ["began 0"], "panel": ["began 0"]])
        gate.open()
        try await waitUntil("the panel is told") { ui["panel"].log.count == 2 }
        #expect(ui.logs() == ["knob": ["began 0", "cancelled 0"], "panel": ["began 0", "cancelled 0"]])
        #expect(ui.reasons() == ["knob": [.viewLeftWindow], "panel": [.viewLeftWindow]])
    }

    @Test(
        "random tree changes and input while handlers are parked mid-flight: no responder sees a phase out of order or after the end",
        .timeLimit(.minutes(2))
    )
    func randomInFlightChanges() async {
        let failures = await failuresOfStorms(InFlightStorm.self)
        #expect(failures.isEmpty, "\(failures.count) seeds failed; first: \(failures.first ?? "")")
    }
}

/// One seeded run of pointer input over a ``RandomViewTree``, where every pointer call a view
/// gets may change the tree: remove a cell or a group, move a cell to another group or another
/// window, or detach the window.
@MainActor
private final class Storm: SeededStorm {
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
private final class InFlightStorm: SeededStorm {
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
        // A parked cancellation is `parkedCancellation`'s, not the storm's.
        driver.rig(
            parkChance: 35,
            bound: { [unowned self] pointer, view in bound[pointer] = view },
            onPointer: { [unowned tree] _ in
                if tree.random.chance(25) { tree.interfere() }
            })
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
        driver.tearDown()
    }
}
