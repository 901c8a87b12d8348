print("responder-demo")
