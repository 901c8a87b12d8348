import OpenCombine
import ResponderChain

/// A stage of the OpenCombine chain: a subscriber to the subject below it that runs the 4-entry
/// ``BareHandlerTable`` lookup and forwards the event with its own subject's `send`; the top stage (no
/// subject of its own) consumes it. Asks for unlimited demand, as `sink` does.
final class SubjectStage: Subscriber {
    typealias Input = any Event
    typealias Failure = Never

    /// Where this stage forwards; `nil` at the top.
    private let output: PassthroughSubject<any Event, Never>?
    /// The sum of the handled events' `a`.
    private(set) var seen = 0
    /// How many events this stage consumed (the top one only).
    private(set) var consumed = 0

    init(output: PassthroughSubject<any Event, Never>?) {
        self.output = output
    }

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: any Event) -> Subscribers.Demand {
        if BareHandlerTable.standard.handle(input, isTop: output == nil, seen: &seen) == .handled {
            consumed &+= 1
        } else {
            output?.send(input)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        output?.send(completion: completion)
    }
}
