// responder-demo: realistic scenarios, end to end, with every event's path printed.
//
//   swift run responder-demo

import ResponderChain

// Configure once, at start-up, before the first event: every responder that names no system of
// its own (all of the order service's) uses this one.
try EventSystem.bootstrap(OrderServiceSystem.system)

print("ResponderChain demo\n")
await OrderServiceDemo.run()
print()
await ProductScreenDemo.run()
