/// Recognizes a press held still: pointers down for at least ``minimumPressDuration`` without
/// moving more than ``allowableMovement``. Continuous: `began` when the duration is reached,
/// `changed` as the pointers then move (as far as they like), `ended` when one lifts.
///
/// ```swift
/// let press = LongPressGestureRecognizer(label: "menu", minimumPressDuration: .milliseconds(500))
/// press.addChainEvent { press in press.state == .began ? ShowMenu(at: press.location(in: nil)) : nil }
/// row.addGestureRecognizer(press)
/// ```
///
/// It fails when a pointer lifts or moves too far before the duration, or when more pointers
/// than ``numberOfPointersRequired`` go down. Time is the clock of the window's
/// event system (`EventSystem(clock:)`).
@MainActor
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the pointers must stay down.
    public final var minimumPressDuration: Duration
    /// How many pointers press (at least 1).
    public final var numberOfPointersRequired: Int
    /// How far, in points, a pointer may move before the press is recognized: it fails once one
    /// is strictly further (a threshold is crossed only by going past it, as for every
    /// recognizer here).
    public final var allowableMovement = 10.0

    private var starts: [PointerID: Point] = [:]

    /// A long press recognizer named `label`.
    public init(
        label: String? = nil, minimumPressDuration: Duration = .milliseconds(500),
        numberOfPointersRequired: Int = 1
    ) {
        self.minimumPressDuration = minimumPressDuration
        self.numberOfPointersRequired = max(1, numberOfPointersRequired)
        super.init(label: label)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        guard state == .possible else { return }
        starts[pointer.pointer] = pointer.location
        if starts.count > numberOfPointersRequired {
            state = .failed
        } else if starts.count == numberOfPointersRequired, minimumPressDuration <= .zero {
            // Decided at the down: it wins there, before the views hear of the sequence (an
            // eager winner, as Flutter's arena resolves one when it closes), not at the next
            // turn of the clock.
            state = .began
        } else if starts.count == numberOfPointersRequired {
            schedule(after: minimumPressDuration) { [weak self] in
                guard let self, self.state == .possible,
                    self.numberOfPointers == self.numberOfPointersRequired
                else { return }
                self.state = .began
            }
        }
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        switch state {
        case .possible:
            if let start = starts[pointer.pointer], start.distance(to: pointer.location) > allowableMovement {
                state = .failed
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        switch state {
        case .possible: state = .failed  // lifted too early
        case .began, .changed: state = .ended
        default: break
        }
    }

    open override func reset() {
        starts = [:]
    }
}
