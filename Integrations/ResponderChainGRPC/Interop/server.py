"""A server of the RemoteChain service written from the .proto alone: a stand-in for a backend in
another language, for InteropTests (Tests/ResponderChainGRPCTests/InteropTests.swift).

    python3 server.py [--port 0]

It serves one entry, `orders`, which handles every `orders.place` event at a responder labelled
`python-stock`, numbering the events in arrival order (`reservation`) and saying which method
brought each (`handled-by`: `python-unary` or `python-stream`). It refuses what the Swift side
refuses: another version, an unknown entry or event name, an event whose JSON lacks a key of the
shape, a DeliverInOrder frame whose number is not the next one. Once it listens it writes
`listening <port>`; it ends when its standard input does (the test that started it has gone).
"""

import argparse
import json
import sys
import threading
from concurrent import futures

import grpc

from remote_chain_stubs import pb, rpc

EXAMPLES = {"orders.place": {"quantity": 2, "sku": "A-1"}}
INFO_EXAMPLES = {"customer-id": "c-1", "handled-by": "backend-1", "reservation": 1}
STOCK = pb.WireResponder(id=1, label="python-stock")


class RemoteChain(rpc.RemoteChainServicer):
    def __init__(self):
        self.lock = threading.Lock()
        self.handled = 0

    def RegistryNames(self, request, context):
        return pb.RegisteredNames(
            events=sorted(EXAMPLES), info=sorted(INFO_EXAMPLES),
            event_examples=[pb.WireValue(name=k, json=json.dumps(v).encode()) for k, v in EXAMPLES.items()],
            info_examples=[pb.WireValue(name=k, json=json.dumps(v).encode()) for k, v in INFO_EXAMPLES.items()])

    def Deliver(self, request, context):
        return self.answer(request, "python-unary")

    def DeliverInOrder(self, frames, context):
        expected = 1
        for frame in frames:
            if frame.WhichOneof("frame") == "give_up":
                continue  # every request is answered at once: nothing is left to give up
            if frame.sequence != expected:
                yield pb.OrderedReply(sequence=frame.sequence, reply=refused(
                    undecodable=f"frame number {frame.sequence} where {expected} belongs"))
                continue
            expected += 1
            yield pb.OrderedReply(sequence=frame.sequence, reply=self.answer(frame.request, "python-stream"))

    def answer(self, request, method):
        if request.version != 2:
            return refused(unsupported_version=request.version)
        if request.entry != "orders":
            return refused(unknown_entry=request.entry)
        if request.event.name not in EXAMPLES:
            return refused(unknown_event=request.event.name)
        try:
            value = json.loads(request.event.json)
            missing = [key for key in EXAMPLES[request.event.name] if key not in value]
        except ValueError as error:
            return refused(undecodable=f"event \"{request.event.name}\": {error}")
        if missing:
            return refused(undecodable=f"event \"{request.event.name}\": keyNotFound {missing[0]}")
        with self.lock:
            self.handled += 1
            number = self.handled
        info = [pb.WireValue(name="reservation", json=json.dumps(number).encode()),
                pb.WireValue(name="handled-by", json=json.dumps(method).encode())]
        outcome = pb.WireOutcome(
            kind="handled", hops=1, handlers=[STOCK], info=info, responder=STOCK, phase="bubble")
        return pb.RemoteReply(version=2, outcome=outcome)


def refused(**reason):
    return pb.RemoteReply(version=2, refused=pb.RemoteRefusal(**reason))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    rpc.add_RemoteChainServicer_to_server(RemoteChain(), server)
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    server.start()
    print(f"listening {port}", flush=True)
    sys.stdin.read()  # until the test that started it ends
    server.stop(grace=1)


if __name__ == "__main__":
    main()
