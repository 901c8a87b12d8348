@testable import ResponderChainPostgres
import Testing

@Suite("A store operation's ends", .timeLimit(.minutes(1)))
struct ConnectionOperationTests {
    struct Failure: Error, Equatable { let name: String }

    /// A task that starts `operation` and awaits its end.
    func started(_ operation: ConnectionOperation<Int>) -> Task<Result<Int, Failure>, Never> {
        let caller = Task { () -> Result<Int, Failure> in
            do {
                return .success(
                    try await withCheckedThrowingContinuation { continuation in
                        operation.start(continuation)
                    })
            } catch {
                return .failure(error as? Failure ?? Failure(name: "\(error)"))
            }
        }
        return caller
    }

    @Test(
        "the first end wins: a result after a give-up changes nothing, and the connection that came late is refused"
    )
    func aGiveUpEndsAWaitingOperation() async {
        let operation = ConnectionOperation<Int>()
        let caller = started(operation)
        operation.giveUp(Failure(name: "no connection"))
        #expect(await caller.value == .failure(Failure(name: "no connection")))
        #expect(operation.begin() == false)
        operation.end(.success(1))
    }

    @Test("a running operation is not given up: only its own end or its connection's close ends it")
    func aRunningOperationIsNotGivenUp() async {
        let operation = ConnectionOperation<Int>()
        let caller = started(operation)
        // Wait until the caller waits (begin() succeeds only then).
        while !operation.begin() { await Task.yield() }
        operation.giveUp(Failure(name: "no connection"))
        operation.cancel()
        operation.end(.success(7))
        #expect(await caller.value == .success(7))
    }

    @Test("a give-up before the caller waits ends it as soon as it waits")
    func anEarlyEndIsKept() async {
        let operation = ConnectionOperation<Int>()
        operation.giveUp(Failure(name: "cancelled"))
        let caller = started(operation)
        #expect(await caller.value == .failure(Failure(name: "cancelled")))
        #expect(operation.begin() == false)
    }

    @Test(
        "a caller cancelled while its operation runs cancels the operation's body, kept before or after",
        arguments: [true, false])
    func aCancelledCallerCancelsTheBody(keptBeforeCancel: Bool) async {
        let operation = ConnectionOperation<Int>()
        let caller = started(operation)
        while !operation.begin() { await Task.yield() }
        // A body that runs until it is cancelled, then ends the operation.
        let body = Task {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            operation.end(.failure(CancellationError()))
        }
        if keptBeforeCancel {
            operation.keep(body: body)
            operation.cancel()
        } else {
            operation.cancel()
            operation.keep(body: body)
        }
        await body.value
        #expect(await caller.value == .failure(Failure(name: "\(CancellationError())")))
    }
}
