"""Writes the seed corpus of the wire fuzz target (Fuzz/Corpus/<target>/), from the golden
messages of ../Protos/fixtures/make_fixtures.py: each request and reply as it is, and inside the
ordered stream's frames. Run from this folder with `grpcio-tools` installed (see make_fixtures.py):

    /tmp/pb/bin/python make_corpus.py
"""

import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "Protos", "fixtures")
lines = subprocess.run([sys.executable, "make_fixtures.py"], cwd=fixtures, check=True,
                       capture_output=True, text=True).stdout.splitlines()


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def frame(sequence, field, payload):
    return b"\x08" + varint(sequence) + bytes([field << 3 | 2]) + varint(len(payload)) + payload


corpus = {"request": {}, "reply": {}, "ordered-request": {}, "ordered-reply": {}, "registry-names": {}}
for number, line in enumerate(lines, start=1):
    name, *hexes = line.split()
    # Wire format 3's messages are named `v3.<kind>.…`; the kind decides where they go.
    kind = name.removeprefix("v3.")
    for index, data in enumerate(bytes.fromhex(h) for h in hexes):
        label = name if index == 0 else f"{name}.merged"
        if kind.startswith("request."):
            corpus["request"][label] = data
            corpus["ordered-request"][label] = frame(number, 2, data)
        elif kind.startswith("reply."):
            corpus["reply"][label] = data
            corpus["ordered-reply"][label] = frame(number, 2, data)
        elif kind.startswith("registryNames"):
            corpus["registry-names"][label] = data
        elif name.startswith("ordered.request"):
            corpus["ordered-request"][label] = data
        elif name.startswith("ordered.reply"):
            corpus["ordered-reply"][label] = data
corpus["ordered-request"]["giveUp"] = b"\x08\x07\x18\x01"


def field(number, value):
    """A varint field (an int, as protobuf writes int64: negative as ten bytes) or a
    length-delimited one (bytes)."""
    if isinstance(value, int):
        return varint(number << 3) + varint(value & (2**64 - 1))
    return varint(number << 3 | 2) + varint(len(value)) + value


def outcome(kind, *fields):
    body = field(1, kind) + b"".join(fields) + field(8, field(1, 1) + field(2, b"b0"))
    return field(1, 2) + field(2, body)


# The edges of the ranges, and the values a peer sent that once stopped the process (each with
# its regression test in WireValidationTests).
edges = {
    "reply.edge.largestCounts": outcome(b"handled", field(2, 2**31 - 1), field(3, 2**31 - 1)),
    "reply.edge.largestLimit": outcome(b"rejected", field(17, b"limitReached"), field(18, 2**63 - 1)),
    "reply.edge.pingInfo": outcome(b"handled", field(2, 1), field(6, field(1, b"tag") + field(2, b'{"a":1}'))),
    "reply.regression.negativeHops": outcome(b"handled", field(2, -1)),
    "reply.regression.hugeHops": outcome(b"handled", field(2, 2**63 - 1)),
    "reply.regression.negativeHop": outcome(b"cancelled", field(13, -1), field(14, 1), field(15, b"taskCancelled")),
}
request = field(1, 2) + field(2, b"e") + field(3, field(1, b"ping") + field(2, b'{"count":1}'))
edges_requests = {
    "request.edge.ping": request + field(4, field(1, b"tag") + field(2, b'{"a":1}')),
    "request.edge.largestTimeLeft": request + field(7, (2**63 - 1) << 1),
    "request.regression.negativeHopsBefore": request + field(6, -1),
}
for number, (label, data) in enumerate(edges.items(), start=100):
    corpus["reply"][label] = data
    corpus["ordered-reply"][label] = frame(number, 2, data)
for number, (label, data) in enumerate(edges_requests.items(), start=100):
    corpus["request"][label] = data
    corpus["ordered-request"][label] = frame(number, 2, data)

for target, seeds in corpus.items():
    folder = os.path.join(here, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    for label, data in seeds.items():
        with open(os.path.join(folder, label), "wb") as file:
            file.write(data)
