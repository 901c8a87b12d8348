"""A client of the RemoteChain service written from the .proto alone, as a team in another
language would write one: it reads each name's JSON shape from the server (RegistryNames) and
builds its values from it.

    python3 client.py shapes --port 9000          # prints the server's names and their JSON shapes
    python3 client.py CASE --port 9000 [--entry orders]

Each CASE makes its calls and prints one line of JSON with what came back, for
InteropTests (Tests/ResponderChainGRPCTests/InteropTests.swift), which checks it:

    handled              an order built from the server's example: its outcome
    unknown-entry        an entry the server does not expose: refused
    unknown-event        an event name the server did not register: refused
    undecodable          the example without one of its keys: refused, naming the key
    unsupported-version  a request of version 1: refused
    too-large            a request of --bytes bytes: refused as too large
    deadline             a parked order under a plain gRPC deadline (--timeout s), no time left: the status
    ordered-deadline     the same on a DeliverInOrder stream whose call has the deadline
    ordered              DeliverInOrder: five orders, one to an unknown entry, a parked one and its
                         give-up: every reply, numbered
"""

import argparse
import json
import os
import sys
import threading
import time

import grpc

from remote_chain_stubs import pb, rpc


def shapes(stub):
    names = stub.RegistryNames(pb.Empty(), timeout=10)
    return {
        "events": list(names.events), "info": list(names.info),
        "event_examples": {v.name: json.loads(v.json) for v in names.event_examples},
        "info_examples": {v.name: json.loads(v.json) for v in names.info_examples},
    }


def order(stub, sku):
    """The JSON of an order: the server's example for `orders.place`, with `sku`."""
    value = shapes(stub)["event_examples"]["orders.place"]
    value["sku"] = sku
    return value


def request(entry, value, name="orders.place", version=2, info=None):
    return pb.RemoteRequest(
        version=version, entry=entry, event=pb.WireValue(name=name, json=json.dumps(value).encode()),
        info=[pb.WireValue(name=k, json=json.dumps(v).encode()) for k, v in (info or {}).items()],
        source="python-client")


def describe(reply):
    """A reply as JSON: the outcome's kind and where it ended, or the refusal and its value."""
    if reply.WhichOneof("body") == "outcome":
        outcome = reply.outcome
        described = {
            "version": reply.version, "kind": outcome.kind, "responder": outcome.responder.label,
            "hops": outcome.hops, "info": {v.name: json.loads(v.json) for v in outcome.info}}
        if outcome.HasField("stop_reason"):
            described["stop_reason"] = outcome.stop_reason
        return described
    refusal = reply.refused
    reason = refusal.WhichOneof("reason")
    value = getattr(refusal, reason)
    if reason == "too_large":
        value = {"bytes": value.bytes, "limit": value.limit}
    elif reason == "unknown_info":
        value = list(value.names)
    return {"version": reply.version, "refused": reason, "value": value}


def run(case, stub, args):
    entry = args.entry
    if case == "shapes":
        return shapes(stub)
    if case == "handled":
        info = {"customer-id": shapes(stub)["info_examples"]["customer-id"]}
        return describe(stub.Deliver(request(entry, order(stub, "py-1"), info=info), timeout=10))
    if case == "unknown-entry":
        return describe(stub.Deliver(request("nowhere", order(stub, "py-2")), timeout=10))
    if case == "unknown-event":
        return describe(stub.Deliver(request(entry, order(stub, "py-3"), name="orders.cancel"), timeout=10))
    if case == "undecodable":
        value = order(stub, "py-4")
        del value["quantity"]
        return describe(stub.Deliver(request(entry, value), timeout=10))
    if case == "unsupported-version":
        return describe(stub.Deliver(request(entry, order(stub, "py-5"), version=1), timeout=10))
    if case == "too-large":
        value = order(stub, "x" * args.bytes)
        return describe(stub.Deliver(request(entry, value), timeout=10))
    if case == "deadline":
        value = order(stub, "slow-deadline")
        try:
            return describe(stub.Deliver(request(entry, value), timeout=args.timeout))
        except grpc.RpcError as error:
            return {"status": error.code().name}
    if case == "ordered-deadline":
        frames = [pb.OrderedRequest(sequence=1, request=request(entry, order(stub, "slow-ordered")))]
        try:
            replies = [describe(reply.reply) for reply in stub.DeliverInOrder(iter(frames), timeout=args.timeout)]
            return {"replies": replies}
        except grpc.RpcError as error:
            return {"status": error.code().name}
    if case == "ordered":
        frames = [pb.OrderedRequest(sequence=n, request=request(entry, order(stub, f"o-{n}"))) for n in range(1, 6)]
        frames.append(pb.OrderedRequest(sequence=6, request=request("nowhere", order(stub, "o-6"))))
        frames.append(pb.OrderedRequest(sequence=7, request=request(entry, order(stub, "slow-7"))))
        six_answered = threading.Event()
        replies = []
        frames_out = ordered_frames(frames, six_answered, args.parked_file)
        for reply in stub.DeliverInOrder(frames_out, timeout=30):
            replies.append({"sequence": reply.sequence, **describe(reply.reply)})
            if len(replies) == 6:
                six_answered.set()
        return {"replies": replies}
    raise SystemExit(f"client.py: unknown case {case}")


def ordered_frames(frames, six_answered, parked_file):
    """The ordered stream's frames: the requests, then, once the first six are answered and the
    seventh is parked there (the test creates `parked_file` when its handler has begun), the
    give-up of the seventh; then the stream is closed."""
    yield from frames
    six_answered.wait()
    if parked_file:
        deadline = time.monotonic() + 20
        while not os.path.exists(parked_file):
            if time.monotonic() > deadline:
                raise SystemExit(f"client.py: {parked_file} did not appear: the seventh never parked")
            time.sleep(0.005)
    yield pb.OrderedRequest(sequence=7, give_up=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("case")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--entry", default="orders")
    parser.add_argument("--bytes", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=1.0)
    parser.add_argument("--parked-file", default=None)
    args = parser.parse_args()
    with grpc.insecure_channel(f"127.0.0.1:{args.port}") as channel:
        result = run(args.case, rpc.RemoteChainStub(channel), args)
    print(json.dumps(result, sort_keys=True))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
