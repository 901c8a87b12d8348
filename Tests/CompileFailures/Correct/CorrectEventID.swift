// The control for EventIDRawValue.swift: the same code written with an identifier's two parts,
// which must typecheck with no error and no warning.

import ResponderChain

let id = EventID(epoch: 0, sequence: 7)
let number = id.sequence
let epoch = id.epoch
