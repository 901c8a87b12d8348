// responder-demo: realistic scenarios, end to end, with every event's path printed.
//
//   swift run responder-demo

print("ResponderChain demo\n")
await OrderServiceDemo.run()
print()
await ProductScreenDemo.run()
