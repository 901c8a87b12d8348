// The single number an event identifier had before identifiers became unique across processes
// (Docs/Migration.md), used as code written before then uses it. Each use must be a compile error
// whose message names the two parts that replaced it, not "has no member".
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line; no error but those named):
// expect: error: 'init(rawValue:)' is unavailable: an identifier has two parts: 'EventID(epoch:sequence:)'; 'EventID(epoch: 0, sequence: n)' for one built by hand
// expect: error: 'rawValue' is unavailable: an identifier has two parts: read 'sequence' and 'epoch'

import ResponderChain

let id = EventID(rawValue: 7)
let number = id.rawValue
