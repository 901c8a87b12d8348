import OpenCombine
import ResponderChain

/// The OpenCombine side: D `PassthroughSubject`s, the ``SubjectStage`` subscribed to each forwarding
/// into the next one up; probes are sent into the bottom subject.
@PeerThread
final class SubjectChain: PeerChain {
    private let bottom: PassthroughSubject<any Event, Never>
    private let top: SubjectStage

    init(depth: Int) {
        let subjects = (0..<depth).map { _ in PassthroughSubject<any Event, Never>() }
        top = SubjectStage(output: nil)
        subjects[depth - 1].subscribe(top)
        // Each subject keeps its subscriber, and each stage the subject it forwards into.
        for level in 0..<(depth - 1) {
            subjects[level].subscribe(SubjectStage(output: subjects[level + 1]))
        }
        bottom = subjects[0]
    }

    func send(iterations: Int) -> Timed {
        let consumed = top.consumed
        let stopwatch = Stopwatch()
        for index in 0..<iterations {
            bottom.send(Probe(a: index, b: 1, c: 2))
        }
        let timed = stopwatch.stop(iterations: iterations, checksum: UInt64(bitPattern: Int64(top.seen)))
        precondition(top.consumed - consumed == iterations, "a probe did not reach the top stage")
        return timed
    }

    func finish() {
        bottom.send(completion: .finished)
    }
}
