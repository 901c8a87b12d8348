/// Recognizes a swipe: pointers that move further than ``minimumDistance`` in one of the allowed
/// ``direction``s within ``maximumDuration``. Discrete: it recognizes as soon as the distance is
/// covered, and ``recognizedDirection`` says which way.
///
/// ```swift
/// let swipe = SwipeGestureRecognizer(label: "dismiss", direction: [.left, .right])
/// swipe.addChainEvent { swipe in Dismissed(towards: swipe.recognizedDirection) }
/// card.addGestureRecognizer(swipe)
/// ```
///
/// The way a swipe goes is its main axis: the larger of its horizontal and vertical
/// components. It fails when it goes more than 10 points along a direction that is not allowed,
/// when it lifts before covering the distance, when the time is up, or when more pointers than
/// ``numberOfPointersRequired`` go down.
@MainActor
open class SwipeGestureRecognizer: GestureRecognizer {
    /// The directions that count.
    public final var direction: SwipeDirection
    /// How many pointers swipe together (at least 1).
    public final var numberOfPointersRequired: Int
    /// How far, in points, the swipe must go: it recognizes once it is strictly further than
    /// this along its direction (a threshold is crossed only by going past it, as for every
    /// recognizer here).
    public final var minimumDistance = 50.0
    /// How long the swipe may take, from its first pointer down.
    public final var maximumDuration: Duration = .milliseconds(500)

    /// The direction of the recognized swipe; `nil` until it is recognized.
    public private(set) final var recognizedDirection: SwipeDirection?

    private var start: Point?

    /// A swipe recognizer named `label` for the `direction`s given.
    public init(label: String? = nil, direction: SwipeDirection = .right, numberOfPointersRequired: Int = 1) {
        self.direction = direction
        self.numberOfPointersRequired = max(1, numberOfPointersRequired)
        super.init(label: label)
    }

    open override func pointerBegan(_ pointer: PointerEvent) {
        guard state == .possible else { return }
        if numberOfPointers == 1 {
            schedule(after: maximumDuration) { [weak self] in
                guard let self, self.state == .possible else { return }
                self.state = .failed  // too slow
            }
        }
        if numberOfPointers > numberOfPointersRequired {
            state = .failed
        } else if numberOfPointers == numberOfPointersRequired {
            start = location(in: nil)
        }
    }

    open override func pointerMoved(_ pointer: PointerEvent) {
        guard state == .possible, let start, numberOfPointers == numberOfPointersRequired else { return }
        let end = location(in: nil)
        let dx = end.x - start.x
        let dy = end.y - start.y
        let (way, along): (SwipeDirection, Double) =
            abs(dx) >= abs(dy) ? (dx >= 0 ? .right : .left, abs(dx)) : (dy >= 0 ? .down : .up, abs(dy))
        if direction.contains(way) {
            guard along > minimumDistance else { return }
            recognizedDirection = way
            state = .recognized
        } else if along > 10 {
            state = .failed  // the wrong way
        }
    }

    open override func pointerEnded(_ pointer: PointerEvent) {
        if state == .possible { state = .failed }  // lifted short of the distance
    }

    open override func reset() {
        start = nil
        recognizedDirection = nil
    }
}
