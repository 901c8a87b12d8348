"""The schema's Python classes, generated from the .proto alone at start-up (nothing generated is
committed): `from remote_chain_stubs import pb, rpc`.

It compiles ../Protos/responderchain/v2/remote_chain.proto with grpcio-tools' protoc into a
temporary folder, for the messages (`pb`) and the gRPC stubs and servicer (`rpc`).
"""

import os
import shutil
import sys
import tempfile

try:
    import grpc  # noqa: F401
    from grpc_tools import protoc
except ImportError as error:
    sys.stderr.write(
        f"interop: {error}; the interop clients need grpcio and grpcio-tools: "
        "python3 -m pip install grpcio grpcio-tools protobuf\n")
    sys.exit(3)

_protos = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Protos")
_out = tempfile.mkdtemp(prefix="remote-chain-stubs-")
_status = protoc.main([
    "protoc", f"-I{_protos}", f"--python_out={_out}", f"--grpc_python_out={_out}",
    "responderchain/v2/remote_chain.proto"])
if _status != 0:
    sys.stderr.write(f"interop: protoc failed ({_status}) on {_protos}/responderchain/v2/remote_chain.proto\n")
    sys.exit(3)
sys.path.insert(0, _out)

from responderchain.v2 import remote_chain_pb2 as pb  # noqa: E402
from responderchain.v2 import remote_chain_pb2_grpc as rpc  # noqa: E402

sys.path.remove(_out)
shutil.rmtree(_out, ignore_errors=True)

__all__ = ["pb", "rpc"]
