print("responder-bench")
