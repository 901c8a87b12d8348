import ResponderChain
import ResponderChainTesting

/// The event the tests send through `ScriptedResponder` chains.
struct Probe: Event {}
/// The error a failing responder throws.
struct Boom: Error {}

/// Returns once the current task is cancelled: a pass through a gate that never opens, which
/// only the cancellation ends (or, in a test that forgot to cancel, the gate's time limit).
func waitForCancellation() async {
    try? await Gate().pass()
}
