@_exported public import ResponderChain
