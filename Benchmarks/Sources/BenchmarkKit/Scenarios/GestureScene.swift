import ResponderChainTesting
import ResponderUI

/// The window of scenario 6b: an application's window, a content view, a list and a cell in it
/// (a small tree), with the recognizers of one ``Variant`` on the list and the cell, and the
/// application's system on a `ManualClock` so that no real timer runs. ``drag(iterations:)``
/// dispatches the same drag each time: `began` on the cell, ``moves`` `moved` of 4 points to the
/// right, `ended`.
@MainActor
final class GestureScene {
    /// Which recognizers the list and the cell carry.
    enum Variant: CaseIterable {
        /// None: the window hit-tests, tracks the sequence and sends every phase to the cell.
        case noRecognizer
        /// A pan on the list whose `minimumDistance` is beyond the drag: it tracks every phase and
        /// fails at `ended`; it does not cancel touches, so the cell gets every phase.
        case panTracking
        /// A pan on the list that begins at the third move (12 points, past its default minimum
        /// distance of 10) and changes at every move after; it does not cancel touches, so the
        /// cell gets every phase.
        case panBegins
        /// A tap on the cell and a pan on the list, both cancelling touches: at the third move the
        /// tap fails (12 points beyond its allowable 10) and the pan begins and claims the
        /// sequence; the cell is told `cancelled` and gets nothing after, so the rest of the drag
        /// costs the recognizers only.
        case tapFailsPanClaims

        var name: String {
            switch self {
            case .noRecognizer: return "no recognizer (baseline)"
            case .panTracking: return "pan on an ancestor, never begins, cancelsTouchesInView false"
            case .panBegins: return "pan on an ancestor, begins at move 3, cancelsTouchesInView false"
            case .tapFailsPanClaims: return "tap on the view fails, pan on an ancestor claims at move 3"
            }
        }
    }

    /// A view that handles every pointer phase it gets, and counts them by phase.
    final class CountingView: View {
        /// The phases it got, as `[began, moved, ended, cancelled]`.
        private(set) var counts = [0, 0, 0, 0]

        override func pointerBegan(_ pointer: PointerEvent) -> Disposition { count(0) }
        override func pointerMoved(_ pointer: PointerEvent) -> Disposition { count(1) }
        override func pointerEnded(_ pointer: PointerEvent) -> Disposition { count(2) }
        override func pointerCancelled(_ pointer: PointerEvent) -> Disposition { count(3) }

        private func count(_ phase: Int) -> Disposition {
            counts[phase] += 1
            return .handled
        }
    }

    /// The `moved` phases of a drag.
    static let moves = 30
    /// The pointer events of a drag: `began`, the moves, `ended`.
    static var eventsPerDrag: Int { moves + 2 }
    /// How far each move goes to the right, in points.
    static let step = 4.0
    /// How far the clock advances before each pointer event (a 125 Hz digitizer).
    static let interval = Duration.milliseconds(8)

    let variant: Variant
    /// The application, on a system of its own whose clock is ``clock``.
    let application: Application
    let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 800))
    let list = View(frame: Rect(x: 0, y: 0, width: 400, height: 800), label: "list")
    let cell = CountingView(frame: Rect(x: 0, y: 100, width: 400, height: 60), label: "cell")
    /// The clock of the application's system: the recognizers' time and timers.
    let clock: ManualClock
    let pan: PanGestureRecognizer?
    let tap: TapGestureRecognizer?

    init(_ variant: Variant) {
        self.variant = variant
        let clock = ManualClock()
        self.clock = clock
        application = Application(system: EventSystem(clock: clock), label: "bench")
        let content = View(frame: Rect(x: 0, y: 0, width: 400, height: 800), label: "content")
        window.addSubview(content)
        content.addSubview(list)
        list.addSubview(cell)
        application.addWindow(window)
        switch variant {
        case .noRecognizer:
            pan = nil
            tap = nil
        case .panTracking, .panBegins:
            let pan = PanGestureRecognizer(label: "pan")
            pan.cancelsTouchesInView = false
            if variant == .panTracking { pan.minimumDistance = 10_000 }
            list.addGestureRecognizer(pan)
            self.pan = pan
            tap = nil
        case .tapFailsPanClaims:
            let pan = PanGestureRecognizer(label: "pan")
            let tap = TapGestureRecognizer(label: "tap")
            list.addGestureRecognizer(pan)
            cell.addGestureRecognizer(tap)
            self.pan = pan
            self.tap = tap
        }
    }

    /// Where the drag starts, in window coordinates.
    private static let start = Point(x: 20, y: 130)

    /// Dispatches one drag; returns how many phases reached the cell as the window's deliveries
    /// (a `cancelled` told to it is not one).
    func dragOnce() async -> Int {
        var delivered = 0
        await clock.advance(by: Self.interval)
        if await window.dispatch(.began, at: Self.start) != nil { delivered += 1 }
        for move in 1...Self.moves {
            await clock.advance(by: Self.interval)
            let location = Point(x: Self.start.x + Double(move) * Self.step, y: Self.start.y)
            if await window.dispatch(.moved, at: location) != nil { delivered += 1 }
        }
        await clock.advance(by: Self.interval)
        let end = Point(x: Self.start.x + Double(Self.moves) * Self.step, y: Self.start.y)
        if await window.dispatch(.ended, at: end) != nil { delivered += 1 }
        return delivered
    }

    /// `iterations` drags, timed per pointer event: the figure is ns per event dispatched.
    func drag(iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for _ in 0..<iterations {
            checksum &+= UInt64(await dragOnce())
        }
        var timed = stopwatch.stop(iterations: iterations, checksum: checksum)
        timed.iterations = iterations * Self.eventsPerDrag
        return timed
    }

    /// Runs one drag and checks what the cell got and how the recognizers' attempts ended, and
    /// that nothing of the drag is left in the window or the recognizers.
    func check() async throws {
        let before = cell.counts
        let delivered = await dragOnce()
        let got = zip(cell.counts, before).map { $0 - $1 }
        let expected: [Int]
        let expectedDeliveries: Int
        switch variant {
        case .noRecognizer, .panTracking, .panBegins:
            expected = [1, Self.moves, 1, 0]
            expectedDeliveries = Self.eventsPerDrag
        case .tapFailsPanClaims:
            expected = [1, 2, 0, 1]
            expectedDeliveries = 3
        }
        guard got == expected, delivered == expectedDeliveries else {
            throw BenchFailure(
                "6b (\(variant.name)): the cell got [began, moved, ended, cancelled] \(got) in "
                    + "\(delivered) deliveries, expected \(expected) in \(expectedDeliveries)")
        }
        let attempts = [pan?.lastAttempt, tap?.lastAttempt]
        let expectedAttempts: [GestureAttempt?]
        switch variant {
        case .noRecognizer:
            expectedAttempts = [nil, nil]
        case .panTracking:
            expectedAttempts = [GestureAttempt(state: .failed, reason: .notRecognized), nil]
        case .panBegins:
            expectedAttempts = [GestureAttempt(state: .ended, reason: .completed), nil]
        case .tapFailsPanClaims:
            expectedAttempts = [
                GestureAttempt(state: .ended, reason: .completed),
                GestureAttempt(state: .failed, reason: .notRecognized),
            ]
        }
        guard attempts == expectedAttempts else {
            throw BenchFailure(
                "6b (\(variant.name)): the attempts ended \(attempts), expected \(expectedAttempts)")
        }
        let states = [pan?.state, tap?.state].compactMap { $0 }
        guard window.activePointers.isEmpty, states.allSatisfy({ $0 == .possible }),
            clock.pendingTimerCount == 0
        else {
            throw BenchFailure(
                "6b (\(variant.name)): after the drag, pointers \(window.activePointers), states "
                    + "\(states), timers \(clock.pendingTimers.map { $0.purpose })")
        }
    }
}
