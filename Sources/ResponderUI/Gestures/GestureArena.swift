/// One pointer sequence's competition between the gesture recognizers that got its `began`:
/// Flutter's gesture arena, with UIKit's simultaneous recognition.
///
/// The rules, which ``GestureCoordinator`` applies:
/// - **First claim wins.** A member that claims the gesture (``GestureRecognizer/State/began``
///   or ``GestureRecognizer/State/recognized``) defeats every other member, except those that
///   may recognize with it (``GestureRecognizer/recognizesSimultaneously(with:)``).
/// - **The last one standing wins.** A member with no competitor left is unopposed: a
///   recognizer waiting for that (``GestureRecognizer/recognizeWhenUnopposed()``) recognizes.
/// - **Sweep.** Once the pointer is up, an arena that still has members is swept, unless one of
///   them holds it (a double tap between taps): the first member — the recognizer of the
///   deepest view, the first attached — wins, and defeats the others.
@MainActor
struct GestureArena {
    /// Tells this arena from the earlier ones of the same pointer.
    let id: Int
    /// The pointer.
    let pointer: PointerID
    /// The recognizers still competing, in the order they joined: deepest view first, each
    /// view's in the order they were attached. A member leaves when it is defeated or its
    /// attempt ends.
    private(set) var members: [GestureRecognizer]
    /// Every recognizer that got the `began`: they track the pointer until it lifts.
    private(set) var trackers: [GestureRecognizer]
    /// Whether the pointer is still down.
    var isPointerDown = true
    /// Where the pointer was last (window coordinates).
    var location = Point.zero

    /// An arena for `pointer` whose members are `members`, in order.
    init(id: Int, pointer: PointerID, members: [GestureRecognizer]) {
        self.id = id
        self.pointer = pointer
        self.members = members
        self.trackers = members
    }

    /// Whether `recognizer` still competes here.
    func contains(_ recognizer: GestureRecognizer) -> Bool {
        members.contains { $0 === recognizer }
    }

    /// Takes `recognizer`, starting a new attempt with this pointer, into the competition.
    mutating func rejoin(_ recognizer: GestureRecognizer) {
        if !contains(recognizer) { members.append(recognizer) }
        if !trackers.contains(where: { $0 === recognizer }) { trackers.append(recognizer) }
    }

    /// Takes `recognizer` out of the competition.
    mutating func remove(_ recognizer: GestureRecognizer) {
        members.removeAll { $0 === recognizer }
    }

    /// The members a claim by `winner` defeats: every other one that may not recognize with it.
    func defeated(byClaimOf winner: GestureRecognizer) -> [GestureRecognizer] {
        members.filter { $0 !== winner && !$0.recognizesSimultaneously(with: winner) }
    }

    /// Whether no member left can defeat `recognizer`.
    func isUnopposed(_ recognizer: GestureRecognizer) -> Bool {
        defeated(byClaimOf: recognizer).isEmpty
    }

    /// Whether the arena is to be swept: the pointer is up and no member holds it.
    var isDueForSweep: Bool {
        !isPointerDown && !members.contains { $0.holdsArenas }
    }

    /// The sweep's winner, the first member, and the members it defeats; `nil` when the arena
    /// is empty.
    func sweep() -> (winner: GestureRecognizer, defeated: [GestureRecognizer])? {
        guard let winner = members.first else { return nil }
        return (winner, defeated(byClaimOf: winner))
    }
}
